"""Writes docs/performance.md from one run of every benchmark (Benchmarks/all.sh): the folder
holding each benchmark's output as <name>.txt, then the names in order. Each benchmark is
introduced by its script's opening comment; one whose own check failed says so."""
import datetime, os, platform, subprocess, sys

out, names = sys.argv[1], sys.argv[2:]
failed = set(os.environ.get("FAILED", "").split())

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
    "http": "Static files against nginx", "pages": "Every page a reader sees", "answers": "Answers against pgbench", "answer-cost": "One answer's database work",
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
    page += [f"## {titles[name]} — `make bench-{name}`", "", opening_comment(name), ""]
    if name in failed:
        page += ["**This benchmark's own check failed in this run** (its output says which), so its figures are not a pass.", ""]
    page += ["```"]
    page += [line.rstrip() for line in open(f"{out}/{name}.txt").read().strip("\n").splitlines()]
    page += ["```", ""]
open("docs/performance.md", "w").write("\n".join(page))
print("wrote docs/performance.md")
