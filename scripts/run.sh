#!/usr/bin/env bash
# `make run`: a private development database when DATABASE_URL is not set, migrations, and the
# server on http://127.0.0.1:8080 (HOST and PORT change it). Ctrl-C stops the server; the
# database keeps running for the next time (scripts/pg.sh stop "$(scripts/data-dir.sh)/dev-pg").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
if [ -z "${DATABASE_URL:-}" ]; then
    data=$(scripts/data-dir.sh)
    scripts/pg.sh start "$data/dev-pg"
    # shellcheck disable=SC1091
    set -a; . "$data/dev-pg/env"; set +a
fi
swift build -c release --explicit-target-dependency-import-check error
binary=$(swift build -c release --show-bin-path)/portal
"$binary" migrate
exec "$binary" serve
