"""Set-up for Benchmarks/pages.sh: the signed-in pages of a realistic student and a teacher.

Registers `bench-student` and `bench-teacher` through the portal (real passwords, real
cookies), then — as the superuser, since none of it is being measured — makes the teacher a
teacher, gives the student a history (`portal gen-data Benchmarks/presets/student.json`, then
`portal rebuild-cards`), gathers the student and thirty-nine classmates with histories into one
of the teacher's classes (forty pupils), gives the class six assignments with each pupil's
finished sessions as their attempts (the gradebook's cells), and opens a practice session and a
mock exam for the student.
Prints one JSON object: each page's path and the cookie header to send.
"""
import http.client
import json
import os
import re
import subprocess
import urllib.parse

PORT = int(os.environ["PORT"])
PSQL = os.environ["PSQL"].split()
PORTAL = os.environ["PORTAL"]
REGION, EXAM = "europe", "network-fundamentals"


def psql(sql):
    return subprocess.run(PSQL + ["-At", "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def portal(*arguments):
    done = subprocess.run([PORTAL, *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"portal {' '.join(arguments)}: {done.stderr.strip()}")


class Browser:
    def __init__(self):
        self.cookies = {}
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)

    def request(self, method, path, form=None):
        headers = {"Cookie": self.cookie_header()} if self.cookies else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";")[0]
        return response.status, response.getheader("Location"), data

    def cookie_header(self):
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    @staticmethod
    def token(html):
        match = re.search(r'name="csrf_token" value="([^"]*)"', html)
        return match.group(1) if match else ""

    def register(self, name):
        _, _, page = self.request("GET", "/register")
        password = "bench password for " + name
        status, _, _ = self.request("POST", "/register", {
            "csrf_token": self.token(page), "username": name, "display_name": name.replace("-", " ").title(),
            "password": password, "password_confirmation": password})
        assert status == 303, f"registering {name} answered {status}"

    def start(self, mode):
        _, _, page = self.request("GET", f"/exams/{REGION}/{EXAM}")
        status, location, body = self.request("POST", "/sessions", {
            "csrf_token": self.token(page), "region": REGION, "exam": EXAM, "mode": mode, "count": "20",
            "domain": re.findall(r'name="domain" value="([^"]*)"', page)})
        assert status == 303, f"starting a {mode} session answered {status}: {re.sub(r'<[^>]+>', '', body)[-300:]}"
        return location


student, teacher = Browser(), Browser()
student.register("bench-student")
teacher.register("bench-teacher")
psql("UPDATE users SET role = 'teacher' WHERE username = 'bench-teacher'")
portal("gen-data", "Benchmarks/presets/student.json")
portal("gen-data", "Benchmarks/presets/leaderboard.json", "--students", "39", "--answers", "39000")
portal("rebuild-cards")
portal("refresh-leaderboard")
class_id = psql("""
    WITH made AS (
        INSERT INTO classes (teacher_id, name, join_code, created_at)
        SELECT id, 'Networking, year 12', 'BENCHABC', now() - interval '90 days' FROM users WHERE username = 'bench-teacher'
        RETURNING id)
    INSERT INTO class_members (class_id, user_id, joined_at)
    SELECT made.id, u.id, now() - interval '80 days' FROM made, users u
    WHERE u.username = 'bench-student' OR u.username ~ '^bench[0-9]+$'
    RETURNING class_id""").splitlines()[0]
# Six assignments a week apart; each pupil's finished sessions of the exam are their attempts, in
# turn. History is frozen for the portal's roles (study_sessions_frozen): the set-up writes it as
# a bulk load does, with triggers off for its own statement.
psql(f"""
    INSERT INTO share_links (token_hash, created_by, exam_id, class_id, title, mode, question_count, due_at, created_at)
    SELECT sha256(convert_to('bench-link-' || n, 'UTF8')), u.id, e.id, '{class_id}', 'Assignment ' || n, 'practice', 20,
           now() - (7 - n) * interval '7 days', now() - interval '60 days'
    FROM users u, exams e JOIN regions r ON r.id = e.region_id, generate_series(1, 6) AS n
    WHERE u.username = 'bench-teacher' AND r.code = '{REGION}' AND e.slug = '{EXAM}'""")
psql(f"""
    SET session_replication_role = replica;
    UPDATE study_sessions s SET share_link_id = l.id
    FROM (SELECT s.id, row_number() OVER (PARTITION BY s.user_id ORDER BY s.started_at, s.id) AS n
          FROM study_sessions s JOIN class_members m ON m.user_id = s.user_id AND m.class_id = '{class_id}'
          WHERE s.finished_at IS NOT NULL) AS picked
    JOIN (SELECT id, row_number() OVER (ORDER BY title) AS n FROM share_links WHERE class_id = '{class_id}') AS l ON l.n = picked.n
    WHERE s.id = picked.id""")
practice = student.start("practice")
mock = student.start("mock")
results = psql("""
    SELECT s.id FROM study_sessions s JOIN users u ON u.id = s.user_id
    WHERE u.username = 'bench-student' AND s.finished_at IS NOT NULL ORDER BY s.finished_at DESC LIMIT 1""")
pages = {
    "home": "/",
    "exam page": f"/exams/{REGION}/{EXAM}",
    "question (practice)": practice,
    "question (mock exam)": mock,
    "results": f"/sessions/{results}/results",
    "/me": "/me",
    "leaderboard": f"/exams/{REGION}/{EXAM}/leaderboard",
}
for name, path in pages.items():
    status, _, _ = student.request("GET", path)
    assert status == 200, f"{name} {path} answered {status}"
teaching = {"class page (teacher)": f"/teach/classes/{class_id}", "gradebook (teacher)": f"/teach/classes/{class_id}/gradebook"}
for name, path in teaching.items():
    status, _, body = teacher.request("GET", path)
    assert status == 200, f"{name} answered {status}"
assert body.count("%</a>") >= 40, "the gradebook holds fewer attempts than its pupils"
print(json.dumps({
    "student": {"cookie": student.cookie_header(), "pages": pages},
    "teacher": {"cookie": teacher.cookie_header(), "pages": teaching},
}))
