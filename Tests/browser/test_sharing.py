"""Share links in a real Chromium: the QR code reads back as the link, the copy button copies,
and the links made in this browser session stay on the page that made them."""

import os
import subprocess
import tempfile
import uuid

from selenium.webdriver.common.by import By

from conftest import register, sign_in, wait

EXAM_PAGE = "/exams/europe/network-fundamentals"


def read_qr(element):
    """What zbar reads in a screenshot of `element`."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "qr.png")
        with open(path, "wb") as image:
            image.write(element.screenshot_as_png)
        result = subprocess.run(["zbarimg", "--raw", "--quiet", path], capture_output=True, text=True)
        return result.stdout.strip()


def test_a_share_link_can_be_copied_scanned_and_found_again_this_session(portal, browser_factory):
    driver = browser_factory()
    teacher = "sharer-" + uuid.uuid4().hex[:8]
    register(driver, portal, teacher)
    portal.sql("SET ROLE portal_auth; UPDATE users SET role = 'teacher' WHERE username = '%s'" % teacher)
    driver.delete_all_cookies()
    sign_in(driver, portal, teacher, "a long enough password")
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": portal.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})

    driver.get(portal.url + EXAM_PAGE)
    assert not driver.find_element(By.ID, "session-links").is_displayed(), "no links made yet"
    driver.find_element(By.ID, "share-title").send_keys("Friday homework")
    driver.find_element(By.CSS_SELECTOR, 'form[action="/teach/links"] button[type=submit]').click()
    wait(driver, lambda d: d.find_element(By.ID, "new-link"))
    link = driver.find_element(By.ID, "new-link").get_attribute("value")
    assert "/s/" in link

    assert read_qr(driver.find_element(By.CSS_SELECTOR, ".qr-figure svg")) == link, "the QR code carries the link"

    copy = driver.find_element(By.CSS_SELECTOR, "#created-link .copy-button")
    assert copy.is_displayed()
    copy.click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#created-link .copy-status").text.startswith("Copied"))
    assert driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](''))") == link

    # Back on the exam page, later in the same session: the link, its button and its QR code.
    driver.get(portal.url + EXAM_PAGE)
    section = wait(driver, lambda d: d.find_element(By.ID, "session-links"))
    wait(driver, lambda d: section.is_displayed(), message="the session's links are not shown")
    field = section.find_element(By.CSS_SELECTOR, "input[type=text]")
    assert field.get_attribute("value") == link
    assert "Friday homework" in section.text
    image = section.find_element(By.CSS_SELECTOR, "img.qr")
    wait(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    assert read_qr(image) == link

    # Another exam's page does not list it.
    driver.get(portal.url + "/exams/europe/programmazione-python")
    assert not driver.find_element(By.ID, "session-links").is_displayed()
