#!/usr/bin/env bash
# Prints the folder for private databases and other run-time state of this checkout:
# $PORTAL_DATA_DIR, else .data/ here — unless the scripts run as root and Debian's postgres
# user cannot reach this checkout (a home folder, say), then a folder under /tmp named after it.
set -euo pipefail
if [ -n "${PORTAL_DATA_DIR:-}" ]; then
    mkdir -p "$PORTAL_DATA_DIR" && cd "$PORTAL_DATA_DIR" && pwd
    exit 0
fi
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.data"
if [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1 && ! runuser -u postgres -- test -x "$root"; then
    dir="/tmp/study-portal-$(printf '%s' "$root" | sha256sum | cut -c1-12)"
fi
mkdir -p "$dir"
chmod 0755 "$dir"
echo "$dir"
