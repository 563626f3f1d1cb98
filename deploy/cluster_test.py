#!/usr/bin/env python3
"""Mixed load through the rehearsal cluster while its parts fail, then a count.

Students answer practice questions, visitors browse, a device uploads offline answers and
players take part in a live event, all through HAProxy, while the script kills a portal
instance, restarts PgBouncer and fails the database over to its replica. For each fault it
prints the requests that failed and the seconds until everything answered again; at the end
every answer the portal acknowledged is looked up in the database (it must be there exactly
once), and the throughput of the same load through the proxy is compared with one instance
alone.

Usage: deploy/cluster_test.py (deploy/cluster.sh start first; `make cluster-test` does both).
"""

import faulthandler
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks"))
from answer_form import answer_pairs, fields  # noqa: E402  (the form filler the load generators share)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PROXY = ("127.0.0.1", 18080)
ALONE = ("127.0.0.1", 18081)
PSQL = sorted(__import__("glob").glob("/usr/lib/postgresql/*/bin/psql"))[-1]


class Client:
    """One browser: cookies, a kept-alive connection, a client address of its own."""

    def __init__(self, target, address):
        self.target, self.address, self.cookies, self.connection = target, address, {}, None

    def request(self, method, path, form=None, body=None, headers=None):
        payload, extra = None, {"X-Forwarded-For": self.address, "Host": "%s:%d" % PROXY}
        if form is not None:
            payload = urllib.parse.urlencode(form, doseq=True).encode()
            extra["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            payload = body.encode()
            extra["Content-Type"] = "application/json"
        if self.cookies:
            extra["Cookie"] = "; ".join("%s=%s" % item for item in self.cookies.items())
        extra.update(headers or {})
        for attempt in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(*self.target, timeout=15)
                self.connection.request(method, path, body=payload, headers=extra)
                response = self.connection.getresponse()
                text = response.read().decode("utf-8", "replace")
                for name, value in response.getheaders():
                    if name.lower() == "set-cookie":
                        pair = value.split(";")[0].split("=", 1)
                        if "Max-Age=0" in value:
                            self.cookies.pop(pair[0], None)
                        else:
                            self.cookies[pair[0]] = pair[1]
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response.status, response.getheader("Location", ""), text
            except (OSError, http.client.HTTPException):
                if self.connection:
                    self.connection.close()
                self.connection = None
                if attempt == 1:
                    return 0, "", ""
        return 0, "", ""


class Tally:
    """Every request's outcome with its time, for the fault windows."""

    def __init__(self):
        self.lock, self.events, self.acknowledged = threading.Lock(), [], []

    def record(self, ok):
        with self.lock:
            self.events.append((time.monotonic(), ok))

    def acknowledge(self, answer_id):
        with self.lock:
            self.acknowledged.append(answer_id)


def client_thread(name, target, *arguments):
    """A client of the rehearsal on a thread of its own; one that stops early (its set-up
    refused, an answer it could not read) is named and fails the rehearsal: its part of the load
    was not there."""
    def run():
        try:
            target(*arguments)
        except Exception as error:  # noqa: BLE001 (any failure of a client is the rehearsal's)
            STOPPED.append("%s: %r" % (name, error))
    return threading.Thread(target=run, name=name, daemon=True)


STOPPED = []


def get_until_ok(client, path, attempts=20):
    """A GET repeated until it answers 200 (the instances may still be warming up, or a fault
    under way): the text, or an error naming the last status."""
    for _ in range(attempts):
        status, _, text = client.request("GET", path)
        if status == 200:
            return text
        time.sleep(0.5)
    raise RuntimeError("GET %s answered %d %d times" % (path, status, attempts))


def register(client, name):
    for _ in range(10):
        page = get_until_ok(client, "/register")
        status, _, _ = client.request("POST", "/register", form={
            "csrf_token": fields(page).get("csrf_token", ""), "username": name, "display_name": name,
            "password": "a long password for " + name, "password_confirmation": "a long password for " + name})
        if status == 303:
            return
        time.sleep(0.5)
    raise RuntimeError("registering %s answered %d" % (name, status))


def exam_form(client):
    status, _, page = client.request("GET", "/exams/europe/network-fundamentals")
    return re.findall(r'name="domain" value="([^"]+)"', page)


def student(index, tally, stop):
    client = Client(PROXY, "10.1.%d.%d" % (index // 200, index % 200 + 1))
    register(client, "load%d-%s" % (index, uuid.uuid4().hex[:6]))
    domains = exam_form(client)
    while not stop.is_set():
        status, location, page = client.request("GET", "/exams/europe/network-fundamentals")
        token = fields(page).get("csrf_token", "")
        status, location, _ = client.request("POST", "/sessions", form=[
            ("csrf_token", token), ("region", "europe"), ("exam", "network-fundamentals"), ("mode", "practice"), ("count", "10")]
            + [("domain", slug) for slug in domains])
        tally.record(status == 303)
        if status != 303:
            time.sleep(0.2)
            continue
        path = urllib.parse.urlparse(location).path
        for _ in range(10):
            if stop.is_set():
                return
            status, _, page = client.request("GET", path)
            tally.record(status == 200)
            if status != 200 or 'id="answer-form"' not in page:
                break
            pairs, answer_id = answer_pairs(page)
            status, location, _ = client.request("POST", path + "/answers", form=pairs)
            tally.record(status in (303, 409, 422))
            # Acknowledged: the portal moved on (not back to the question with a refusal).
            if status == 303 and "already" not in location and "refused=" not in location and answer_id:
                tally.acknowledge(answer_id)


def visitor(index, tally, stop):
    client = Client(PROXY, "10.2.0.%d" % (index + 1))
    paths = ["/", "/exams/europe/network-fundamentals", "/exams/europe/network-fundamentals/leaderboard"]
    while not stop.is_set():
        status, _, _ = client.request("GET", random.choice(paths))
        tally.record(status == 200)


def device(tally, stop):
    """A device uploads an offline session of five answers every two seconds."""
    client = Client(PROXY, "10.3.0.1")
    register(client, "device-" + uuid.uuid4().hex[:6])
    csrf = json.loads(get_until_ok(client, "/api/me"))["csrfToken"]
    manifest = json.loads(get_until_ok(client, "/offline/manifest.json"))
    url = next(item["url"] for item in manifest["exams"] if item["slug"] == "network-fundamentals")
    questions = json.loads(get_until_ok(client, url))["questions"]
    while not stop.is_set():
        chosen = random.sample(questions, 5)
        session = str(uuid.uuid4())
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        answers = [{"id": str(uuid.uuid4()), "sessionId": session, "questionId": q["id"], "questionVersion": q["version"],
                    "response": q["correct"], "timeMs": 4000, "answeredAt": now} for q in chosen]
        batch = {"sessions": [{"id": session, "region": "europe", "exam": "network-fundamentals", "startedAt": now,
                               "finishedAt": now, "questionIds": [q["id"] for q in chosen]}], "answers": answers}
        status, _, text = client.request("POST", "/api/progress", body=json.dumps(batch), headers={"X-CSRF-Token": csrf})
        tally.record(status == 200)
        if status == 200:
            for answer_id in json.loads(text).get("accepted", []):
                tally.acknowledge(answer_id)
        time.sleep(2)


def live_event(tally, stop):
    """A host runs an event of 30 ten-second questions; five players answer each as it opens."""
    host = Client(PROXY, "10.4.0.1")
    status, _, page = host.request("GET", "/login")
    host.request("POST", "/login", form={"csrf_token": fields(page).get("csrf_token", ""), "username": "cluster-host",
                                         "password": "a host password for the rehearsal"})
    status, _, page = host.request("GET", "/live/new")
    status, location, _ = host.request("POST", "/live", form={
        "csrf_token": fields(page).get("csrf_token", ""), "form_token": fields(page).get("form_token", ""), "title": "Rehearsal", "exam": "europe/network-fundamentals",
        "count": "30", "seconds": "10"})
    if status != 303:
        raise RuntimeError("the event could not be made (%d)" % status)
    code = location.rstrip("/").split("/")[-2]
    players = []
    for index in range(5):
        player = Client(PROXY, "10.5.0.%d" % (index + 1))
        status, _, page = player.request("GET", "/live/" + code)
        player.request("POST", "/live/%s/join" % code, form={"csrf_token": fields(page).get("csrf_token", ""), "nickname": "Player %d" % index})
        players.append(player)
    status, _, page = host.request("GET", "/live/%s/host" % code)
    host.request("POST", "/live/%s/start" % code, form={"csrf_token": fields(page).get("csrf_token", "")})
    answered = set()
    while not stop.is_set():
        for index, player in enumerate(players):
            status, _, page = player.request("GET", "/live/" + code)
            tally.record(status == 200)
            known = fields(page)
            if "index" in known and (index, known["index"]) not in answered:
                pairs, _ = answer_pairs(page)
                pairs = [pair for pair in pairs if pair[0] != "answer_id"] + [("index", known["index"])]
                status, location, _ = player.request("POST", "/live/%s/answers" % code, form=pairs)
                tally.record(status in (303, 409, 422))
                answered.add((index, known["index"]))
        time.sleep(1)


def cluster(*arguments):
    subprocess.run([os.path.join(ROOT, "deploy", "cluster.sh")] + list(arguments), check=True, capture_output=True)


def psql(sql):
    environment = dict(os.environ)
    for port in ("55432", "55433"):
        result = subprocess.run(
            ["runuser", "-u", "postgres", "--", PSQL, "-X", "-At", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", "portal", "-c", sql]
            if os.getuid() == 0 else [PSQL, "-X", "-At", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "-d", "portal", "-c", sql],
            capture_output=True, text=True, env=environment)
        if result.returncode == 0 and "read-only" not in result.stderr:
            return result.stdout.strip()
    raise RuntimeError("no primary answered: " + result.stderr)


def window(tally, since, until):
    events = [event for event in tally.events if since <= event[0] < until]
    failed = [time_ for time_, ok in events if not ok]
    recovered = (max(failed) - since) if failed else 0.0
    return len(events), len(failed), recovered


def main():
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 prints every thread's stack
    if not os.path.exists(os.path.join(ROOT, ".build")):
        print("build first: make cluster", file=sys.stderr)
        return 2
    # The host of the live event: an admin, made the way an operator does.
    env = dict(os.environ)
    for line in open(os.path.join(subprocess.run([os.path.join(ROOT, "scripts", "data-dir.sh")], capture_output=True, text=True).stdout.strip(), "cluster", "env")):
        key, _, value = line.strip().partition("=")
        env[key] = value
    binary = subprocess.run(["swift", "build", "-c", os.environ.get("CLUSTER_BUILD", "release"), "--show-bin-path"],
                            capture_output=True, text=True, cwd=ROOT).stdout.strip()
    subprocess.run([os.path.join(binary, "portal"), "create-admin", "--username", "cluster-host"], input="a host password for the rehearsal\n",
                   text=True, env=env, cwd=ROOT, check=True, capture_output=True)

    tally, stop = Tally(), threading.Event()
    threads = [client_thread("student %d" % index, student, index, tally, stop) for index in range(8)]
    threads += [client_thread("visitor %d" % index, visitor, index, tally, stop) for index in range(4)]
    threads += [client_thread("device", device, tally, stop), client_thread("live event", live_event, tally, stop)]
    for thread in threads:
        thread.start()
    time.sleep(5)  # everyone registered and under way

    faults = []
    # Each window is about twice the longest recovery seen for its fault (an instance at once,
    # PgBouncer and the primary's failover in 1-4 s, Sentinel's promotion in 3-6 s), so that what
    # fails in it is the fault's.
    def fault(name, action, settle=6):
        start = time.monotonic()
        action()
        time.sleep(settle)
        faults.append((name, start, time.monotonic()))

    baseline_start = time.monotonic()
    time.sleep(5)
    baseline = (baseline_start, time.monotonic())
    try:
        fault("a portal instance killed (kill -9), restarted 5 s later", lambda: (cluster("kill-portal", "1"), time.sleep(5), cluster("start-portal", "1")))
        fault("PgBouncer restarted", lambda: cluster("restart-pgbouncer"), settle=8)
        fault("primary stopped, replica promoted", lambda: cluster("failover"), settle=9)
        fault("Redis master killed, Sentinel promotes its replica", lambda: cluster("redis-failover"), settle=12)
    finally:
        stop.set()
    for thread in threads:
        thread.join(timeout=30)

    print("\n| fault | requests | failed | seconds to recover |")
    print("|---|---:|---:|---:|")
    count, failed, _ = window(tally, *baseline)
    print("| none (5 s baseline) | %d | %d | — |" % (count, failed))
    for name, start, end in faults:
        count, failed, recovered = window(tally, start, end)
        print("| %s | %d | %d | %.1f |" % (name, count, failed, recovered))

    acknowledged = sorted(set(tally.acknowledged))
    stored = {}
    for offset in range(0, len(acknowledged), 500):
        chunk = acknowledged[offset:offset + 500]
        rows = psql("SELECT id, count(*) FROM answers WHERE id IN (%s) GROUP BY id" % ",".join("'%s'" % item for item in chunk))
        for line in rows.splitlines():
            answer_id, _, number = line.partition("|")
            stored[answer_id] = int(number)
    lost = [item for item in acknowledged if item not in stored]
    twice = [item for item, number in stored.items() if number != 1]
    print("\nanswers acknowledged: %d; stored exactly once: %d; lost: %d; stored twice: %d"
          % (len(acknowledged), len(stored) - len(twice), len(lost), len(twice)))
    drill = subprocess.run([os.path.join(ROOT, "deploy", "cluster.sh"), "backup-drill"], capture_output=True, text=True)
    print("restore drill: " + (drill.stdout.strip().splitlines() or ["failed: " + drill.stderr.strip()])[-1])

    # Throughput of the mixed browsing load: through the proxy, then one instance alone.
    def throughput(target, seconds=4):
        done = [0]
        lock = threading.Lock()
        halt = threading.Event()
        def browse(index):
            client = Client(target, "10.9.0.%d" % (index + 1))
            paths = ["/", "/exams/europe/network-fundamentals", "/exams/europe/network-fundamentals/leaderboard"]
            while not halt.is_set():
                status, _, _ = client.request("GET", paths[index % 3])
                if status == 200:
                    with lock:
                        done[0] += 1
        workers = [threading.Thread(target=browse, args=(index,)) for index in range(12)]
        for worker in workers:
            worker.start()
        time.sleep(seconds)
        halt.set()
        for worker in workers:
            worker.join()
        return done[0] / seconds
    proxied = throughput(PROXY)
    alone = throughput(ALONE)
    print("mixed browsing: %.0f req/s through HAProxy to three instances, %.0f req/s to one instance alone (%.2f×)"
          % (proxied, alone, proxied / alone if alone else 0))
    for stopped in STOPPED:
        print("a client stopped early, its load missing from the rehearsal: " + stopped)
    return 0 if not lost and not twice and drill.returncode == 0 and not STOPPED else 1


if __name__ == "__main__":
    sys.exit(main())
