"""Load client for Benchmarks/answers.sh: N students answer questions concurrently.

Setup (not timed): each student registers, starts practice sessions, learns its sessions'
questions from the database and opens each question once (the page's signed `shown_at`
stamp: the server measures the time spent from it). Then every student posts answers as fast as the
server takes them for DURATION seconds, one request at a time over a kept-alive connection;
every 20th request re-sends the previous answer (a retry), which must change nothing.
Prints one JSON object with the counts and latencies; the caller checks the database.
"""
import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

PORT = int(os.environ["PORT"])
STUDENTS = int(os.environ.get("STUDENTS", "64"))
SESSIONS = int(os.environ.get("SESSIONS", "5"))
DURATION = float(os.environ.get("DURATION", "10"))
PSQL = os.environ["PSQL"].split()
RUN = os.environ.get("RUN", str(int(time.time())))
REGION, EXAM = "europe", "network-fundamentals"


def cpu_seconds():
    """CPU seconds so far of the portal, of PostgreSQL (the postmaster's children) and of this client."""
    ticks = os.sysconf("SC_CLK_TCK")

    def of(pid):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            return 0.0

    postmaster = os.environ.get("POSTMASTER_PID", "")
    backends = []
    if postmaster:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        if stat.read().rsplit(")", 1)[1].split()[1] == postmaster:
                            backends.append(entry)
                except OSError:
                    pass
    mine = os.times()
    return (of(os.environ.get("SERVER_PID", "0")), sum(of(pid) for pid in backends), mine.user + mine.system)


def psql(sql):
    return subprocess.run(PSQL + ["-At", "-c", sql], check=True, capture_output=True, text=True).stdout


class Student:
    def __init__(self, index):
        self.name = f"bench{RUN}-{index}"
        self.cookies = {}
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.csrf = ""
        self.questions = []  # (session id, question id, type, option count)
        self.stamps = {}  # (session id, question id) -> the question page's shown_at

    def request(self, method, path, form=None, headers=None, patient=False):
        """One request; `patient` (the set-up, not the measured run) sends a request the portal
        shed (503: it waited over a second for a worker, nothing was done) again after a second."""
        for _ in range(60 if patient else 1):
            status, location, text = self.send(method, path, form, headers)
            if status != 503:
                break
            time.sleep(1)
        return status, location, text

    def send(self, method, path, form=None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";")[0]
        return response.status, response.getheader("Location"), data.decode("utf-8", "replace")

    def token(self, html):
        match = re.search(r'name="csrf_token" value="([^"]*)"', html)
        return match.group(1) if match else ""

    def set_up(self, domains):
        _, _, page = self.request("GET", "/register", patient=True)
        password = "bench password " + self.name
        status, _, _ = self.request("POST", "/register", {
            "csrf_token": self.token(page), "username": self.name, "display_name": self.name,
            "password": password, "password_confirmation": password}, patient=True)
        assert status == 303, f"register answered {status}"
        _, _, page = self.request("GET", f"/exams/{REGION}/{EXAM}", patient=True)
        self.csrf = self.token(page)
        sessions = []
        for number in range(SESSIONS):
            # Each start its own send (as from its own showing of the page): the same form sent
            # again before anything is answered leads to the session already begun.
            status, location, _ = self.request("POST", "/sessions", {
                "csrf_token": self.csrf, "region": REGION, "exam": EXAM, "mode": "practice", "count": "100",
                "domain": domains, "difficulty_from": "1", "difficulty_to": "5", "showing": str(number)}, patient=True)
            assert status == 303, f"starting a session answered {status}"
            sessions.append(location.rsplit("/", 1)[1])
        for sid in sessions:
            number = 1
            while True:
                status, _, page = self.request("GET", f"/sessions/{sid}?q={number}", patient=True)
                question = re.search(r'name="question" value="([^"]*)"', page)
                stamp = re.search(r'name="shown_at" value="([^"]*)"', page)
                if status != 200 or not question or not stamp or (sid, question.group(1)) in self.stamps:
                    break
                self.stamps[(sid, question.group(1))] = stamp.group(1)
                number += 1
        return sessions


def answer_form(student, item):
    session, question, kind, options = item
    form = {"csrf_token": student.csrf, "answer_id": str(uuid.uuid4()), "question": question,
            "shown_at": student.stamps.get((session, question), "")}
    # The fields each kind's form has: positions, a target per item, a typed answer, or a choice.
    if kind == "ordering":
        for index in range(options):
            form[f"position_{index}"] = str(index + 1)
    elif kind == "matching":
        for index in range(options):
            form[f"target_{index}"] = "1"
    elif kind == "fill-in":
        form["answer"] = "0"
    else:
        form["choice"] = "0"
    return f"/sessions/{session}/answers", form


