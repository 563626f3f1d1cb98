#!/usr/bin/env bash
# How faithfully a folder of other systems' question files comes in (a tool for people, not
# part of `make test`): every file is imported with --skip-unsupported into an exam of its own
# in a throwaway database, exported in all four formats and imported again, and a table per
# collection is printed (`portal corpus-check`). The QTI 2.1 exports are validated with
# xmllint when the official schemas are beside the folder (`../xsd/qtiv2p1/`, as in the
# shared corpus) or named by QTI_SCHEMAS.
#
#   scripts/corpus-check.sh DIR        e.g. scripts/corpus-check.sh ../shared/corpus/interop
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: scripts/corpus-check.sh DIR" >&2; exit 2; }
folder=$(cd "$1" && pwd)
data=$(scripts/data-dir.sh)
scripts/pg.sh start "$data/dev-pg" >/dev/null
admin=$(grep '^DATABASE_ADMIN_URL=' "$data/dev-pg/env" | cut -d= -f2-)
binary="$(swift build --show-bin-path)/portal"
[ -x "$binary" ] || swift build --explicit-target-dependency-import-check error >/dev/null
name="corpus_$$_$(date +%s)"
base=${admin%/*}
work=$(mktemp -d)
psql -X -q "$admin" -c "CREATE DATABASE $name" >/dev/null
trap 'psql -X -q "$admin" -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null; rm -rf "$work"' EXIT
DATABASE_ADMIN_URL="$base/$name" "$binary" migrate >/dev/null
DATABASE_ADMIN_URL="$base/$name" "$binary" corpus-check "$folder" --qti21-out "$work/qti21"

schemas=${QTI_SCHEMAS:-$folder/../xsd}
if [ -f "$schemas/qtiv2p1/imsqti_v2p1.xsd" ] && command -v xmllint >/dev/null; then
    # The QTI 2.1 schema imports the APIP accessibility schema, which nothing exported uses.
    cp -r "$schemas" "$work/xsd"
    sed -i '/apip/d' "$work/xsd/qtiv2p1/imsqti_v2p1.xsd"
    items=0 valid=0
    while IFS= read -r -d '' item; do
        items=$((items + 1))
        if why=$(xmllint --noout --nonet --schema "$work/xsd/qtiv2p1/imsqti_v2p1.xsd" "$item" 2>&1); then
            valid=$((valid + 1))
        else
            folder=$(dirname "$(dirname "$item")")
            echo "schema: $(cat "$folder/source.txt") exported as $(basename "$item"): $(echo "$why" | grep -m1 -v 'fails to validate' | cut -c1-300)"
        fi
    done < <(find "$work/qti21" -path '*/items/*.xml' -print0)
    echo
    echo "QTI 2.1 exports against the official schema: $valid of $items items valid"
else
    echo
    echo "QTI 2.1 exports not validated: no schemas at $schemas/qtiv2p1 (set QTI_SCHEMAS) or no xmllint"
fi
