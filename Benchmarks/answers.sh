#!/usr/bin/env bash
# Answer benchmark: POST /sessions/{id}/answers from 64 concurrent students on loopback,
# against PostgreSQL's own write throughput (pgbench's TPC-B-like transaction) on the same
# private cluster, in the same run; then every accepted answer is counted in the database.
#
#   Benchmarks/answers.sh        (DURATION=10 STUDENTS=64 CLIENTS=16 by default)
#
# Each student is a real account answering practice sessions of the demo catalogue; every
# 20th request repeats the previous answer (a retry), which must store nothing. An answer the
# portal sheds (503 with Retry-After, nothing done) is sent again under the same id after the
# wait, as a student presses the button again, and counted. The run fails if an accepted
# answer is missing from the table, if any row is there twice, or if any request ended with
# anything but a 303. Everything started is stopped by its process id.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10}
students=${STUDENTS:-64}
clients=${CLIENTS:-16}

work=$(mktemp -d)
# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
cleanup() {
    rm -rf "$work"
    stop_benchmark
}
trap cleanup EXIT

"$portal" migrate >/dev/null
"$portal" seed --if-empty >/dev/null

# PostgreSQL alone: pgbench's default read-write transaction, on its own database.
pgbench_ready
tpcb=$(pgbench_tpcb "$clients" "$duration")

start_portal "$cluster/answers-serve.log" REGISTRATIONS_PER_HOUR=100000

psql_cmd=$(superuser_psql portal)
postmaster=$(head -n 1 "$cluster/data/postmaster.pid")
result=$(SERVER_PID=$server_pid POSTMASTER_PID=$postmaster PORT=$port STUDENTS=$students DURATION=$duration PSQL="$psql_cmd" IDS_FILE="$work/ids" python3 Benchmarks/answers_client.py)
sessions=$(python3 -c 'import json,sys; print(",".join("'"'"'%s'"'"'" % s for s in json.loads(sys.argv[1])["sessions"]))' "$result")

# Count what arrived: every accepted id once, nothing else.
chmod 755 "$work"; chmod 644 "$work/ids"
counts=$(as_postgres "$bindir/psql" -X -At -h "$PGHOST" -U postgres -d portal <<SQL
CREATE TEMP TABLE accepted (id uuid PRIMARY KEY);
\\copy accepted FROM '$work/ids'
SELECT (SELECT count(*) FROM accepted) || ' ' ||
       (SELECT count(*) FROM answers WHERE session_id IN ($sessions)) || ' ' ||
       (SELECT count(*) FROM accepted a WHERE NOT EXISTS (SELECT 1 FROM answers x WHERE x.id = a.id)) || ' ' ||
       (SELECT count(*) - count(DISTINCT (session_id, question_id)) FROM answers WHERE session_id IN ($sessions));
SQL
)
read -r accepted rows lost doubled <<<"$(echo "$counts" | tail -n 1)"

python3 - "$result" "$tpcb" "$rows" "$lost" "$doubled" "$clients" <<'PY'
import json, os, sys
r = json.loads(sys.argv[1]); tpcb = int(sys.argv[2]); rows, lost, doubled = map(int, sys.argv[3:6]); clients = sys.argv[6]
rate = r["accepted"] / r["seconds"]
print(f"answers from {r['students']} concurrent students for {r['seconds']} s (each request one answer, keep-alive, loopback)")
print(f"  accepted answers      {r['accepted']:>8}   ({rate:,.0f} answers/s; p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms)")
print(f"  retries (same id)     {r['replays']:>8}   all accepted, none stored twice")
print(f"  shed, sent again      {r['shed']:>8}   (503 with Retry-After: waited over a second for a worker, nothing done)")
print(f"  error responses       {r['errors']:>8}   {r['error_statuses'] or ''}")
print(f"  rows in answers       {rows:>8}   lost {lost}, same question twice in a session {doubled}")
cpu = r["cpu_seconds"]
per = lambda seconds: f"{1000 * seconds / max(r['accepted'], 1):.2f} ms"
print(f"  CPU per answer        PostgreSQL {per(cpu['postgres'])}, portal {per(cpu['portal'])}, this client {per(cpu['client'])}"
      f" ({cpu['postgres']} s, {cpu['portal']} s, {cpu['client']} s of {os.cpu_count() * r['seconds']:.0f} s on {os.cpu_count()} cores)")
print(f"pgbench TPC-B-like, {clients} clients, prepared: {tpcb} tps")
print(f"answers/s : pgbench tps = {rate / tpcb:.2f}")
ok = r["errors"] == 0 and lost == 0 and doubled == 0 and rows == r["accepted"]
sys.exit(0 if ok else 1)
PY
