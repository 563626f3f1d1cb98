"""Students and visitors for Benchmarks/capacity.sh, run by locust (headless, one process).

88% are signed-in students (accounts made by the script, CAPACITY_ACCOUNTS: one
"<token>\t<csrf>" line each) who start a practice session of 20 questions, open each question,
think 3-8 s, answer it as its form asks (whatever its kind), read the feedback for 1-3 s, open
their dashboard every 10 answers, and after 20 finish and read their results, then start again.
12% are visitors who read the home page, an exam page and a leaderboard, 3-8 s apart.

The load grows in steps (STEPS users, each held STEP_SECONDS); every request of a step is
counted by kind, and after each step the CPU each part used is read from /proc (the portal,
PostgreSQL's processes, this load generator). The run stops after the first step that fails
(a request type's p95 over P95_LIMIT_MS, or any error): that step is the one past the limit.
What each step measured goes to CAPACITY_RESULT as JSON, and every acknowledged answer id (the
portal moved on from the question) to CAPACITY_ACKNOWLEDGED, for the script to count in the
database.
"""
import itertools
import json
import os
import random
import re
import sys
import time
from urllib.parse import urlencode

from locust import FastHttpUser, LoadTestShape, between, events, task

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from answer_form import answer_pairs, random_pick  # noqa: E402

EXAM = "/exams/europe/network-fundamentals"
LEADERBOARD = EXAM + "/leaderboard"
QUESTION_OF = re.compile(r"Question \d+ of (\d+)")
STEPS = [int(users) for users in os.environ.get("STEPS", "500,1000,2000,3000,4000").split(",")]
STEP_SECONDS = int(os.environ.get("STEP_SECONDS", "60"))
P95_LIMIT_MS = float(os.environ.get("P95_LIMIT_MS", "200"))
# Each step's newcomers arrive over this many seconds, not in one burst.
ARRIVAL_SECONDS = 10

with open(os.environ["CAPACITY_ACCOUNTS"]) as accounts_file:
    ACCOUNTS = [line.rstrip("\n").split("\t") for line in accounts_file if line.strip()]
next_account = itertools.count()
acknowledged = []


