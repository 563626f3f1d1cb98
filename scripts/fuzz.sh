#!/usr/bin/env bash
# Fuzzes the HTTP request parser with libFuzzer (and AddressSanitizer, whose leak checker runs
# at exit) for a bounded time. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
data=$(scripts/data-dir.sh)
out="$data/fuzz"
mkdir -p "$out/corpus"
cp -n Tests/Fuzz/corpus/* "$out/corpus/" 2>/dev/null || true

swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name RequestParserFuzz \
    Sources/HTTPServer/Parsing/*.swift Tests/Fuzz/RequestParserFuzzer.swift -o "$out/request-parser-fuzzer" \
    >"$out/build.log" 2>&1 || { cat "$out/build.log"; echo "fuzz: the fuzzer did not build"; exit 1; }

# -timeout catches hangs, -rss_limit_mb runaway memory; crashes leave a reproducer in $out.
"$out/request-parser-fuzzer" "$out/corpus" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=20000 \
    -artifact_prefix="$out/" -print_final_stats=1 2>"$out/fuzz.log" || {
    tail -n 40 "$out/fuzz.log"
    echo "fuzz: FAILED (reproducer and log in $out)"
    exit 1
}
grep -E "stat::number_of_executed_units|cov:" "$out/fuzz.log" | tail -n 2
echo "fuzz: no crash, hang or leak in ${seconds}s"
