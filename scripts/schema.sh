#!/usr/bin/env bash
# The schema as the migrations and db/ make it, in one readable file: a throwaway database is
# migrated and dumped (`pg_dump --schema-only`, its run-specific lines left out).
#
#   scripts/schema.sh          writes db/schema.sql (`make schema`)
#   scripts/schema.sh check    exits 1, with the difference, when db/schema.sql is stale
#
# Uses the test cluster when PORTAL_TEST_ADMIN_URL is set (make test), else the development one.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-write}
data=$(scripts/data-dir.sh)
if [ -n "${PORTAL_TEST_ADMIN_URL:-}" ]; then
    admin=$PORTAL_TEST_ADMIN_URL
else
    scripts/pg.sh start "$data/dev-pg" >/dev/null
    admin=$(grep '^DATABASE_ADMIN_URL=' "$data/dev-pg/env" | cut -d= -f2-)
fi
binary="$(swift build --show-bin-path)/portal"
[ -x "$binary" ] || swift build --explicit-target-dependency-import-check error >/dev/null
name="schema_$$_$(date +%s)"
base=${admin%/*}
psql -X -q "$admin" -c "CREATE DATABASE $name" >/dev/null
trap 'psql -X -q "$admin" -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null' EXIT
DATABASE_ADMIN_URL="$base/$name" "$binary" migrate >/dev/null
dump=$(mktemp)
pg_dump --schema-only --no-tablespaces "$base/$name" \
    | grep -vE '^\\(un)?restrict |^-- Dumped (from|by) ' >"$dump"
if [ "$mode" = check ]; then
    if ! diff -u db/schema.sql "$dump" >"$dump.diff"; then
        head -n 60 "$dump.diff"
        echo "db/schema.sql is stale: run \`make schema\` and commit it"
        rm -f "$dump" "$dump.diff"
        exit 1
    fi
    rm -f "$dump" "$dump.diff"
    echo "db/schema.sql matches the migrations and db/"
else
    mv "$dump" db/schema.sql
    echo "wrote db/schema.sql ($(wc -l <db/schema.sql) lines)"
fi
