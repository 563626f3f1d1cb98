#!/usr/bin/env bash
# The browser tests' tools, once: Debian's Chromium and its matching chromedriver (no browser
# download), and pytest + Selenium in a virtual environment. Usage: scripts/browser-env.sh VENV_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:?usage: scripts/browser-env.sh VENV_DIR}
scripts/deps.sh chromium chromium-driver fonts-dejavu-core
# axe-core (4.12) comes inside axe-playwright-python; only its script is used, injected through
# Selenium, so Playwright itself (which would download its own browsers) is not installed.
axe_ready() { "$venv/bin/python" -c "import importlib.util as u, os; s = u.find_spec('axe_playwright_python'); assert os.path.exists(os.path.join(s.submodule_search_locations[0], 'axe.min.js'))" 2>/dev/null; }
# icalendar reads the calendar feed as calendar applications do (Tests/browser/test_calendar.py).
if [ -x "$venv/bin/pytest" ] && "$venv/bin/python" -c "import selenium, icalendar" 2>/dev/null && axe_ready; then exit 0; fi
[ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.20" pytest "icalendar>=6,<7"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps "axe-playwright-python==0.1.8"
