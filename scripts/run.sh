#!/usr/bin/env bash
# `make run`: a private development database when DATABASE_URL is not set, a private Redis for
# live events when REDIS_URL is not set, migrations, the demo catalogue when the database has
# none, the sign-in agent (`portal auth-agent`, as its own role) beside the server, and the
# server on http://127.0.0.1:8080 (HOST and PORT change it). Ctrl-C stops both; the database
# and Redis keep running for the next time (`make db-stop` stops them).
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
# The agent fetches the LMSs' and identity providers' key sets and exchanges single sign-on
# codes, connected as portal_agent; the server is never given that connection.
agent_url=${AUTH_AGENT_DATABASE_URL:-${DATABASE_URL/portal_app@/portal_agent@}}
AUTH_AGENT_DATABASE_URL=$agent_url "$binary" auth-agent &
agent=$!
trap 'kill "$agent" 2>/dev/null; wait "$agent" 2>/dev/null' EXIT
# Development mode: templates are re-read when they change, and a template that names a
# missing value fails loudly instead of rendering a gap.
env -u AUTH_AGENT_DATABASE_URL PORTAL_MODE="${PORTAL_MODE:-development}" "$binary" serve
