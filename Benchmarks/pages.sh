#!/usr/bin/env bash
# Page benchmark: every page a student or teacher sees, signed in, against the visitor's exam
# page, a static file of Public/ and PostgreSQL's own select-only throughput — one run, one
# private cluster, this machine.
#
#   Benchmarks/pages.sh        (DURATION=10s CONNECTIONS=64 CLIENTS=16 by default)
#
# A database of its own (`pages_bench`): the demo catalogue, a student with a realistic history
# (Benchmarks/presets/student.json: 2,000 answers over 3 exams, 1,500 review cards), thirty-nine
# classmates with histories in one teacher's class of forty, six assignments with their attempts
# (Benchmarks/pages_setup.py): the class page and the gradebook at forty pupils. Then
# `pgbench -S` (16 clients, simple and prepared protocol) and `wrk -t2 -c64 --latency` on each
# page (asking for gzip, as browsers do), and prints req/s, p99, the ratio to the visitor exam
# page and to the static file, and the server's resident memory at the end. Everything started is stopped by its process id.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10s}
connections=${CONNECTIONS:-64}
clients=${CLIENTS:-16}
seconds=${duration%s}

BENCH_PACKAGES=wrk
# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
psql_super() { as_postgres "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -U postgres "$@"; }
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    [ -n "${KEEP:-}" ] || psql_super -d postgres -c "DROP DATABASE IF EXISTS pages_bench" >/dev/null 2>&1 || true
    stop_benchmark
}
trap cleanup EXIT

psql_super -d postgres -c "DROP DATABASE IF EXISTS pages_bench" -c "CREATE DATABASE pages_bench OWNER portal_owner" >/dev/null
DATABASE_ADMIN_URL="${DATABASE_ADMIN_URL%/*}/pages_bench"
DATABASE_URL="${DATABASE_URL%/*}/pages_bench"
"$portal" migrate >/dev/null
"$portal" seed >/dev/null

# PostgreSQL alone: select-only pgbench on its own database, scale 10.
pgbench_ready
pgbench_tps() {
    as_postgres "$bindir/pgbench" -S -n -c "$clients" -j 2 -T "$seconds" "$@" -h "$PGHOST" -U postgres pgbench 2>/dev/null \
        | awk '/^tps = / { printf "%d", $3 }'
}
simple=$(pgbench_tps)
prepared=$(pgbench_tps -M prepared)

start_portal "$cluster/pages-serve.log" REGISTRATIONS_PER_HOUR=100000
setup=$(PORT=$port PORTAL="$portal" PSQL="$(superuser_psql pages_bench)" python3 Benchmarks/pages_setup.py)
echo "$setup" >"$cluster/pages-setup.json"

# One wrk run: prints "req/s p99"; fails on any error response.
measure() {
    local path=$1 cookie=${2:-} output errors
    # As a browser asks: gzip accepted (the static file and kept pages have gzipped copies).
    local headers=(-H "Accept-Encoding: gzip")
    [ -z "$cookie" ] || headers+=(-H "Cookie: $cookie")
    wrk -t1 -c8 -d2s "${headers[@]}" "http://127.0.0.1:$port$path" >/dev/null
    output=$(wrk -t2 -c"$connections" -d"$duration" --latency "${headers[@]}" "http://127.0.0.1:$port$path")
    errors=$(echo "$output" | awk '/Non-2xx/ { print $5 }')
    [ -z "$errors" ] || { echo "wrk saw $errors error responses on $path" >&2; exit 1; }
    echo "$(echo "$output" | awk '/^Requests\/sec:/ { printf "%d", $2 }') $(echo "$output" | awk '$1 == "99%" { print $2 }')"
}

rows=()
rows+=("static file /css/site.css|$(measure /css/site.css)")
rows+=("visitor exam page|$(measure /exams/europe/network-fundamentals)")
while IFS=$'\t' read -r name path cookie; do
    rows+=("$name|$(measure "$path" "$cookie")")
done < <(python3 -c '
import json, sys
setup = json.loads(sys.argv[1])
for who in ("student", "teacher"):
    for name, path in setup[who]["pages"].items():
        print(name, path, setup[who]["cookie"], sep="\t")' "$setup")
rss=$(awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$server_pid/status")
peak=$(awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$server_pid/status")

echo "pages, $(nproc) cores, loopback, wrk -t2 -c$connections -d$duration; pgbench -S with $clients clients on the unix socket"
printf "%s\n" "${rows[@]}" | python3 -c '
import sys
rows = [line.rstrip("\n").split("|") for line in sys.stdin]
values = {name: (int(value.split()[0]), value.split()[1]) for name, value in rows}
static, visitor = values["static file /css/site.css"][0], values["visitor exam page"][0]
print("%-34s %8s %9s %10s %9s" % ("", "req/s", "p99", "x visitor", "x static"))
for name, (rps, p99) in values.items():
    print(f"{name:34} {rps:>8} {p99:>9} {rps / visitor:>10.2f} {rps / static:>9.2f}")
'
printf "%-34s %8s\n" "pgbench -S (simple protocol)" "$simple"
printf "%-34s %8s\n" "pgbench -S -M prepared" "$prepared"
echo "server memory: $rss MB resident now, $peak MB at most"
