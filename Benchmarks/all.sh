#!/usr/bin/env bash
# Every benchmark, one after the other on this machine, then docs/performance.md written from
# what they printed (Benchmarks/performance_page.py): dated, naming the machine, each benchmark
# introduced by its own script's opening comment, one whose own check failed marked so. Figures
# of earlier runs are in git's history of that file, not in it.
#
#   Benchmarks/all.sh        (make bench; BENCHMARKS="pages answers" for some of them, printed
#                             but not written down: the page holds one whole run)
set -euo pipefail
cd "$(dirname "$0")/.."
every="http pages answers answer-cost capacity leaderboard live offline fsrs import-adversarial"
chosen=${BENCHMARKS:-$every}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

failed=""
for name in $chosen; do
    echo "== $name"
    if "Benchmarks/$name.sh" 2>&1 | grep -v -e "^warning: prohibited flag" -e "^NOTICE: " | tee "$out/$name.txt"; then :; else failed="$failed $name"; fi
done
[ "$chosen" = "$every" ] || { echo "(some benchmarks only: docs/performance.md left as it was)"; [ -z "$failed" ]; exit; }

# The page holds the whole run; a benchmark whose own check failed is marked so on it.
FAILED="$failed" python3 Benchmarks/performance_page.py "$out" $every
[ -z "$failed" ] || { echo "failed:$failed (marked so on docs/performance.md)"; exit 1; }
