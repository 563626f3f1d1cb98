#!/usr/bin/env bash
# FSRS optimizer benchmark: `portal fsrs-optimize` on synthetic histories of 10,000 and 100,000
# reviews (cards reviewed on a growing schedule, each recalled with the probability of a simple
# forgetting curve whose stability grows on success and shrinks on a lapse; seeded, so every
# run fits the same data). Prints the seconds, the peak resident memory and the log loss of the
# default and the fitted weights.
#
#   Benchmarks/fsrs.sh        (SIZES="10000 100000" by default)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${SIZES:-10000 100000}
swift build -c release --explicit-target-dependency-import-check error >/dev/null
portal="$(swift build -c release --show-bin-path)/portal"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-10s %10s %12s %14s %14s\n' reviews seconds "peak MB" "log loss before" "after"
for size in $sizes; do
    python3 - "$size" >"$work/histories.json" <<'PY'
import json, random, sys, datetime
target = int(sys.argv[1]); rng = random.Random(20261130)
start = datetime.datetime(2026, 1, 1, 9, tzinfo=datetime.timezone.utc)
cards, total = [], 0
while total < target:
    at = start + datetime.timedelta(days=rng.randrange(0, 180))
    stability = rng.uniform(0.5, 4.0)
    reviews = [{"rating": 3 if rng.random() < 0.7 else 1, "at": at.isoformat().replace("+00:00", "Z")}]
    interval = 1
    while len(reviews) < 12 and total + len(reviews) < target:
        at += datetime.timedelta(days=interval)
        recall = (1 + interval / (9 * stability)) ** -1
        if rng.random() < recall:
            rating = 2 if rng.random() < 0.1 else 4 if rng.random() < 0.1 else 3
            stability *= rng.uniform(2.0, 3.5)
            interval = max(1, round(interval * 2.5))
        else:
            rating = 1
            stability = max(0.3, stability * 0.3)
            interval = 1
        reviews.append({"rating": rating, "at": at.isoformat().replace("+00:00", "Z")})
    total += len(reviews)
    cards.append({"reviews": reviews})
json.dump({"cards": cards}, sys.stdout)
PY
    /usr/bin/time -f '%e %M' -o "$work/time" "$portal" fsrs-optimize <"$work/histories.json" >"$work/fit.json"
    read -r seconds kilobytes <"$work/time"
    python3 - "$size" "$seconds" "$kilobytes" "$work/fit.json" <<'PY'
import json, sys
size, seconds, kilobytes, path = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
fit = json.load(open(path))
print(f"{int(size):>10,} {seconds:>10.2f} {kilobytes / 1024:>12.0f} {fit['logLossBefore']:>14.4f} {fit['logLoss']:>14.4f}   ({fit['reviews']:,} scored)")
PY
done
