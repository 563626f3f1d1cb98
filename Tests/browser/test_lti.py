"""LTI 1.3 launches in a real Chromium, as a student clicking an activity in their course: the
LMS (the test platform at localhost, another site than the portal's 127.0.0.1) posts the
launch to the portal, which signs the student in and opens the activity's preset session — and
the sign-in holds for the pages after it; inside the course's frame, the activity continues in
a window of its own."""

import json
import os
import subprocess
import tempfile
import time
import urllib.request
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, wait

EXAM = "/exams/europe/network-fundamentals"


@pytest.fixture(scope="module")
def platform():
    """The test LMS (Tests/Fixtures/lti_platform.py, on Debian's python3 with PyJWT)."""
    folder = tempfile.mkdtemp(prefix="lti-platform-")
    port_file = os.path.join(folder, "port")
    process = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "Tests", "Fixtures", "lti_platform.py"), port_file])
    deadline = time.time() + 15
    while not os.path.exists(port_file) and time.time() < deadline:
        time.sleep(0.05)
    with open(port_file) as handle:
        port = int(handle.read())
    yield "http://localhost:%d" % port
    process.terminate()
    process.wait(timeout=10)


def control(platform, name, body):
    request = urllib.request.Request(platform + "/control/" + name, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


@pytest.fixture(scope="module")
def registered(portal, platform):
    """The portal serving with leave to fetch the LMS's keys over plain HTTP on this machine, the
    LMS registered with it, and the LMS told where the tool is."""
    portal.stop()
    portal.start(OUTBOUND_ALLOW_LOOPBACK_HTTP="1")
    portal.start_agent(OUTBOUND_ALLOW_LOOPBACK_HTTP="1")
    lms = platform + "/lms"
    subprocess.run(
        [portal.binary, "lti", "add-platform", "--issuer", lms, "--client-id", "portal-tool", "--deployment-id", "deployment-1",
         "--auth-url", lms + "/auth", "--token-url", lms + "/token", "--jwks-url", lms + "/jwks"],
        env=portal.environment(), cwd=ROOT, check=True, capture_output=True, timeout=60)
    control(platform, "config", {"tool_jwks_url": portal.url + "/lti/jwks.json", "tool_login_url": portal.url + "/lti/login"})
    return platform


def test_a_launch_from_the_course_signs_the_student_in_and_opens_the_activity(portal, registered, browser_factory):
    platform = registered
    student = "lms-student-" + uuid.uuid4().hex[:8]
    target = portal.url + EXAM + "?mode=practice&count=3"
    control(platform, "scenario", {
        "name": "week-1", "login_target": target,
        "claims": {"sub": student, "name": "Katherine Johnson", "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": target},
    })

    driver = browser_factory()
    driver.get(platform + "/lms/start/week-1")
    driver.find_element(By.ID, "launch").click()
    wait(driver, lambda d: "/sessions/" in d.current_url, message="the launch did not open the session: " + driver.current_url)
    assert driver.current_url.startswith(portal.url + "/sessions/")
    wait(driver, lambda d: d.find_elements(By.ID, "logout-form"), message="the launch did not sign the student in")
    assert "Katherine Johnson" in driver.find_element(By.CSS_SELECTOR, "#logout-form button").get_attribute("title")
    assert driver.find_elements(By.CSS_SELECTOR, "form.answer, form[action$='/answers']"), "the question's form is shown"
    # Still signed in on the next page: the cookie set by the launch is the site's own.
    driver.get(portal.url + "/me")
    assert "Katherine Johnson" in driver.find_element(By.CSS_SELECTOR, "#logout-form button").get_attribute("title")
    assert portal.sql("SET ROLE portal_auth; SELECT count(*) FROM external_identities WHERE kind = 'lti' AND subject = '%s'" % student).strip() == "1"


def test_a_launch_inside_the_course_page_continues_in_a_window_of_its_own(portal, registered, browser_factory):
    platform = registered
    student = "lms-framed-" + uuid.uuid4().hex[:8]
    target = portal.url + EXAM + "?mode=practice&count=2"
    control(platform, "scenario", {
        "name": "week-2", "login_target": target,
        "claims": {"sub": student, "name": "Dorothy Vaughan", "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": target},
    })
    driver = browser_factory()
    driver.get(platform + "/lms/framed/week-2")
    driver.find_element(By.ID, "launch").click()
    driver.switch_to.frame(driver.find_element(By.TAG_NAME, "iframe"))
    link = wait(driver, lambda d: d.find_elements(By.ID, "open-in-window"), message="the frame does not offer a window of its own")[0]
    course = driver.current_window_handle
    link.click()
    wait(driver, lambda d: len(d.window_handles) == 2, message="no new window")
    driver.switch_to.window([handle for handle in driver.window_handles if handle != course][0])
    wait(driver, lambda d: "/sessions/" in d.current_url, message="the window did not open the session: " + driver.current_url)
    assert "Dorothy Vaughan" in driver.find_element(By.CSS_SELECTOR, "#logout-form button").get_attribute("title")
    driver.get(portal.url + "/me")
    assert "Dorothy Vaughan" in driver.find_element(By.CSS_SELECTOR, "#logout-form button").get_attribute("title")


def test_a_framed_launch_in_a_browser_that_drops_the_cookie_is_bound_by_the_platforms_storage(portal, registered, browser_factory):
    """The platform offers its postMessage storage; the login's cookie is gone by the launch (as
    in a browser that drops cookies inside another site's frame): the portal's page finds the
    state in the platform's storage, posts the launch on from the portal, and the student is
    signed in; nothing else would have done."""
    platform = registered
    student = "lms-stored-" + uuid.uuid4().hex[:8]
    target = portal.url + EXAM + "?mode=practice&count=2"
    control(platform, "scenario", {
        "name": "week-3", "login_target": target, "manual": True,
        "claims": {"sub": student, "name": "Mary Jackson", "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": target},
    })
    driver = browser_factory()
    driver.get(platform + "/lms/framed/week-3?storage=1")
    driver.find_element(By.ID, "launch").click()
    driver.switch_to.frame(driver.find_element(By.CSS_SELECTOR, "iframe[name=tool]"))
    # The portal's login page stored the state with the platform and went on to it.
    button = wait(driver, lambda d: d.find_elements(By.ID, "continue"), message="the login did not reach the platform: " + driver.current_url)[0]
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    button.click()
    link = wait(driver, lambda d: d.find_elements(By.ID, "open-in-window"),
                message="the storage did not bind the launch: " + driver.page_source[:1500])[0]
    assert "/lti/continue/" in link.get_attribute("href")
    assert portal.sql("SET ROLE portal_auth; SELECT count(*) FROM external_identities WHERE kind = 'lti' AND subject = '%s'" % student).strip() == "1"
