"""E-mail as a student goes through it in Chromium, the messages read back from a real mail
server on loopback (aiosmtpd, STARTTLS and AUTH required): an address added in settings and
proved by its link; then, signed out and without the password, "Forgot password?" on the
sign-in page sends a link to it, and the link's page sets a new one. Every page on the way
fits a phone and passes axe."""

import email
import email.policy
import json
import os
import subprocess
import tempfile
import time
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, register, sign_in, wait
from test_layout import Inspector


class MailServer:
    """Tests/Fixtures/mail_server.py with a certificate from an authority made for the test."""

    def __init__(self, folder):
        self.folder = folder
        self.maildir = os.path.join(folder, "mail")
        os.makedirs(self.maildir)
        def openssl(*arguments):
            subprocess.run(["openssl"] + list(arguments), check=True, capture_output=True, timeout=60)
        self.authority = os.path.join(folder, "ca.pem")
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Mail test authority",
                "-keyout", os.path.join(folder, "ca.key"), "-out", self.authority)
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=local", "-keyout", os.path.join(folder, "local.key"),
                "-out", os.path.join(folder, "local.csr"))
        with open(os.path.join(folder, "local.ext"), "w") as handle:
            handle.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        openssl("x509", "-req", "-in", os.path.join(folder, "local.csr"), "-CA", self.authority, "-CAkey", os.path.join(folder, "ca.key"),
                "-CAcreateserial", "-days", "2", "-extfile", os.path.join(folder, "local.ext"), "-out", os.path.join(folder, "local.pem"))
        port_file = os.path.join(folder, "port")
        self.password = uuid.uuid4().hex
        self.process = subprocess.Popen([
            "/usr/bin/python3", os.path.join(ROOT, "Tests", "Fixtures", "mail_server.py"), port_file, self.maildir,
            os.path.join(folder, "local.pem"), os.path.join(folder, "local.key"), "portal", self.password])
        deadline = time.time() + 15
        while not os.path.exists(port_file) and time.time() < deadline:
            time.sleep(0.05)
        with open(port_file) as handle:
            self.port = int(handle.read())

    @property
    def url(self):
        return "smtp://portal:%s@127.0.0.1:%d" % (self.password, self.port)

    def messages(self):
        names = sorted((n for n in os.listdir(self.maildir) if n.endswith(".json")), key=lambda n: int(n[:-5]))
        return [json.load(open(os.path.join(self.maildir, n))) for n in names]

    def wait_for(self, count, timeout=30):
        deadline = time.time() + timeout
        while len(self.messages()) < count and time.time() < deadline:
            time.sleep(0.1)
        messages = self.messages()
        assert len(messages) >= count, "no message arrived (%d of %d)" % (len(messages), count)
        return messages[count - 1]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=15)


def text_of(message):
    """The plain-text part of a received message, decoded."""
    parsed = email.message_from_string(message["data"], policy=email.policy.default)
    return parsed.get_body(preferencelist=("plain",)).get_content(), parsed


def link_in(message, portal, prefix):
    text, _ = text_of(message)
    for word in text.split():
        if word.startswith(portal.url + prefix):
            return word
    raise AssertionError("no %s link in: %s" % (prefix, text))


@pytest.fixture
def mailing_portal(portal):
    """The module's portal restarted with a mail server, and `portal auth-agent` sending."""
    folder = tempfile.mkdtemp(prefix="portal-mail-")
    server = MailServer(folder)
    settings = {"SMTP_URL": server.url, "MAIL_FROM": "Study Portal <portal@school.example>", "PUBLIC_URL": portal.url,
                "OUTBOUND_CA_FILE": server.authority}
    portal.stop()
    portal.start(**settings)
    portal.start_agent(**settings)
    yield portal, server
    portal.stop_agent()
    portal.stop()
    portal.start()
    server.stop()


def test_a_student_who_forgot_their_password_gets_back_in_by_email(mailing_portal, browser_factory):
    portal, server = mailing_portal
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    student = "mailer-" + uuid.uuid4().hex[:8]
    address = student + "@pupils.example"
    register(driver, portal, student)

    # Settings: the address, then its link opened in the same browser and confirmed.
    inspector.check("settings with e-mail", "/me/settings")
    driver.get(portal.url + "/me/settings")
    driver.find_element(By.ID, "email-address").send_keys(address)
    driver.find_element(By.CSS_SELECTOR, 'form[action="/me/email"] button[type=submit]').click()
    wait(driver, lambda d: "email=sent" in d.current_url, message="the address was not taken")
    assert "A link is on its way" in driver.page_source
    verification = server.wait_for(1)
    assert verification["to"] == [address] and verification["tls"] and verification["user"] == "portal"
    _, parsed = text_of(verification)
    assert parsed["Subject"] == "Confirm your e-mail address" and parsed["Auto-Submitted"] == "auto-generated"
    assert parsed.get_body(preferencelist=("html",)) is not None, "an HTML part beside the text"
    driver.get(link_in(verification, portal, "/verify-email/"))
    inspector.check("address link", driver.current_url[len(portal.url):])
    driver.find_element(By.CSS_SELECTOR, 'form[action^="/verify-email/"] button[type=submit]').click()
    wait(driver, lambda d: "this address is now your account" in d.page_source, message="the address was not confirmed")
    driver.get(portal.url + "/me/settings")
    assert "Your address is " + address in driver.page_source

    # Signed out, the password forgotten: from the sign-in page to a link by e-mail.
    driver.delete_all_cookies()
    inspector.check("forgot with e-mail", "/forgot")
    driver.get(portal.url + "/login")
    driver.find_element(By.LINK_TEXT, "Forgot your password?").click()
    driver.find_element(By.ID, "login").send_keys(address)
    driver.find_element(By.CSS_SELECTOR, 'form[action="/forgot"] button[type=submit]').click()
    wait(driver, lambda d: "Check your e-mail" in d.page_source, message="no word that a link is on its way")
    recovery = server.wait_for(2)
    assert recovery["to"] == [address]
    _, parsed = text_of(recovery)
    assert parsed["Subject"] == "Choose a new password"
    link = link_in(recovery, portal, "/reset/")
    inspector.check("reset link", link[len(portal.url):])
    driver.get(link)
    driver.find_element(By.ID, "password").send_keys("back in by e-mail")
    driver.find_element(By.ID, "password-confirmation").send_keys("back in by e-mail")
    driver.find_element(By.CSS_SELECTOR, 'form[action^="/reset/"] button[type=submit]').click()
    wait(driver, lambda d: "/me/settings" in d.current_url, message="the link did not sign the student in")
    assert "Your password is changed" in driver.page_source
    driver.delete_all_cookies()
    sign_in(driver, portal, student, "back in by e-mail")
    assert not inspector.problems, "\n".join(inspector.problems)
