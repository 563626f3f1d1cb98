#!/usr/bin/env bash
# The browser tests' tools, once: Debian's Chromium and its matching chromedriver (no browser
# download), and pytest + Selenium in a virtual environment. Usage: scripts/browser-env.sh VENV_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:?usage: scripts/browser-env.sh VENV_DIR}
scripts/deps.sh chromium chromium-driver fonts-dejavu-core
if [ -x "$venv/bin/pytest" ] && "$venv/bin/python" -c "import selenium" 2>/dev/null; then exit 0; fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.20" pytest
