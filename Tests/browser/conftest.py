"""A real portal, a real database and a real Chromium for the browser tests.

`make test` runs these after the Swift tests, with the test cluster's owner URL in
PORTAL_TEST_ADMIN_URL and the built binary in PORTAL_BINARY. Each test session gets a fresh
database (migrated and seeded with the demo catalogue) and a server on a free loopback port,
which a test may stop and start again to take the site offline.
"""

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.chrome.service import Service

ROOT = os.environ.get("PORTAL_TEST_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
PSQL = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1] if glob.glob("/usr/lib/postgresql/*/bin/psql") else "psql"


def _with_database(url, name):
    base, _, query = url.partition("?")
    return base[: base.rfind("/")] + "/" + name + ("?" + query if query else "")


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Portal:
    """The portal under test: its database, its server process and its URL."""

    ADMIN = ("browser-admin", "admin-password-for-tests")

    def __init__(self, workdir, database=None):
        admin_url = os.environ["PORTAL_TEST_ADMIN_URL"]
        app_url = os.environ["PORTAL_TEST_APP_URL"]
        self.binary = os.environ.get("PORTAL_BINARY", os.path.join(ROOT, ".build", "debug", "portal"))
        self.database = database or "browser_" + uuid.uuid4().hex[:12]
        self.maintenance_url = admin_url
        self.admin_url = _with_database(admin_url, self.database)
        self.app_url = _with_database(app_url, self.database)
        self.port = _free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.log_path = os.path.join(workdir, "portal.log")
        self.process = None
        self.agent = None
        if database:
            return
        template = SeededTemplate.name(self)
        self.sql_on(self.maintenance_url, "CREATE DATABASE %s TEMPLATE %s" % (self.database, template))
        SeededTemplate.copy_settings(self, template, self.database)

    def prepare(self):
        """Makes this portal's database what every module starts from: migrated, seeded with
        the demo catalogue (as if three days ago) and with the browser tests' admin."""
        environment = self.environment()
        for command in (["migrate"], ["seed"]):
            subprocess.run([self.binary] + command, env=environment, cwd=ROOT, check=True, capture_output=True, timeout=120)
        # The catalogue as if seeded three days ago, and its questions written a while before
        # that: a change feed repeats the last five minutes before a version (in case a slow
        # transaction committed late), so content written just now would all come again.
        self.sql(
            "ALTER TABLE questions DISABLE TRIGGER USER; ALTER TABLE exams DISABLE TRIGGER USER;"
            " UPDATE questions SET updated_at = updated_at - interval '3 days 1 hour';"
            " UPDATE exams SET content_updated_at = content_updated_at - interval '3 days';"
            " ALTER TABLE questions ENABLE TRIGGER USER; ALTER TABLE exams ENABLE TRIGGER USER;")
        subprocess.run(
            [self.binary, "create-admin", "--username", self.ADMIN[0]], input=self.ADMIN[1] + "\n",
            text=True, env=environment, cwd=ROOT, check=True, capture_output=True, timeout=60)

    def environment(self, **overrides):
        environment = dict(os.environ)
        environment.update({
            "DATABASE_URL": self.app_url, "DATABASE_ADMIN_URL": self.admin_url, "PORT": str(self.port),
            "HOST": "127.0.0.1", "PORTAL_MODE": "production", "ACCESS_LOG": "off", "LEADERBOARD_REFRESH_SECONDS": "0",
            # A module's tests register many students from this one address (the limit per
            # address is LimitTests' to hold, not theirs to run into).
            "REGISTRATIONS_PER_HOUR": "1000",
            # No load balancer stands in front of a test's server to be told it is going: it
            # stops at once when a test ends (production's five seconds of draining took more
            # than two minutes of the suite).
            "SHUTDOWN_DRAIN_SECONDS": "0",
        })
        # Live events need Redis: the test run's own server when there is one.
        environment.pop("REDIS_URL", None)
        if os.environ.get("PORTAL_TEST_REDIS_URL"):
            environment["REDIS_URL"] = os.environ["PORTAL_TEST_REDIS_URL"]
        environment.update(overrides)
        return environment

    def start(self, **overrides):
        """Starts the server on the same port (environment overrides such as PUBLIC_DIR apply
        to this run only)."""
        log = open(self.log_path, "a")
        self.process = subprocess.Popen([self.binary, "serve"], env=self.environment(**overrides), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the portal did not start; see " + self.log_path)

    def start_agent(self, **overrides):
        """Starts `portal auth-agent` beside the server, as the portal_agent role (the server
        itself is never given that connection)."""
        environment = self.environment(**overrides)
        environment["AUTH_AGENT_DATABASE_URL"] = self.app_url.replace("portal_app@", "portal_agent@", 1)
        log = open(self.log_path, "a")
        self.agent = subprocess.Popen([self.binary, "auth-agent"], env=environment, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)

    @staticmethod
    def _terminate(process):
        """Ends a child by its process id: SIGTERM, then SIGKILL after fifteen seconds."""
        if process and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def stop_agent(self):
        self._terminate(self.agent)
        self.agent = None

    def stop(self):
        """Stops the server by its process id: the site is unreachable until start()."""
        self._terminate(self.process)
        self.process = None

    def sql_on(self, url, statement):
        result = subprocess.run([PSQL, url, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", statement],
                                capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError("psql failed: " + result.stderr)
        return result.stdout.strip()

    def sql(self, statement):
        """Runs SQL as the owner on the test database; returns psql's unaligned output."""
        return self.sql_on(self.admin_url, statement)

    def drop(self):
        self.stop_agent()
        self.stop()
        try:
            self.sql_on(self.maintenance_url, "DROP DATABASE IF EXISTS %s WITH (FORCE)" % self.database)
        except RuntimeError:
            pass


class SeededTemplate:
    """The database each module's portal is copied from (CREATE DATABASE … TEMPLATE), migrated
    and seeded once per test run: seeding takes seconds, a copy a tenth of one."""

    made = None

    @classmethod
    def name(cls, portal):
        if cls.made is None:
            # Those of runs stopped before their end (no longer running) go first.
            for stale in portal.sql_on(portal.maintenance_url,
                                       "SELECT datname FROM pg_database WHERE datname LIKE 'browser\\_template\\_%'").split():
                if not cls._running(int(stale.rsplit("_", 1)[1])):
                    portal.sql_on(portal.maintenance_url, "DROP DATABASE IF EXISTS %s WITH (FORCE)" % stale)
            name = "browser_template_%d" % os.getpid()
            portal.sql_on(portal.maintenance_url, "DROP DATABASE IF EXISTS %s WITH (FORCE)" % name)
            portal.sql_on(portal.maintenance_url, "CREATE DATABASE %s" % name)
            Portal(os.path.dirname(portal.log_path), database=name).prepare()
            cls.made = name
        return cls.made

    @staticmethod
    def _running(pid):
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True

    @classmethod
    def drop(cls, maintenance_url):
        if cls.made:
            subprocess.run([PSQL, maintenance_url, "-X", "-q", "-c", "DROP DATABASE IF EXISTS %s WITH (FORCE)" % cls.made],
                           capture_output=True, timeout=60)
            cls.made = None

    @staticmethod
    def copy_settings(portal, template, copy):
        """What a copy does not take from its template (the roles' settings and the grants in
        the database), given as the statements Tests/Fixtures/database-settings-to-copy.sql
        makes; the names are ours ([a-z0-9_]), so they are quoted as literals here."""
        with open(os.path.join(ROOT, "Tests", "Fixtures", "database-settings-to-copy.sql")) as script:
            query = script.read().replace("$1", "'%s'" % template).replace("$2", "'%s'" % copy)
        statements = portal.sql_on(portal.maintenance_url, query)
        for statement in statements.splitlines():
            if statement.strip():
                portal.sql_on(portal.maintenance_url, statement)


@pytest.fixture(scope="session", autouse=True)
def seeded_template():
    yield
    SeededTemplate.drop(os.environ["PORTAL_TEST_ADMIN_URL"])


def html_problems(pages):
    """Runs the Nu Html Checker over the DOM of pages as the browser built them: its web service
    when `make test` started one (PORTAL_HTML_CHECKER_URL), else its command line
    (PORTAL_HTML_VALIDATOR); returns its error lines (empty when all pass)."""
    sources = {}
    for name, source in pages.items():
        if not source.lstrip().lower().startswith("<!doctype"):
            source = "<!DOCTYPE html>\n" + source
        sources[name] = source
    service = os.environ.get("PORTAL_HTML_CHECKER_URL")
    if service:
        problems = []
        for name, source in sources.items():
            request = urllib.request.Request(service + "?out=json", data=source.encode("utf-8"), method="POST", headers={
                "Content-Type": "text/html; charset=utf-8", "User-Agent": "portal-tests"})
            with urllib.request.urlopen(request, timeout=120) as response:
                report = json.load(response)
            # What the command line fails on: errors, not warnings or notes.
            problems += ["%s.html:%s: %s" % (name, message.get("lastLine"), message.get("message"))
                         for message in report["messages"] if message.get("type") != "info"]
        return problems
    validator = os.environ.get("PORTAL_HTML_VALIDATOR")
    if not validator:
        raise RuntimeError("PORTAL_HTML_VALIDATOR is not set: run the tests with `make test`")
    folder = tempfile.mkdtemp(prefix="portal-dom-")
    try:
        for name, source in sources.items():
            with open(os.path.join(folder, name + ".html"), "w") as page:
                page.write(source)
        result = subprocess.run([validator, "--root", folder], capture_output=True, text=True, timeout=300)
        return [] if result.returncode == 0 else (result.stdout + result.stderr).strip().splitlines()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def portal(tmp_path_factory):
    site = Portal(str(tmp_path_factory.mktemp("portal")))
    site.start()
    yield site
    site.drop()


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("no Chromium: install Debian's chromium and chromium-driver")


@pytest.fixture
def browser_factory():
    """Opens Chromium browsers, each with its own profile, and closes them after the test."""
    opened = []

    def open_browser():
        options = webdriver.ChromeOptions()
        options.binary_location = chromium_binary()
        profile = tempfile.mkdtemp(prefix="portal-chromium-")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                         "--window-size=1200,900", "--lang=en-GB", "--no-first-run", "--disable-gpu"):
            options.add_argument(argument)
        service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
        driver = webdriver.Chrome(options=options, service=service)
        driver.set_script_timeout(30)
        opened.append((driver, profile))
        return driver

    yield open_browser
    for driver, profile in opened:
        try:
            driver.quit()
        finally:
            shutil.rmtree(profile, ignore_errors=True)


def wait(driver, condition, timeout=20, message=""):
    # The pages redraw parts of themselves as storage answers: an element found a moment before
    # may have been replaced, which is a reason to look again, not a failure.
    return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException]).until(condition, message)


