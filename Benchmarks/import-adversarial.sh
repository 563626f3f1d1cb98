#!/usr/bin/env bash
# Import benchmark for hostile files: the inputs that once held a worker for seconds (and would
# have held it for hours at a megabyte) timed at 16 KB, 256 KB and 2 MB through `portal import`,
# beside a reference of the same size that is merely read (a GIFT file of comment lines). Every
# row should grow in a straight line with the size — ratios to the reference stay flat — and
# each file is refused or read harmlessly (the last column says which).
#
#   Benchmarks/import-adversarial.sh        (SIZES="16384 262144 2097152" by default)
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/common.sh
trap stop_benchmark EXIT
sizes=${SIZES:-16384 262144 2097152}
work=$(mktemp -d)
trap 'rm -rf "$work"; stop_benchmark' EXIT

database=adversarial
as_postgres "$bindir/psql" -X -q -h "$PGHOST" -U postgres -d postgres -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" -c "CREATE DATABASE $database OWNER portal_owner"
export DATABASE_ADMIN_URL="${DATABASE_ADMIN_URL%/*}/$database" DATABASE_URL="${DATABASE_URL%/*}/$database"
"$portal" migrate >/dev/null
as_postgres "$bindir/psql" -X -q -h "$PGHOST" -U postgres -d "$database" -c "
    INSERT INTO regions (code, name) VALUES ('bench', 'Bench');
    INSERT INTO exams (region_id, slug, title, description, language, pass_mark, time_limit_s, question_count)
        SELECT id, 'adversarial', 'Adversarial', '', 'en', 70, 600, 10 FROM regions WHERE code = 'bench';
    INSERT INTO domains (exam_id, slug, title, weight) SELECT id, 'general', 'General', 100 FROM exams WHERE slug = 'adversarial';" >/dev/null

# make KIND SIZE FILE: writes one input of about SIZE bytes.
make_input() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
kind, size, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def fill(unit, head="", tail=""):
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail
if kind == "reference":
    data = fill("// a comment line of an ordinary GIFT file\n").encode()
elif kind == "gift-braces":
    data = fill("{", "::Q1:: What is 2 + 2? ").encode()
elif kind == "moodle-nesting":
    data = fill("<a>", "<?xml version=\"1.0\"?>\n<quiz>\n").encode()
elif kind == "moodle-script":
    data = fill("<script>alert(1)", '<?xml version="1.0"?><quiz><question type="multichoice"><name><text>s</text></name>'
                '<questiontext format="html"><text><![CDATA[Which port? ', ']]></text></questiontext><answer fraction="100"><text>443</text>'
                '</answer><answer fraction="0"><text>80</text></answer></question></quiz>').encode()
elif kind == "doctype-after-comment":
    data = fill("x", '<?xml version="1.0"?>\n<!--', '-->\n<!DOCTYPE quiz [<!ENTITY e "LEAK">]><quiz>&e;</quiz>').encode()
elif kind == "qti-utf16-doctype":
    size //= 2
    data = b"\xff\xfe" + fill("x", "<!--", '--><!DOCTYPE assessmentItem [<!ENTITY e "LEAK">]><assessmentItem>&e;</assessmentItem>').encode("utf-16-le")
open(path, "wb").write(data)
PY
}

printf '%-24s' input
for size in $sizes; do printf '%14s' "$((size / 1024)) KB ms"; done
printf '%16s  %s\n' "largest ÷ ref" outcome
declare -A reference
for kind in reference gift-braces moodle-nesting moodle-script doctype-after-comment qti-utf16-doctype; do
    printf '%-24s' "$kind"
    outcome="" last=0
    for size in $sizes; do
        make_input "$kind" "$size" "$work/input"
        start=$(date +%s%N)
        if "$portal" import "$work/input" --into bench/adversarial --skip-unsupported >"$work/out" 2>&1; then outcome="read"; else outcome="refused: $(head -n 1 "$work/out" | sed 's|^import: ||; s|/tmp/[^ ]*|the file|' | cut -c1-90)"; fi
        elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
        printf '%14d' "$elapsed"
        [ "$kind" = reference ] && reference[$size]=$elapsed
        last=$elapsed
        last_size=$size
    done
    python3 -c "import sys; print('%14.2f  %s' % (int(sys.argv[1]) / max(1, int(sys.argv[2])), sys.argv[3]))" "$last" "${reference[$last_size]}" "$outcome"
done
