#!/usr/bin/env bash
# Installs the Debian packages the build, the server and the tests need, when any is missing,
# and makes the formulas' font from them. Idempotent and quick when everything is present.
# Usage: scripts/deps.sh [extra-package …]
set -euo pipefail

packages=(pkg-config libpq-dev postgresql postgresql-contrib libsodium-dev zlib1g-dev libhiredis-dev libssl-dev openssl redis-server pgbouncer python3-venv python3-jwt python3-cryptography python3-aiosmtpd zbar-tools fonts-lmodern woff2 libxml2-utils "$@")
# xmllint checks the QTI exports against the schema in the tests; Java runs the Nu Html
# Checker; any installed JRE will do.
command -v java >/dev/null 2>&1 || packages+=(default-jre-headless)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exec "$(dirname "$0")/math-font.sh"
fi

echo "Installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Only refresh the package lists when an install from the current ones fails.
if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}"; then
    $sudo apt-get update
    $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
"$(dirname "$0")/math-font.sh"
