#!/usr/bin/env bash
# The formulas' font, so a formula looks the same on every device: Latin Modern Math from
# Debian's fonts-lmodern, compressed to WOFF2 by Debian's woff2, into Public/fonts/ under a
# versioned name (served as immutable; site.css names it). Made once, when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source=/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf
target=Public/fonts/latinmodern-math.2005.woff2
[ -s "$target" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$source" "$work/font.otf"
woff2_compress "$work/font.otf" >/dev/null 2>&1
mkdir -p Public/fonts
mv "$work/font.woff2" "$target"
