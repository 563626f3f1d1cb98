#!/usr/bin/env bash
# `make run`: a private development database when DATABASE_URL is not set, a private Redis for
# live events when REDIS_URL is not set, migrations, the demo catalogue when the database has
# none, and the server on http://127.0.0.1:8080 (HOST and PORT change it). Ctrl-C stops the
# server; the database and Redis keep running for the next time (`make db-stop` stops them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
if [ -z "${DATABASE_URL:-}" ]; then
    data=$(scripts/data-dir.sh)
    scripts/pg.sh start "$data/dev-pg"
    # shellcheck disable=SC1091
    set -a; . "$data/dev-pg/env"; set +a
fi
if [ -z "${REDIS_URL:-}" ]; then
    data=$(scripts/data-dir.sh)
    scripts/redis.sh start "$data/dev-redis"
    # shellcheck disable=SC1091
    set -a; . "$data/dev-redis/env"; set +a
fi
swift build -c release --explicit-target-dependency-import-check error
binary=$(swift build -c release --show-bin-path)/portal
"$binary" migrate
"$binary" seed --if-empty
# Development mode: templates are re-read when they change, and a template that names a
# missing value fails loudly instead of rendering a gap.
PORTAL_MODE=${PORTAL_MODE:-development} exec "$binary" serve
