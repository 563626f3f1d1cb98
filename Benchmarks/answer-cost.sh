#!/usr/bin/env bash
# Answer cost: the database's own work for one practice answer — the one INSERT that admits,
# checks, scores, rates and stores it, changes the student's data version and schedules their
# card (answers_admit, answers_schedule, review_card_apply) — from one client, against the same
# for pgbench's TPC-B-like transaction on the same cluster, in the same run. Both are rolled back
# (the same question is answered again and again; neither waits for a disk flush), so the ratio
# is of the work alone: no HTTP, no pool, no other client. Each answer is a student's first to
# its question (a new card), among 100 single-choice questions of the demo exam.
#
#   Benchmarks/answer-cost.sh        (DURATION=10 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10}

# shellcheck source=Benchmarks/common.sh
. Benchmarks/common.sh
work=$(mktemp -d)
cleanup() {
    rm -rf "$work"
    stop_benchmark
}
trap cleanup EXIT
chmod 755 "$work"

"$portal" migrate >/dev/null
"$portal" seed --if-empty >/dev/null
pgbench_ready

# A student with one open practice session of 100 single-choice questions and a session token
# (the row-level security of portal_app holds as for the portal's own connections). Made by the
# superuser with the triggers aside for the set-up rows only.
token="answer-cost-$(date +%s)-0123456789abcdefghijklmnopqrstuv"
picks=$(as_postgres "$bindir/psql" -X -q -At -h "$PGHOST" -U postgres -d portal -v ON_ERROR_STOP=1 -v token="$token" <<'SQL'
SET client_min_messages = warning;
SET session_replication_role = replica;
CREATE TEMP TABLE made AS
SELECT gen_random_uuid() AS user_id, gen_random_uuid() AS session_id,
       (SELECT e.id FROM exams e JOIN regions r ON r.id = e.region_id WHERE r.code = 'europe' AND e.slug = 'network-fundamentals') AS exam_id;
INSERT INTO users (id, username, display_name, password_hash)
SELECT user_id, 'answer-cost-' || left(user_id::text, 8), 'Answer cost', '$argon2id$none' FROM made;
INSERT INTO study_sessions (id, user_id, exam_id, mode, question_ids, started_at)
SELECT m.session_id, m.user_id, m.exam_id, 'practice',
       ARRAY(SELECT q.id FROM questions q JOIN domains d ON d.id = q.domain_id
             WHERE d.exam_id = m.exam_id AND q.type = 'single-choice' AND q.status = 'published' AND q.deleted_at IS NULL ORDER BY q.id LIMIT 100),
       now() - interval '1 hour'
FROM made m;
INSERT INTO auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at)
SELECT user_id, sha256(convert_to(:'token', 'UTF8')), 'answer-cost', now(), now() FROM made;
DROP TABLE IF EXISTS answer_cost_picks;
CREATE TABLE answer_cost_picks AS
SELECT item.n::integer AS n, s.id AS session_id, s.user_id, q.id AS question_id, q.version
FROM made m JOIN study_sessions s ON s.id = m.session_id
CROSS JOIN LATERAL unnest(s.question_ids) WITH ORDINALITY AS item(id, n) JOIN questions q ON q.id = item.id;
GRANT SELECT ON answer_cost_picks TO portal_app;
SELECT count(*) FROM answer_cost_picks;
SQL
)

cat >"$work/answer.sql" <<SQL
\set k random(1, $picks)
BEGIN;
SELECT set_config('app.session_token', '$token', true);
INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, time_ms, answered_at)
SELECT gen_random_uuid(), p.session_id, p.user_id, p.question_id, p.version, '[0]'::jsonb, 5000, now() FROM answer_cost_picks p WHERE p.n = :k;
ROLLBACK;
SQL
cat >"$work/tpcb.sql" <<'SQL'
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
ROLLBACK;
SQL

# One client each, prepared; the figures are pgbench's own (failed transactions would show).
measure() {
    as_postgres "$bindir/pgbench" -n -c 1 -T "$duration" -M prepared "$@" 2>&1 \
        | awk '/^number of failed transactions/ { failed = $5 } /^latency average/ { latency = $4 } /^tps = / { tps = $3 }
               END { printf "%d %.3f %s", tps, latency, (failed == "" ? 0 : failed) }'
}
read -r answer_tps answer_ms answer_failed <<<"$(measure -f "$work/answer.sql" -h "$PGHOST" -U portal_app portal)"
read -r tpcb_tps tpcb_ms tpcb_failed <<<"$(measure -f "$work/tpcb.sql" -D scale=10 -h "$PGHOST" -U postgres pgbench)"
as_postgres "$bindir/psql" -X -q -h "$PGHOST" -U postgres -d portal -c "DROP TABLE answer_cost_picks" >/dev/null

echo "one client, $duration s each, rolled back (the database's work alone)"
printf '  an answer (admit, check, rate, store, schedule)   %6s per s   %6s ms each   failed %s\n' "$answer_tps" "$answer_ms" "$answer_failed"
printf '  pgbench TPC-B-like transaction                   %6s per s   %6s ms each   failed %s\n' "$tpcb_tps" "$tpcb_ms" "$tpcb_failed"
python3 -c "import sys; a, t = int(sys.argv[1]), int(sys.argv[2]); print(f'answers : TPC-B = {a / max(t, 1):.2f}')" "$answer_tps" "$tpcb_tps"
[ "$answer_failed" = 0 ] && [ "$answer_tps" -gt 0 ]
