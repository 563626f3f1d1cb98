#!/usr/bin/env bash
# Fuzzes the HTTP request parser, the template parser, the markdown reader of question text and
# the importers (the XML reader, HTML reduction, GIFT, Aiken, Moodle XML and QTI) with libFuzzer (and AddressSanitizer, whose leak
# checker runs at exit) for a bounded time. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
data=$(scripts/data-dir.sh)
out="$data/fuzz"
mkdir -p "$out"

# fuzz NAME SECONDS CORPUS SOURCES…: builds one fuzzer from its sources and runs it.
fuzz() {
    local name=$1 time=$2 corpus=$3
    shift 3
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "${name//-/_}" "$@" -o "$out/$name" \
        >"$out/$name-build.log" 2>&1 || { cat "$out/$name-build.log"; echo "fuzz: $name did not build"; return 1; }
    run "$name" "$time" "$corpus"
}

# The importers need their modules: QuestionEngine and ContentPackage as they are, Interop
# instrumented for coverage, linked into the fuzzer (with zlib and libsodium).
build_import_fuzzer() {
    local mods="$out/import-modules" log="$out/import-fuzzer-build.log"
    mkdir -p "$mods"
    local includes=(-I "$mods" -I Sources/CZlib -I Sources/CSodium) engine
    mapfile -t engine < <(find Sources/QuestionEngine -name "*.swift" | sort)
    {
        swiftc -O -parse-as-library -emit-library -static -emit-module -module-name QuestionEngine \
            -emit-module-path "$mods/QuestionEngine.swiftmodule" "${engine[@]}" -o "$mods/libQuestionEngine.a" &&
        swiftc -O -parse-as-library -emit-library -static -emit-module -module-name ContentPackage "${includes[@]}" \
            -emit-module-path "$mods/ContentPackage.swiftmodule" Sources/ContentPackage/*.swift -o "$mods/libContentPackage.a" &&
        swiftc -O -parse-as-library -sanitize=fuzzer,address -emit-library -static -emit-module -module-name Interop "${includes[@]}" \
            -emit-module-path "$mods/Interop.swiftmodule" Sources/Interop/*.swift -o "$mods/libInterop.a" &&
        swiftc -O -parse-as-library -sanitize=fuzzer,address -module-name import_fuzzer "${includes[@]}" Tests/Fuzz/ImportFuzzer.swift \
            "$mods/libInterop.a" "$mods/libContentPackage.a" "$mods/libQuestionEngine.a" -lz -lsodium -o "$out/import"
    } >"$log" 2>&1 || { cat "$log"; echo "fuzz: import did not build"; return 1; }
}

# run NAME SECONDS CORPUS: runs a built fuzzer for a bounded time (-timeout catches hangs,
# -rss_limit_mb runaway memory; crashes leave a reproducer in $out).
run() {
    local name=$1 time=$2 corpus=$3
    mkdir -p "$out/$name-corpus"
    cp -n "$corpus"/* "$out/$name-corpus/" 2>/dev/null || true
    "$out/$name" "$out/$name-corpus" -max_total_time="$time" -timeout=5 -rss_limit_mb=2048 -max_len=20000 \
        -artifact_prefix="$out/$name-" -print_final_stats=1 2>"$out/$name.log" || {
        tail -n 40 "$out/$name.log"
        echo "fuzz: $name FAILED (reproducer and log in $out)"
        return 1
    }
    echo "fuzz: $name ran $(grep -oE 'number_of_executed_units: [0-9]+' "$out/$name.log" | grep -oE '[0-9]+') inputs in ${time}s: no crash, hang or leak"
}

share=$(( (seconds + 3) / 4 ))
# Two lanes at once (a fuzzer and a compiler each use one core): the three small fuzzers one
# after another, and the importers' fuzzer, whose modules take longest to build. Each lane's
# report is printed when both are done.
small_lane() {
    fuzz request-parser "$share" Tests/Fuzz/corpus Sources/HTTPServer/Parsing/*.swift Tests/Fuzz/RequestParserFuzzer.swift &&
    fuzz template-parser "$share" Tests/Fuzz/template-corpus \
        Sources/TemplateEngine/TemplateParser.swift Sources/TemplateEngine/TemplateNode.swift \
        Sources/TemplateEngine/TemplateError.swift Tests/Fuzz/TemplateParserFuzzer.swift &&
    fuzz markdown "$share" Tests/Fuzz/markdown-corpus Sources/QuestionEngine/Content/*.swift Tests/Fuzz/MarkdownFuzzer.swift
}
import_lane() {
    build_import_fuzzer && run import "$share" Tests/Fuzz/import-corpus
}
small_lane >"$out/small-lane.out" 2>&1 &
small=$!
import_lane >"$out/import-lane.out" 2>&1 &
imports=$!
status=0
wait "$small" || status=1
wait "$imports" || status=1
cat "$out/small-lane.out" "$out/import-lane.out"
exit "$status"