def main():
    probe = Student("probe")
    _, _, page = probe.request("GET", f"/exams/{REGION}/{EXAM}", patient=True)
    domains = re.findall(r'name="domain" value="([^"]*)"', page)
    students = [Student(i) for i in range(STUDENTS)]
    sessions = {}
    setup_threads = []
    for student in students:
        thread = threading.Thread(target=lambda s=student: sessions.__setitem__(s.name, s.set_up(domains)))
        thread.start()
        setup_threads.append(thread)
    for thread in setup_threads:
        thread.join()
    all_sessions = [sid for ids in sessions.values() for sid in ids]
    rows = psql(
        "SELECT s.id, item.id, q.type, jsonb_array_length(q.options) FROM study_sessions s "
        "CROSS JOIN LATERAL unnest(s.question_ids) WITH ORDINALITY AS item(id, position) "
        "JOIN questions q ON q.id = item.id WHERE s.id IN (" + ",".join(f"'{sid}'" for sid in all_sessions) + ") "
        "ORDER BY s.id, item.position")
    by_session = {}
    for line in rows.splitlines():
        sid, qid, kind, options = line.split("|")
        by_session.setdefault(sid, []).append((sid, qid, kind, int(options)))
    for student in students:
        student.questions = [item for sid in sessions[student.name] for item in by_session[sid]]

    # A profiling run resets PostgreSQL's statistics here, so they count only the timed part.
    if os.environ.get("AFTER_SETUP_SQL"):
        psql(os.environ["AFTER_SETUP_SQL"])
    accepted, replays, errors, latencies = [], [0], [], []
    lock = threading.Lock()
    stop_at = [0.0]
    start_barrier = threading.Barrier(STUDENTS + 1)

    shed = [0]

    def submit(student, path, form, latencies):
        """An answer, sent again under the same id after a shed (503 with Retry-After: it waited
        over a second for a worker and nothing was done) as a student presses the button again;
        each shed is counted, the latency is the accepted attempt's."""
        while True:
            began = time.monotonic()
            status, _, _ = student.request("POST", path, form)
            if status != 503 or time.monotonic() > stop_at[0] + 30:
                latencies.append(time.monotonic() - began)
                return status
            with lock:
                shed[0] += 1
            time.sleep(1)

    def run(student):
        mine, my_latencies, my_errors, my_replays = [], [], [], 0
        previous = None
        start_barrier.wait()
        for number, item in enumerate(student.questions):
            if time.monotonic() >= stop_at[0]:
                break
            if previous and number % 20 == 19:
                path, form = previous
                status = submit(student, path, form, my_latencies)
                if status == 303:
                    my_replays += 1
                else:
                    my_errors.append(status)
            path, form = answer_form(student, item)
            status = submit(student, path, form, my_latencies)
            if status == 303:
                mine.append(form["answer_id"])
                previous = (path, form)
            else:
                my_errors.append(status)
        with lock:
            accepted.extend(mine)
            latencies.extend(my_latencies)
            errors.extend(my_errors)
            replays[0] += my_replays

    threads = [threading.Thread(target=run, args=(s,)) for s in students]
    for thread in threads:
        thread.start()
    # A profiling run starts its profiler here (e.g. DURING_RUN="perf record -a -g -o … -- sleep 8").
    profiler = subprocess.Popen(os.environ["DURING_RUN"], shell=True) if os.environ.get("DURING_RUN") else None
    cpu_before = cpu_seconds()
    began = time.monotonic()
    stop_at[0] = began + DURATION
    start_barrier.wait()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    cpu_spent = [after - before for after, before in zip(cpu_seconds(), cpu_before)]
    if profiler:
        profiler.wait()
    latencies.sort()
    with open(os.environ["IDS_FILE"], "w") as ids:
        ids.write("\n".join(accepted))
    print(json.dumps({
        "students": STUDENTS, "seconds": round(elapsed, 2), "accepted": len(accepted), "replays": replays[0],
        "errors": len(errors), "error_statuses": sorted(set(errors)), "shed": shed[0], "requests": len(latencies),
        "p50_ms": round(latencies[len(latencies) // 2] * 1000, 1) if latencies else None,
        "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 1) if latencies else None,
        "cpu_seconds": {"portal": round(cpu_spent[0], 2), "postgres": round(cpu_spent[1], 2), "client": round(cpu_spent[2], 2)},
        "sessions": all_sessions,
    }))


if __name__ == "__main__":
    sys.exit(main())