def cpu_seconds():
    """CPU seconds so far of the portal, of PostgreSQL (the postmaster and its children) and of locust."""
    ticks = os.sysconf("SC_CLK_TCK")

    def stat(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None

    def of(fields):
        return (int(fields[11]) + int(fields[12])) / ticks if fields else 0.0

    postmaster = os.environ.get("POSTMASTER_PID", "")
    postgres = of(stat(postmaster)) if postmaster else 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat(entry)
            if fields and fields[1] == postmaster:
                postgres += of(fields)
    mine = os.times()
    return {"portal": of(stat(os.environ.get("SERVER_PID", "0"))), "postgres": postgres, "load generator": mine.user + mine.system}


def resident_megabytes():
    try:
        with open(f"/proc/{os.environ.get('SERVER_PID', '0')}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


class Steps:
    """What each step measured: per request type, the times and the errors."""

    def __init__(self):
        self.current = 0
        self.started = None
        self.samples = {}
        self.errors = {}
        self.results = []
        self.cpu_before = None

    def record(self, name, milliseconds, failed):
        self.samples.setdefault(name, []).append(milliseconds)
        if failed:
            self.errors[name] = self.errors.get(name, 0) + 1

    def close(self, users, seconds):
        """Ends the step that held `users`; returns whether it stayed within the limits."""
        cpu = cpu_seconds()
        spent = {part: round(cpu[part] - self.cpu_before[part], 1) for part in cpu}
        kinds = {}
        for name, times in sorted(self.samples.items()):
            times.sort()
            kinds[name] = {
                "requests": len(times), "p50_ms": round(times[len(times) // 2], 1),
                "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 1),
                "errors": self.errors.get(name, 0)}
        passed = bool(kinds) and all(k["errors"] == 0 and k["p95_ms"] <= P95_LIMIT_MS for k in kinds.values())
        self.results.append({
            "users": users, "seconds": round(seconds, 1), "requests_per_second": round(sum(k["requests"] for k in kinds.values()) / seconds, 1),
            "kinds": kinds, "cpu_seconds": spent, "portal_resident_mb": resident_megabytes(), "passed": passed})
        self.samples, self.errors, self.cpu_before = {}, {}, cpu
        return passed


steps = Steps()


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception=None, **_):
    steps.record(name, response_time, exception is not None)


@events.quitting.add_listener
def on_quit(environment, **_):
    with open(os.environ["CAPACITY_RESULT"], "w") as f:
        json.dump({"steps": steps.results, "p95_limit_ms": P95_LIMIT_MS}, f)
    with open(os.environ["CAPACITY_ACKNOWLEDGED"], "w") as f:
        f.write("".join(answer_id + "\n" for answer_id in acknowledged))


class StepShape(LoadTestShape):
    """STEPS users, each step held STEP_SECONDS; stops after the first step that fails."""

    def tick(self):
        now = self.get_run_time()
        if steps.cpu_before is None:
            steps.cpu_before = cpu_seconds()
            steps.started = now
        index = int(now // STEP_SECONDS)
        if index > steps.current:
            passed = steps.close(STEPS[steps.current], now - steps.started)
            steps.started = now
            steps.current = index
            if not passed or index >= len(STEPS):
                return None
        users = STEPS[index]
        previous = STEPS[index - 1] if index else 0
        return users, max(1, (users - previous) / ARRIVAL_SECONDS)


class Student(FastHttpUser):
    weight = 88

    def on_start(self):
        token, self.csrf = ACCOUNTS[next(next_account) % len(ACCOUNTS)]
        self.headers = {"Cookie": "portal_session=" + token, "Accept-Encoding": "gzip"}
        self.form_headers = dict(self.headers, **{"Content-Type": "application/x-www-form-urlencoded"})
        self.answered = 0
        time.sleep(random.uniform(0, ARRIVAL_SECONDS))

    def get(self, path, name):
        with self.client.get(path, name=name, headers=self.headers, allow_redirects=False, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code}")
                return None
            return response.text

    def post(self, path, pairs, name):
        with self.client.post(path, name=name, data=urlencode(pairs), headers=self.form_headers, allow_redirects=False, catch_response=True) as response:
            if response.status_code != 303:
                response.failure(f"{response.status_code}")
                return None
            return response.headers.get("Location", "")

    @task
    def study(self):
        page = self.get(EXAM, "exam page (student)")
        if page is None:
            return time.sleep(1)
        domains = re.findall(r'name="domain" value="([^"]+)"', page)
        location = self.post("/sessions", [("csrf_token", self.csrf), ("region", "europe"), ("exam", "network-fundamentals"),
                                           ("mode", "practice"), ("count", "20")] + [("domain", d) for d in domains], "start a session")
        if not location:
            return time.sleep(1)
        path = location.split("?")[0]
        number, total = 1, 1
        while number <= total:
            page = self.get(f"{path}?q={number}", "question page")
            if page is None or 'id="answer-form"' not in page:
                break
            counted = QUESTION_OF.search(page)
            total = int(counted.group(1)) if counted else number
            time.sleep(random.uniform(3, 8))
            pairs, answer_id = answer_pairs(page, random_pick)
            after = self.post(path + "/answers", pairs, "answer")
            if after is None:
                break
            if "already" not in after and "refused=" not in after and answer_id:
                acknowledged.append(answer_id)
            self.get(after, "feedback")
            time.sleep(random.uniform(1, 3))
            self.answered += 1
            if self.answered % 10 == 0:
                self.get("/me", "dashboard")
            number += 1
        if self.get(path + "/finish", "finish (confirm)") is not None:
            results = self.post(path + "/finish", [("csrf_token", self.csrf)], "finish")
            if results:
                self.get(results, "results")
                time.sleep(random.uniform(3, 8))


class Visitor(FastHttpUser):
    weight = 12
    wait_time = between(3, 8)

    def on_start(self):
        time.sleep(random.uniform(0, ARRIVAL_SECONDS))

    def read(self, path, name):
        with self.client.get(path, name=name, headers={"Accept-Encoding": "gzip"}, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code}")

    @task
    def browse(self):
        self.read("/", "home (visitor)")
        time.sleep(random.uniform(3, 8))
        self.read(EXAM, "exam page (visitor)")
        time.sleep(random.uniform(3, 8))
        self.read(LEADERBOARD, "leaderboard (visitor)")
