#!/usr/bin/env bash
# Leaderboard benchmark: the refresh of the materialized view over 1,000,000 answers, and the
# leaderboard page with 10,000 students on the board, against pgbench -S on the same private
# cluster in the same run.
#
#   Benchmarks/leaderboard.sh      (STUDENTS=10000 ANSWERS=1000000 DURATION=10s by default)
#
# The history comes from `portal gen-data Benchmarks/presets/leaderboard.json` (finished
# practice sessions of the demo catalogue's Network Fundamentals exam, spread over the past 30
# days), then the board is refreshed three times; the page is
# measured for a visitor (cached until the next refresh) and for a signed-in student (their
# own place and neighbours read every time). Everything started is stopped by its process id.
set -euo pipefail
cd "$(dirname "$0")/.."
students=${STUDENTS:-10000}
answers=${ANSWERS:-1000000}
duration=${DURATION:-10s}
seconds=${duration%s}

BENCH_PACKAGES=wrk
# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
psql_super() { as_postgres "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -U postgres "$@"; }
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    [ -n "${KEEP:-}" ] || psql_super -d postgres -c "DROP DATABASE IF EXISTS leaderboard_bench" >/dev/null 2>&1 || true
    stop_benchmark
}
trap cleanup EXIT

# A database of its own, so the generated history never mixes with other runs.
psql_super -d postgres -c "DROP DATABASE IF EXISTS leaderboard_bench" -c "CREATE DATABASE leaderboard_bench OWNER portal_owner" >/dev/null
DATABASE_ADMIN_URL="${DATABASE_ADMIN_URL%/*}/leaderboard_bench"
DATABASE_URL="${DATABASE_URL%/*}/leaderboard_bench"
"$portal" migrate >/dev/null
"$portal" seed >/dev/null

echo "generating $students students and $answers answers …"
"$portal" gen-data Benchmarks/presets/leaderboard.json --students "$students" --answers "$answers" >/dev/null

refresh_ms() {
    psql_super -d leaderboard_bench -At -c "SET ROLE portal_app" \
        -c "SELECT leaderboard_refresh('0 s', 'bench')" >/dev/null
    psql_super -d leaderboard_bench -At -c "SELECT duration_ms FROM leaderboard_refreshes ORDER BY refreshed_at DESC LIMIT 1"
}
refreshes=("$(refresh_ms)" "$(refresh_ms)" "$(refresh_ms)")
board=$(psql_super -d leaderboard_bench -At -c "SELECT count(*) FROM leaderboard_entries WHERE period = 'all'")

# PostgreSQL alone: select-only pgbench on its own database.
pgbench_ready
pgbench_tps=$(as_postgres "$bindir/pgbench" -S -n -c 16 -j 2 -T "$seconds" -h "$PGHOST" -U postgres pgbench 2>/dev/null \
    | awk '/^tps = / { printf "%d", $3 }')

# A signed-in student in the middle of the board: a session cookie made in SQL.
token=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
middle=$((students / 2))
psql_super -d leaderboard_bench -c "INSERT INTO auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at)
    VALUES (md5('u$middle')::uuid, sha256(convert_to('$token', 'UTF8')), 'bench', now(), now())" >/dev/null

start_portal "$cluster/leaderboard-serve.log" LEADERBOARD_REFRESH_SECONDS=0
url="http://127.0.0.1:$port/exams/europe/network-fundamentals/leaderboard?window=all&page=3"
curl -fs -H "Cookie: portal_session=$token" "$url" | grep -q 'You are number' || { echo "the signed-in page does not show the student's place"; exit 1; }
measure() {
    local output
    output=$(wrk -t2 -c64 -d"$duration" --latency "$@" "$url")
    local errors
    errors=$(echo "$output" | awk '/Non-2xx/ { print $5 }')
    [ -z "$errors" ] || { echo "wrk saw $errors error responses" >&2; exit 1; }
    echo "$(echo "$output" | awk '/^Requests\/sec:/ { printf "%d", $2 }') $(echo "$output" | awk '$1 == "99%" { print $2 }')"
}
read -r visitor_rps visitor_p99 <<<"$(measure)"
read -r student_rps student_p99 <<<"$(measure -H "Cookie: portal_session=$token")"

echo "leaderboard: $board students on the board, $answers answers, $(nproc) cores"
echo "refresh CONCURRENTLY: ${refreshes[0]} ms, ${refreshes[1]} ms, ${refreshes[2]} ms"
printf "%-44s %10s %10s\n" "" "per second" "p99"
printf "%-44s %10s %10s\n" "pgbench -S (16 clients, simple protocol)" "$pgbench_tps" "-"
printf "%-44s %10s %10s\n" "leaderboard page 3, visitor (cached)" "$visitor_rps" "$visitor_p99"
printf "%-44s %10s %10s\n" "leaderboard page 3, signed-in student" "$student_rps" "$student_p99"
python3 -c "print(f'page req/s : pgbench tps = {$visitor_rps/$pgbench_tps:.2f} (visitor), {$student_rps/$pgbench_tps:.2f} (signed in)')"
