"""Measuring client for Benchmarks/offline.sh (see there for what is measured and why).

Talks to the portal on 127.0.0.1:PORT and to the database through PSQL; prints a report and
exits non-zero if an accepted answer is missing, stored twice, or any request failed.
"""
import datetime
import gzip
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

PORT = int(os.environ["PORT"])
PSQL = os.environ["PSQL"].split()
STUDENTS = int(os.environ.get("STUDENTS", "16"))
DURATION = float(os.environ.get("DURATION", "10"))
BATCH = int(os.environ.get("BATCH", "100"))
TPCB = int(os.environ.get("TPCB", "0") or 0)
REGION, EXAM = "europe", "network-fundamentals"


def psql(sql):
    return subprocess.run(PSQL + ["-At", "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


class Client:
    def __init__(self):
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        self.cookies = {}

    def request(self, method, path, body=None, headers=None, patient=False):
        """One request; `patient` (the set-up, not the measured run) sends a request the portal
        shed (503: it waited over a second for a worker, nothing was done) again after a second."""
        for _ in range(60 if patient else 1):
            response, data = self.send(method, path, body, headers)
            if response.status != 503:
                break
            time.sleep(1)
        return response, data

    def send(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join("%s=%s" % item for item in self.cookies.items())
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";")[0]
        return response, data

    def timed(self, path, headers=None):
        began = time.monotonic()
        response, data = self.request("GET", path, headers=headers)
        return time.monotonic() - began, response, data


def manifest_entry(client):
    _, data = client.request("GET", "/offline/manifest.json")
    return [item for item in json.loads(data)["exams"] if item["slug"] == EXAM][0]


def change_questions(count, note):
    psql(
        "UPDATE questions SET stem = stem || ' (%s)' WHERE id IN (SELECT q.id FROM questions q JOIN domains d ON d.id = q.domain_id "
        "JOIN exams e ON e.id = d.exam_id WHERE e.slug = '%s' ORDER BY random() LIMIT %d)" % (note, EXAM, count))


def kib(size):
    return "%.1f KiB" % (size / 1024)


def signed_in_client(prefix):
    """A client with a new account of its own: bundles are for signed-in students."""
    device = Client()
    _, page = device.request("GET", "/register", patient=True)
    token = re.search(rb'name="csrf_token" value="([^"]*)"', page).group(1).decode()
    name = "%s-%s" % (prefix, uuid.uuid4().hex[:6])
    form = urllib.parse.urlencode({"csrf_token": token, "username": name, "display_name": name,
                                   "password": "offline bench " + name, "password_confirmation": "offline bench " + name})
    response, _ = device.request("POST", "/register", form, {"Content-Type": "application/x-www-form-urlencoded"}, patient=True)
    assert response.status == 303, "register answered %d" % response.status
    _, me = device.request("GET", "/api/me", patient=True)
    device.csrf = json.loads(me)["csrfToken"]
    return device


def main():
    client = signed_in_client("reader")
    item = manifest_entry(client)
    _, response, raw = client.timed(item["url"])
    assert response.status == 200
    _, response, packed = client.timed(item["url"], {"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Encoding") == "gzip"
    bundle = json.loads(raw)
    questions = bundle["questions"]

    # The change feed after 10 questions change, from the version a device holds.
    since = item["version"]
    change_questions(10, "revised")
    _, response, feed_raw = client.timed("/api/exams/%s/%s/changes?since=%s" % (REGION, EXAM, since))
    feed = json.loads(feed_raw)
    assert not feed["full"] and len(feed["changed"]) == 10, "the feed should hold exactly the 10 changed questions"
    feed_packed = gzip.compress(feed_raw)

    # Build time: the first manifest after a change builds the new bundle; a second is answered
    # from memory. Their difference is the build.
    builds = []
    for round_number in range(5):
        change_questions(1, "round %d" % round_number)
        cold, _, _ = client.timed("/offline/manifest.json")
        warm, _, _ = client.timed("/offline/manifest.json")
        builds.append(max(0.0, cold - warm))
    build_ms = statistics.median(builds) * 1000

    # Upload throughput: devices with accounts, each sending finished offline sessions.
    devices = [signed_in_client("device%d" % index) for index in range(STUDENTS)]
    questions = json.loads(client.request("GET", manifest_entry(client)["url"])[1])["questions"]

    def make_batch(rng):
        now = datetime.datetime.now(datetime.timezone.utc)
        chosen = rng.sample(questions, BATCH)
        session = str(uuid.uuid4())
        answers = []
        for offset, question in enumerate(chosen):
            # An answer in the shape each kind takes (as the offline page stores it).
            kind, options = question["type"], question["options"]
            if kind == "ordering":
                response = list(range(len(options)))
            elif kind == "matching":
                response = {"pairs": [rng.randrange(len(question["details"]["targets"])) for _ in options]}
            elif kind == "fill-in":
                response = {"text": rng.choice(question["details"]["accepted"] + ["0"])}
            else:
                response = [rng.randrange(len(options))]
            answers.append({"id": str(uuid.uuid4()), "sessionId": session, "questionId": question["id"], "questionVersion": question["version"],
                            "response": response, "timeMs": 3000 + offset,
                            "answeredAt": (now - datetime.timedelta(seconds=BATCH - offset)).isoformat().replace("+00:00", "Z")})
        body = {"sessions": [{"id": session, "region": REGION, "exam": EXAM, "mode": "practice", "questionIds": [q["id"] for q in chosen],
                              "startedAt": (now - datetime.timedelta(seconds=BATCH + 60)).isoformat().replace("+00:00", "Z"),
                              "finishedAt": now.isoformat().replace("+00:00", "Z")}],
                "answers": answers}
        return session, json.dumps(body).encode()

    accepted, duplicates, shed, errors, latencies, sessions, body_sizes = [0], [0], [0], [], [], [], []
    lock = threading.Lock()
    barrier = threading.Barrier(STUDENTS + 1)
    stop_at = [0.0]

    def run(device, seed):
        rng = random.Random(seed)
        mine = {"accepted": 0, "duplicates": 0, "shed": 0, "errors": [], "latencies": [], "sessions": [], "sizes": []}
        previous = None
        number = 0
        barrier.wait()
        while time.monotonic() < stop_at[0]:
            number += 1
            repeat = previous is not None and number % 4 == 0
            session, body = previous if repeat else make_batch(rng)
            # A batch the portal sheds (503 with Retry-After: it waited over a second for a
            # worker, nothing was stored) stays in the device's outbox and goes again after the
            # wait, as offline.js sends its outbox again; each shed is counted.
            while True:
                began = time.monotonic()
                response, data = device.request("POST", "/api/progress", body, {"Content-Type": "application/json", "X-CSRF-Token": device.csrf})
                if response.status != 503 or time.monotonic() > stop_at[0] + 30:
                    break
                mine["shed"] += 1
                time.sleep(float(response.getheader("Retry-After") or "1"))
            mine["latencies"].append(time.monotonic() - began)
            if response.status != 200:
                mine["errors"].append(response.status)
                continue
            outcome = json.loads(data)
            if outcome["rejected"]:
                mine["errors"].append("rejected: " + outcome["rejected"][0]["reason"])
            mine["accepted"] += len(outcome["accepted"])
            mine["duplicates"] += len(outcome["duplicates"])
            if not repeat:
                mine["sessions"].append(session)
                mine["sizes"].append(len(body))
            previous = (session, body)
        with lock:
            accepted[0] += mine["accepted"]
            duplicates[0] += mine["duplicates"]
            shed[0] += mine["shed"]
            errors.extend(mine["errors"])
            latencies.extend(mine["latencies"])
            sessions.extend(mine["sessions"])
            body_sizes.extend(mine["sizes"])

    threads = [threading.Thread(target=run, args=(device, index)) for index, device in enumerate(devices)]
    for thread in threads:
        thread.start()
    began = time.monotonic()
    stop_at[0] = began + DURATION
    barrier.wait()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    latencies.sort()

    listed = ",".join("'%s'" % session for session in sessions) or "NULL"
    rows, distinct, finished = psql(
        "SELECT count(*) || '|' || count(DISTINCT id) || '|' || (SELECT count(*) FROM study_sessions WHERE finished_at IS NOT NULL AND id IN (%s)) "
        "FROM answers WHERE session_id IN (%s)" % (listed, listed)).split("|")
    rows, distinct, finished = int(rows), int(distinct), int(finished)

    rate = accepted[0] / elapsed
    print("offline bundles, one exam of %d questions (%s/%s)" % (len(bundle["questions"]), REGION, EXAM))
    print("  bundle                 %10s raw   %10s gzip   (%.1f%%)" % (kib(len(raw)), kib(len(packed)), 100 * len(packed) / len(raw)))
    print("  build after a change   %8.0f ms      (median of %d; first request minus a request from memory)" % (build_ms, len(builds)))
    print("  delta, 10 changed      %10s raw   %10s gzip   (%.2f%% of the gzip bundle)" % (
        kib(len(feed_raw)), kib(len(feed_packed)), 100 * len(feed_packed) / len(packed)))
    print("POST /api/progress: %d devices for %.1f s, batches of %d answers (one finished session each; every 4th batch a repeat of the one before)" % (
        STUDENTS, elapsed, BATCH))
    print("  accepted answers       %10d   (%s answers/s; %.1f batches/s)" % (accepted[0], format(round(rate), ","), len(latencies) / elapsed))
    print("  duplicates reported    %10d   (the repeated batches: stored nothing)" % duplicates[0])
    print("  batch latency          p50 %.1f ms, p99 %.1f ms; body %s each" % (
        latencies[len(latencies) // 2] * 1000, latencies[int(len(latencies) * 0.99)] * 1000, kib(statistics.mean(body_sizes)) if body_sizes else "-"))
    print("  rows in answers        %10d   (distinct ids %d; sessions finished %d of %d)" % (rows, distinct, finished, len(sessions)))
    print("  shed, sent again       %10d   (503 with Retry-After: waited over a second for a worker, nothing stored)" % shed[0])
    print("  errors                 %10d   %s" % (len(errors), sorted(set(map(str, errors)))[:3] if errors else ""))
    if TPCB:
        print("pgbench TPC-B-like, %d clients, prepared: %d tps" % (STUDENTS, TPCB))
        print("answers/s : pgbench tps = %.2f" % (rate / TPCB))
    ok = not errors and rows == accepted[0] == distinct and finished == len(sessions)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
