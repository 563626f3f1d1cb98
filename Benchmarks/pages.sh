#!/usr/bin/env bash
# Page benchmark: the exam page of the portal against PostgreSQL's own select-only throughput on
# the same private cluster, in the same run.
#
#   Benchmarks/pages.sh        (DURATION=10s CONNECTIONS=64 CLIENTS=16 by default)
#
# Loads the demo catalogue, measures `pgbench -S` (16 clients on the unix socket, simple and
# prepared protocol), then `wrk -t2 -c64 --latency` against /exams/europe/network-fundamentals,
# and prints req/s, p99 and the ratio page req/s : pgbench tps. Everything started is stopped by
# its process id at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10s}
connections=${CONNECTIONS:-64}
clients=${CLIENTS:-16}
seconds=${duration%s}

BENCH_PACKAGES=wrk
# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
trap stop_benchmark EXIT

"$portal" migrate >/dev/null
"$portal" seed --if-empty >/dev/null

# PostgreSQL alone: select-only pgbench on its own database, scale 10.
pgbench_ready
pgbench_tps() {
    as_postgres "$bindir/pgbench" -S -n -c "$clients" -j 2 -T "$seconds" "$@" -h "$PGHOST" -U postgres pgbench 2>/dev/null \
        | awk '/^tps = / { printf "%d", $3 }'
}
simple=$(pgbench_tps)
prepared=$(pgbench_tps -M prepared)

start_portal "$cluster/bench-serve.log"
url="http://127.0.0.1:$port/exams/europe/network-fundamentals"
for _ in $(seq 50); do curl -fs "$url" >/dev/null && break; sleep 0.1; done
wrk -t1 -c8 -d2s "$url" >/dev/null
output=$(wrk -t2 -c"$connections" -d"$duration" --latency "$url")
page_rps=$(echo "$output" | awk '/^Requests\/sec:/ { printf "%d", $2 }')
page_p99=$(echo "$output" | awk '$1 == "99%" { print $2 }')
errors=$(echo "$output" | awk '/Non-2xx/ { print $5 }')
[ -z "$errors" ] || { echo "wrk saw $errors error responses"; exit 1; }

echo "exam page vs pgbench -S, $(nproc) cores, unix socket, $clients pgbench clients, wrk -t2 -c$connections -d$duration"
printf "%-34s %10s %10s\n" "" "per second" "p99"
printf "%-34s %10s %10s\n" "pgbench -S (simple protocol)" "$simple" "-"
printf "%-34s %10s %10s\n" "pgbench -S -M prepared" "$prepared" "-"
printf "%-34s %10s %10s\n" "GET /exams/europe/network-fundamentals" "$page_rps" "$page_p99"
python3 -c "print(f'page req/s : pgbench tps = {$page_rps/$simple:.2f} (simple), {$page_rps/$prepared:.2f} (prepared)')"