def register(driver, portal, username):
    driver.get(portal.url + "/register")
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "display-name").send_keys("Student " + username[-4:])
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    driver.find_element(By.ID, "password-confirmation").send_keys("a long enough password")
    driver.find_element(By.CSS_SELECTOR, "form.account button[type=submit]").click()
    wait(driver, lambda d: d.find_elements(By.ID, "logout-form"), message="registration did not sign in")


def sign_in(driver, portal, username, password):
    driver.get(portal.url + "/login")
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form.account button[type=submit]").click()
    wait(driver, lambda d: d.find_elements(By.ID, "logout-form"), message="sign-in failed")


def fill_some_answer(form):
    """Gives the question on screen an answer, whatever its kind: the first option (a region of
    a diagram too), the first answer for every item to match, a number typed; an order is
    answered as shown."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    choices = form.find_elements(By.CSS_SELECTOR, "input[name=choice]")
    if choices:
        # To the middle of the screen first: on a phone the fixed tab bar covers the bottom
        # edge, where the browser would otherwise scroll the option to and click the bar.
        form.parent.execute_script("arguments[0].scrollIntoView({block: 'center'})", choices[0])
        choices[0].click()
    for select in form.find_elements(By.CSS_SELECTOR, "select[name^=target_]"):
        Select(select).select_by_index(1)
    for field in form.find_elements(By.CSS_SELECTOR, "input[name=answer]"):
        field.send_keys("0")
