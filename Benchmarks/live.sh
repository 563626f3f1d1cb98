#!/usr/bin/env bash
# Live-event benchmark: PARTICIPANTS players (default 1,000) hold the event stream open while
# answers arrive one at a time; for each answer, the time until every stream has the updated
# scoreboard (p50/p99). Redis and PostgreSQL are private servers; everything started is stopped
# by its process id.
#
#   Benchmarks/live.sh        (PARTICIPANTS=1000 SAMPLES=200 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
participants=${PARTICIPANTS:-1000}
samples=${SAMPLES:-200}

# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
redis="$data/bench-redis"
scripts/redis.sh start "$redis" >/dev/null
cleanup() {
    stop_benchmark
    scripts/redis.sh stop "$redis"
}
trap cleanup EXIT
# shellcheck disable=SC1091
set -a; . "$redis/env"; set +a
psql_super() { as_postgres "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$PGHOST" -U postgres -d portal "$@"; }

"$portal" migrate >/dev/null
"$portal" seed --if-empty >/dev/null

# A teacher with a session cookie made in SQL, and an event whose first question stays open.
token=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
psql_super <<SQL >/dev/null
INSERT INTO users (username, display_name, password_hash, role) VALUES ('bench-teacher', 'Bench Teacher', '\$argon2id\$bench', 'teacher')
ON CONFLICT DO NOTHING;
INSERT INTO auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at)
SELECT id, sha256(convert_to('$token', 'UTF8')), 'bench', now(), now() FROM users WHERE username = 'bench-teacher';
SQL

# Every player connects from 127.0.0.1: the per-address connection limit (1,000 by default) is
# lifted as it is behind a proxy, or the 1,000 open streams would leave no room for an answer.
start_portal "$cluster/live-serve.log" LEADERBOARD_REFRESH_SECONDS=0 MAX_CONNECTIONS=4000 MAX_CONNECTIONS_PER_ADDRESS=100000
cookie="portal_session=$token"
location=$(curl -fs -o /dev/null -w '%{redirect_url}' -H "Cookie: $cookie" \
    --data "csrf_token=bench&form_token=benchmark-event-$(date +%s%N)&title=Benchmark&exam=europe/network-fundamentals&count=3&seconds=300" "http://127.0.0.1:$port/live")
code=$(echo "$location" | sed -E 's#.*/live/([A-Z0-9]+)/host#\1#')

# Join everyone, then start (the first question opens 5 s later and stays open 300 s).
result_file=$(mktemp)
PORT=$port CODE=$code PARTICIPANTS=$participants SAMPLES=$samples python3 Benchmarks/live_client.py >"$result_file" &
client_pid=$!
for _ in $(seq 600); do
    joined=$(psql_super -c "SELECT count(*) FROM live_participants p JOIN live_events e ON e.id = p.event_id WHERE e.code = '$code'")
    [ "$joined" -ge "$participants" ] && break
    sleep 0.2
done
sleep 2
curl -fs -o /dev/null -H "Cookie: $cookie" --data "csrf_token=bench" "http://127.0.0.1:$port/live/$code/start"
wait "$client_pid"
result=$(cat "$result_file"); rm -f "$result_file"
python3 - "$result" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"live event: {r['participants']} players holding the event stream open, {r['samples']} answers one at a time")
print(f"answer → updated scoreboard on every stream: p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms")
PY
