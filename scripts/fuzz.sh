#!/usr/bin/env bash
# Fuzzes the HTTP request parser, the template parser, the markdown reader of question text and
# the importers (the XML reader, HTML reduction, GIFT, Aiken, Moodle XML and QTI) with libFuzzer (and AddressSanitizer, whose leak
# checker runs at exit) for a bounded time.
#
#   scripts/fuzz.sh [SECONDS]   builds the fuzzers (unless built from their present sources) and runs them
#   scripts/fuzz.sh build       only builds them (make test builds them while the browser tests run)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=run
if [ "${1:-}" = build ]; then mode=build; shift; fi
seconds=${1:-60}
data=$(scripts/data-dir.sh)
out="$data/fuzz"
mkdir -p "$out"

# fresh TARGET SOURCES…: the target is built and newer than every source (and this script).
fresh() {
    local target=$1 source
    shift
    [ -x "$target" ] && [ "$target" -nt "$0" ] || return 1
    for source in "$@"; do [ "$target" -nt "$source" ] || return 1; done
}

# build_fuzzer NAME SOURCES…: builds one fuzzer from its sources, unless it is fresh.
build_fuzzer() {
    local name=$1
    shift
    fresh "$out/$name" "$@" && return 0
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "${name//-/_}" "$@" -o "$out/$name" \
        >"$out/$name-build.log" 2>&1 || { cat "$out/$name-build.log"; echo "fuzz: $name did not build"; return 1; }
}

# The importers need their modules: QuestionEngine and ContentPackage as they are, Interop
# instrumented for coverage, linked into the fuzzer (with zlib and libsodium).
build_import_fuzzer() {
    local mods="$out/import-modules" log="$out/import-fuzzer-build.log"
    mkdir -p "$mods"
    local includes=(-I "$mods" -I Sources/CZlib -I Sources/CSodium) engine
    mapfile -t engine < <(find Sources/QuestionEngine -name "*.swift" | sort)
    fresh "$out/import" "${engine[@]}" Sources/ContentPackage/*.swift Sources/Interop/*.swift Tests/Fuzz/ImportFuzzer.swift && return 0
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
# Built in two lanes at once (a compiler uses one core): the three small fuzzers one after
# another, and the importers' fuzzer, whose modules take longest to build. Then run in two lanes
# of two fuzzers each (a fuzzer uses one core). Each lane's report is printed when both are done.
small_builds() {
    build_fuzzer request-parser Sources/HTTPServer/Parsing/*.swift Tests/Fuzz/RequestParserFuzzer.swift &&
    build_fuzzer template-parser Sources/TemplateEngine/TemplateParser.swift Sources/TemplateEngine/TemplateNode.swift \
        Sources/TemplateEngine/TemplateError.swift Tests/Fuzz/TemplateParserFuzzer.swift &&
    build_fuzzer markdown Sources/QuestionEngine/Content/*.swift Tests/Fuzz/MarkdownFuzzer.swift
}
parsers_lane() {
    run request-parser "$share" Tests/Fuzz/corpus &&
    run template-parser "$share" Tests/Fuzz/template-corpus
}
content_lane() {
    run markdown "$share" Tests/Fuzz/markdown-corpus &&
    run import "$share" Tests/Fuzz/import-corpus
}
# lanes NAME FUNCTION NAME FUNCTION: runs the two at once; fails when either does.
lanes() {
    "$2" >"$out/$1.out" 2>&1 &
    local first=$!
    "$4" >"$out/$3.out" 2>&1 &
    local second=$! status=0
    wait "$first" || status=1
    wait "$second" || status=1
    cat "$out/$1.out" "$out/$3.out"
    return "$status"
}
lanes small-builds small_builds import-build build_import_fuzzer || exit 1
if [ "$mode" = build ]; then
    echo "fuzz: the fuzzers are built"
    exit 0
fi
lanes parsers-lane parsers_lane content-lane content_lane
