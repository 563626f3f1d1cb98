#!/usr/bin/env bash
# Every benchmark, one after the other on this machine, then docs/performance.md written from
# what they printed: dated, naming the machine, each benchmark introduced by its own script's
# opening comment. Figures of earlier runs are in git's history of that file, not in it.
#
#   Benchmarks/all.sh        (make bench; BENCHMARKS="pages answers" for some of them, printed
#                             but not written down: the page holds one whole run)
set -euo pipefail
cd "$(dirname "$0")/.."
every="http pages answers capacity leaderboard live offline fsrs import-adversarial"
chosen=${BENCHMARKS:-$every}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

failed=""
for name in $chosen; do
    echo "== $name"
    if "Benchmarks/$name.sh" 2>&1 | grep -v -e "^warning: prohibited flag" -e "^NOTICE: " | tee "$out/$name.txt"; then :; else failed="$failed $name"; fi
done
[ -z "$failed" ] || { echo "failed:$failed (docs/performance.md left as it was)"; exit 1; }
[ "$chosen" = "$every" ] || { echo "(some benchmarks only: docs/performance.md left as it was)"; exit 0; }

python3 - "$out" $every <<'PY'
import datetime, os, platform, re, subprocess, sys
out, names = sys.argv[1], sys.argv[2:]

def opening_comment(script):
    """The script's first comment paragraph, as prose."""
    lines = open(f"Benchmarks/{script}.sh").read().splitlines()[1:]
    prose = []
    for line in lines:
        if not line.startswith("#") or line.strip() == "#":
            break
        prose.append(line[2:])
    return " ".join(prose)

cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
memory = next(int(line.split()[1]) // 1024 // 1024 for line in open("/proc/meminfo") if line.startswith("MemTotal"))
release = next((line.split("=", 1)[1].strip().strip('"') for line in open("/etc/os-release") if line.startswith("PRETTY_NAME")), "Linux")
postgres = subprocess.run(["bash", "-c", "ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1"], capture_output=True, text=True).stdout.strip()
postgres = subprocess.run([postgres + "/postgres", "--version"], capture_output=True, text=True).stdout.strip()
when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()

titles = {
    "http": "Static files against nginx", "pages": "Every page a reader sees", "answers": "Answers against pgbench",
    "capacity": "Concurrent studying students", "leaderboard": "Leaderboards", "live": "Live events",
    "offline": "Offline study", "fsrs": "Fitting FSRS weights", "import-adversarial": "Hostile imports"}
page = [
    "# Performance", "",
    f"Every figure below comes from one run of `make bench` (`Benchmarks/all.sh`), {when}, at commit",
    f"`{commit}`, on {cpu}, {os.cpu_count()} cores, {memory} GiB, {release}, {postgres}.",
    "The load generators share the cores with what they measure; runs on a shared machine vary by",
    "about ±10%. Run `make bench` to measure yours; each benchmark also runs alone (`make bench-<name>`).",
    "Earlier runs are in this file's history in git.", ""]
for name in names:
    page += [f"## {titles[name]} — `make bench-{name}`", "", opening_comment(name), "", "```"]
    page += [line.rstrip() for line in open(f"{out}/{name}.txt").read().strip("\n").splitlines()]
    page += ["```", ""]
open("docs/performance.md", "w").write("\n".join(page))
print("wrote docs/performance.md")
PY
