#!/usr/bin/env bash
# Fuzzes the HTTP request parser and the template parser with libFuzzer (and AddressSanitizer, whose leak checker runs
# at exit) for a bounded time. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
data=$(scripts/data-dir.sh)
out="$data/fuzz"
mkdir -p "$out"

# fuzz NAME SECONDS CORPUS SOURCES…: builds one fuzzer and runs it for a bounded time.
fuzz() {
    local name=$1 time=$2 corpus=$3
    shift 3
    mkdir -p "$out/$name-corpus"
    cp -n "$corpus"/* "$out/$name-corpus/" 2>/dev/null || true
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "${name//-/_}" "$@" -o "$out/$name" \
        >"$out/$name-build.log" 2>&1 || { cat "$out/$name-build.log"; echo "fuzz: $name did not build"; return 1; }
    # -timeout catches hangs, -rss_limit_mb runaway memory; crashes leave a reproducer in $out.
    "$out/$name" "$out/$name-corpus" -max_total_time="$time" -timeout=5 -rss_limit_mb=2048 -max_len=20000 \
        -artifact_prefix="$out/$name-" -print_final_stats=1 2>"$out/$name.log" || {
        tail -n 40 "$out/$name.log"
        echo "fuzz: $name FAILED (reproducer and log in $out)"
        return 1
    }
    echo "fuzz: $name ran $(grep -oE 'number_of_executed_units: [0-9]+' "$out/$name.log" | grep -oE '[0-9]+') inputs in ${time}s: no crash, hang or leak"
}

half=$(( (seconds + 1) / 2 ))
fuzz request-parser "$half" Tests/Fuzz/corpus Sources/HTTPServer/Parsing/*.swift Tests/Fuzz/RequestParserFuzzer.swift
fuzz template-parser "$half" Tests/Fuzz/template-corpus \
    Sources/TemplateEngine/TemplateParser.swift Sources/TemplateEngine/TemplateNode.swift \
    Sources/TemplateEngine/TemplateError.swift Tests/Fuzz/TemplateParserFuzzer.swift
