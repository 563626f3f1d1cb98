#!/usr/bin/env bash
# Offline study benchmark, on one exam of every demo question (the demo catalogue gathered into
# Network Fundamentals: 7,750 questions since it has markdown questions with exhibits and formulas, 7,250 when every kind of question, 6,500
# before, 5,000 before it had an exam in every interface language):
#   - the bundle's size, raw and gzip, and the time to build it after a content change
#     (the first request for the new version, less a request answered from memory);
#   - the change feed's size after 10 questions change, against the whole bundle's;
#   - the throughput of POST /api/progress: STUDENTS devices uploading batches of BATCH answers
#     (each batch one finished offline session; every 4th request repeats the batch before), against
#     PostgreSQL's own write throughput (pgbench TPC-B) on the same cluster in the same run.
# A batch the portal sheds (503 with Retry-After) goes again after the wait, as a device's outbox
# does, and is counted. The run fails unless every accepted answer is in the table exactly once
# and every batch ended accepted.
#
#   Benchmarks/offline.sh        (DURATION=10 STUDENTS=16 BATCH=100 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10}
students=${STUDENTS:-16}
batch=${BATCH:-100}

# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
trap stop_benchmark EXIT

psql_as_postgres() { as_postgres "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$PGHOST" -U postgres "$@"; }
psql_as_postgres -d postgres -c "DROP DATABASE IF EXISTS offline_bench WITH (FORCE)" -c "CREATE DATABASE offline_bench OWNER portal_owner"
export DATABASE_URL="${DATABASE_URL%/portal}/offline_bench" DATABASE_ADMIN_URL="${DATABASE_ADMIN_URL%/portal}/offline_bench"
"$portal" migrate >/dev/null
"$portal" seed >/dev/null
# One exam of every demo question, written an hour ago, its version half an hour old (outside the
# change feed's five-minute overlap, as content usually is).
"$portal" gen-data Benchmarks/presets/big-exam.json >/dev/null

pgbench_ready
tpcb=$(pgbench_tpcb "$students" "$duration")

start_portal "$cluster/offline-serve.log" REGISTRATIONS_PER_HOUR=100000
psql_cmd=$(superuser_psql offline_bench)
PORT=$port PSQL="$psql_cmd" STUDENTS=$students DURATION=$duration BATCH=$batch TPCB=$tpcb python3 Benchmarks/offline_client.py
