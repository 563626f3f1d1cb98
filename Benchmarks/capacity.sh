#!/usr/bin/env bash
# Capacity benchmark: how many students can study at once on this box, each seeing their own
# pages, with every request type's p95 under 200 ms and no error.
#
#   Benchmarks/capacity.sh     (STEPS=500,1000,2000,3000,4000 STEP_SECONDS=60 by default)
#
# A database of its own (`capacity_bench`, the demo catalogue) and the portal in production mode;
# locust (headless, FastHttpUser, from PyPI in a virtual environment) plays the students and
# visitors of Benchmarks/capacity_locust.py in steps of users, each held STEP_SECONDS, and stops
# after the first step that fails — the step past the limit, which shows how overload is met.
# Then every acknowledged answer is looked for in the database: each must be there once.
#
# The students' accounts and sign-ins are made in the database beforehand (auth_register with an
# unusable password): a sign-in's deliberate cost (Argon2id) is paid once per device and week, not
# in the minute this measures. All the load comes from 127.0.0.1, so the per-address connection
# limit is lifted as it is behind a proxy. Everything started is stopped by its process id.
set -euo pipefail
cd "$(dirname "$0")/.."
export STEPS=${STEPS:-500,1000,2000,3000,4000}
export STEP_SECONDS=${STEP_SECONDS:-60}
export P95_LIMIT_MS=${P95_LIMIT_MS:-200}
largest=$(tr ',' '\n' <<<"$STEPS" | sort -n | tail -n 1)

# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
psql_super() { as_postgres "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -U postgres "$@"; }
work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
    [ -n "${KEEP:-}" ] || psql_super -d postgres -c "DROP DATABASE IF EXISTS capacity_bench" >/dev/null 2>&1 || true
    stop_benchmark
}
trap cleanup EXIT
# A connection per user, in the portal and in locust.
ulimit -n "$(ulimit -Hn)"

venv="$data/locust-venv"
if [ ! -x "$venv/bin/locust" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q locust
fi

psql_super -d postgres -c "DROP DATABASE IF EXISTS capacity_bench" -c "CREATE DATABASE capacity_bench OWNER portal_owner" >/dev/null
DATABASE_ADMIN_URL="${DATABASE_ADMIN_URL%/*}/capacity_bench"
DATABASE_URL="${DATABASE_URL%/*}/capacity_bench"
"$portal" migrate >/dev/null
"$portal" seed >/dev/null

# One account and one signed-in session per student; their tokens and CSRF tokens for locust.
psql_super -d capacity_bench -At -F $'\t' -v n="$largest" >"$work/accounts" <<'SQL'
CREATE TEMP TABLE capacity_accounts AS
SELECT i,
       translate(rtrim(encode(sha256(convert_to('session ' || i || ' ' || r, 'UTF8')), 'base64'), '='), '+/', '-_') AS token,
       translate(rtrim(encode(sha256(convert_to('csrf ' || i || ' ' || r, 'UTF8')), 'base64'), '='), '+/', '-_') AS csrf
  FROM generate_series(1, :n) AS i, (SELECT gen_random_uuid()::text AS r) AS run;
SELECT count(auth_register('capacity-' || i, 'Student ' || i, '$argon2id$v=19$m=65536,t=2,p=1$dW51c2FibGU$dW51c2FibGU', token, csrf, 'locust'))
  FROM capacity_accounts \g /dev/null
ANALYZE;
SELECT token, csrf FROM capacity_accounts ORDER BY i;
SQL

start_portal "$cluster/capacity-serve.log" MAX_CONNECTIONS_PER_ADDRESS=100000
postmaster=$(head -n 1 "$cluster/data/postmaster.pid")
SERVER_PID=$server_pid POSTMASTER_PID=$postmaster CAPACITY_ACCOUNTS="$work/accounts" \
CAPACITY_RESULT="$work/result.json" CAPACITY_ACKNOWLEDGED="$work/acknowledged" \
    "$venv/bin/locust" -f Benchmarks/capacity_locust.py --headless --host "http://127.0.0.1:$port" \
    --only-summary --loglevel WARNING \
    >"$work/locust.log" 2>&1 || true
[ -s "$work/result.json" ] || { echo "locust ended without a result:"; tail -n 30 "$work/locust.log"; exit 1; }

# Every acknowledged answer is stored, once.
chmod 644 "$work/acknowledged"
read -r acknowledged missing doubled <<<"$(psql_super -d capacity_bench -At <<SQL | tail -n 1
CREATE TEMP TABLE acknowledged (id uuid);
\\copy acknowledged FROM '$work/acknowledged'
SELECT (SELECT count(*) FROM acknowledged) || ' ' ||
       (SELECT count(*) FROM acknowledged a WHERE NOT EXISTS (SELECT 1 FROM answers x WHERE x.id = a.id)) || ' ' ||
       (SELECT count(*) FROM (SELECT id FROM acknowledged GROUP BY id HAVING count(*) > 1) twice);
SQL
)"

python3 - "$work/result.json" "$acknowledged" "$missing" "$doubled" <<'PY'
import json, os, sys
result = json.load(open(sys.argv[1])); acknowledged, missing, doubled = map(int, sys.argv[2:5])
limit = result["p95_limit_ms"]
print(f"capacity, {os.cpu_count()} cores, loopback; portal, PostgreSQL and locust on the same box; p95 limit {limit:g} ms")
best = None
for step in result["steps"]:
    cpu = step["cpu_seconds"]; total = sum(cpu.values()) or 1
    verdict = "within the limit" if step["passed"] else "past the limit"
    print(f"\n{step['users']} users for {step['seconds']:g} s: {step['requests_per_second']:,.0f} requests/s, "
          f"portal {step['portal_resident_mb']} MB resident, {verdict}")
    print("  CPU: " + ", ".join(f"{part} {seconds:g} s ({100 * seconds / total:.0f}%)" for part, seconds in cpu.items())
          + f" of {os.cpu_count() * step['seconds']:.0f} s")
    print(f"  {'request':28} {'count':>8} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7}")
    for name, kind in step["kinds"].items():
        print(f"  {name:28} {kind['requests']:>8} {kind['p50_ms']:>8g} {kind['p95_ms']:>8g} {kind['errors']:>7}")
    if step["passed"]:
        best = step["users"]
print(f"\nlargest step within the limit: {best or 'none'} concurrent users")
print(f"acknowledged answers: {acknowledged}; missing from the database {missing}, acknowledged twice {doubled}")
sys.exit(0 if missing == 0 and doubled == 0 else 1)
PY
