"""A forgotten password and a class's accounts, as people go through them in Chromium: a teacher
gives a student who forgot their password a code on a card, the student finds the way back in
from the sign-in page and chooses a new password; a teacher makes a class's accounts from a
pasted list and a pupil's first sign-in uses their card. Every page on the way fits a phone and
passes axe."""

import re
import uuid

from selenium.webdriver.common.by import By

from conftest import register, sign_in, wait
from test_layout import RUN_AXE, Inspector


def axe_violations(inspector):
    """What axe finds on the page on screen (a page made by a form, which a reload would not show)."""
    inspector.driver.execute_script(inspector.axe)
    return ["axe %s (%s): %s" % (v["id"], v["impact"], "; ".join(v["nodes"])) for v in inspector.driver.execute_async_script(RUN_AXE)]


def fits_a_phone(driver):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    widths = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return widths[0] <= widths[1]


def make_teacher(driver, portal):
    teacher = "teacher-" + uuid.uuid4().hex[:8]
    register(driver, portal, teacher)
    portal.sql("SET ROLE portal_auth; UPDATE users SET role = 'teacher' WHERE username = '%s'" % teacher)
    driver.delete_all_cookies()
    sign_in(driver, portal, teacher, "a long enough password")
    driver.get(portal.url + "/teach")
    driver.find_element(By.ID, "class-name").send_keys("Year 9 science " + teacher[-4:])
    driver.find_element(By.CSS_SELECTOR, 'form[action="/teach/classes"] button[type=submit]').click()
    wait(driver, lambda d: "/teach/classes/" in d.current_url, message="the class was not made")
    return driver.current_url[len(portal.url):]


def test_a_student_who_forgot_their_password_gets_back_in_with_their_teachers_code(portal, browser_factory):
    teacher_browser, student_browser = browser_factory(), browser_factory()
    inspector = Inspector(teacher_browser, portal)
    class_page = make_teacher(teacher_browser, portal)
    join_code = teacher_browser.find_element(By.CSS_SELECTOR, ".join-code strong.code").text

    student = "pupil-" + uuid.uuid4().hex[:8]
    register(student_browser, portal, student)
    student_browser.get(portal.url + "/join/" + join_code)
    student_browser.find_element(By.CSS_SELECTOR, 'form[action="/join/%s"] button[type=submit]' % join_code).click()
    wait(student_browser, lambda d: "/join/" not in d.current_url, message="joining the class went nowhere")

    # The teacher: the pupil's own page in the class, its password code, the question, the card (shown once).
    teacher_browser.get(portal.url + class_page)
    teacher_browser.find_element(By.CSS_SELECTOR, 'table.roster a[href*="/members/"]').click()
    wait(teacher_browser, lambda d: "/members/" in d.current_url, message="the roster's name did not open the pupil's page")
    link = teacher_browser.find_element(By.CSS_SELECTOR, 'a[href$="/reset"][href*="/members/"]').get_attribute("href")
    inspector.check("reset question", link[len(portal.url):])
    teacher_browser.get(link)
    teacher_browser.find_element(By.CSS_SELECTOR, "form.confirm button[type=submit]").click()
    wait(teacher_browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".signin-card dd.code"), message="no card")
    code = teacher_browser.find_element(By.CSS_SELECTOR, ".signin-card dd.code").text
    assert len(code) == 14, code
    assert teacher_browser.find_elements(By.CSS_SELECTOR, ".signin-card svg.qr"), "the card has its QR code"
    assert not axe_violations(inspector), axe_violations(inspector)
    assert fits_a_phone(teacher_browser), "the card is wider than a phone"

    # The student, signed out and without the password: from the sign-in page to a new one.
    student_browser.delete_all_cookies()
    student_inspector = Inspector(student_browser, portal)
    student_inspector.check("forgot page", "/forgot")
    student_browser.get(portal.url + "/login")
    student_browser.find_element(By.LINK_TEXT, "Forgot your password?").click()
    student_browser.find_element(By.LINK_TEXT, "I have a reset code").click()
    wait(student_browser, lambda d: d.current_url.endswith("/reset"))
    student_inspector.check("reset form", "/reset")
    student_browser.find_element(By.ID, "username").send_keys(student)
    student_browser.find_element(By.ID, "code").send_keys(code.lower().replace("-", " "))
    student_browser.find_element(By.ID, "password").send_keys("a fresh start phrase")
    student_browser.find_element(By.ID, "password-confirmation").send_keys("a fresh start phrase")
    student_browser.find_element(By.CSS_SELECTOR, 'form[action="/reset"] button[type=submit]').click()
    wait(student_browser, lambda d: "/me/settings" in d.current_url, message="the reset did not sign the student in")
    assert "Your password is changed" in student_browser.page_source
    student_browser.delete_all_cookies()
    sign_in(student_browser, portal, student, "a fresh start phrase")
    assert not inspector.problems and not student_inspector.problems, "\n".join(inspector.problems + student_inspector.problems)


def test_a_teacher_makes_a_class_of_thirty_and_a_pupil_signs_in_with_a_card(portal, browser_factory):
    driver, pupil = browser_factory(), browser_factory()
    inspector = Inspector(driver, portal)
    class_page = make_teacher(driver, portal)
    inspector.check("accounts form", class_page + "/accounts")
    driver.get(portal.url + class_page + "/accounts")
    names = ["Pupil %02d %s" % (n, uuid.uuid4().hex[:4]) for n in range(1, 31)]
    driver.find_element(By.ID, "names").send_keys("\n".join(names))
    driver.find_element(By.CSS_SELECTOR, "form.account button[type=submit]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".card-sheet"), message="no cards")
    cards = driver.find_elements(By.CSS_SELECTOR, ".card-sheet .signin-card")
    assert len(cards) == 30
    assert not axe_violations(inspector), axe_violations(inspector)
    assert fits_a_phone(driver), "the sheet of cards is wider than a phone"
    username = cards[0].find_elements(By.CSS_SELECTOR, "dd")[0].text
    code = cards[0].find_element(By.CSS_SELECTOR, "dd.code").text
    # The cards have an address of their own: a reload shows the same cards and makes nothing.
    assert re.search(r"/teach/classes/[0-9a-f-]{36}/accounts/[0-9a-f-]{36}$", driver.current_url), driver.current_url
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".card-sheet"), message="no cards after a reload")
    again = driver.find_elements(By.CSS_SELECTOR, ".card-sheet .signin-card")
    assert len(again) == 30 and again[0].find_element(By.CSS_SELECTOR, "dd.code").text == code
    # Printed, the cards come alone: no site header, two to a row.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not driver.find_element(By.CSS_SELECTOR, ".site-header").is_displayed(), "the header prints too"
    columns = driver.execute_script("return getComputedStyle(document.querySelector('.card-sheet')).gridTemplateColumns.split(' ').length")
    assert columns == 2, "printed cards are %s to a row" % columns
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    pupil.get(portal.url + "/login")
    pupil.find_element(By.LINK_TEXT, "Choose your password").click()
    wait(pupil, lambda d: "/reset?first=1" in d.current_url)
    assert pupil.find_element(By.TAG_NAME, "h1").text == "Choose your password"
    pupil.find_element(By.ID, "username").send_keys(username)
    pupil.find_element(By.ID, "code").send_keys(code)
    pupil.find_element(By.ID, "password").send_keys("my very own phrase")
    pupil.find_element(By.ID, "password-confirmation").send_keys("my very own phrase")
    pupil.find_element(By.CSS_SELECTOR, 'form[action="/reset"] button[type=submit]').click()
    wait(pupil, lambda d: d.find_elements(By.ID, "logout-form"), message="the first sign-in did not sign the pupil in")
    pupil.get(portal.url + "/me/classes")
    assert "Year 9 science" in pupil.page_source
    assert not inspector.problems, "\n".join(inspector.problems)


def test_a_student_downloads_their_data_and_deletes_their_account(portal, browser_factory):
    from test_layout import answer_first_option, start_session
    teacher_browser, driver = browser_factory(), browser_factory()
    class_page = make_teacher(teacher_browser, portal)
    join_code = teacher_browser.find_element(By.CSS_SELECTOR, ".join-code strong.code").text

    student = "leaver-" + uuid.uuid4().hex[:8]
    register(driver, portal, student)
    driver.get(portal.url + "/join/" + join_code)
    driver.find_element(By.CSS_SELECTOR, 'form[action="/join/%s"] button[type=submit]' % join_code).click()
    wait(driver, lambda d: "/join/" not in d.current_url, message="joining the class went nowhere")
    inspector = Inspector(driver, portal)
    start_session(inspector, "practice")
    answer_first_option(inspector)
    user_id = portal.sql("SELECT id FROM users WHERE username = '%s'" % student)
    answers = int(portal.sql("SELECT count(*) FROM answers"))
    assert int(portal.sql("SELECT count(*) FROM answers WHERE user_id = '%s'" % user_id)) == 1

    # The download, as the page's link fetches it.
    driver.get(portal.url + "/me/settings")
    fetched = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/me/data.zip').then(async (r) => {
            const bytes = new Uint8Array(await r.arrayBuffer());
            done([r.status, r.headers.get('content-type'), String.fromCharCode(bytes[0], bytes[1]), bytes.length]);
        }, (e) => done([0, String(e), '', 0]));""")
    assert fetched[0] == 200 and fetched[1] == "application/zip" and fetched[2] == "PK" and fetched[3] > 500, fetched

    # From settings to the question, which says what goes and what stays, then the password.
    driver.find_element(By.LINK_TEXT, "Delete my account…").click()
    wait(driver, lambda d: d.current_url.endswith("/me/delete"))
    inspector.check("delete page", "/me/delete")
    driver.get(portal.url + "/me/delete")
    assert "Erased at once" in driver.page_source and "anonymous rows" in driver.page_source
    driver.find_element(By.ID, "delete-password").send_keys("a long enough password")
    driver.find_element(By.CSS_SELECTOR, 'form[action="/me/delete"] button.danger').click()
    wait(driver, lambda d: "Your account is deleted" in d.page_source, message="the account was not deleted")
    assert not driver.find_elements(By.ID, "logout-form"), "signed out"
    assert not axe_violations(inspector), axe_violations(inspector)

    # Gone for the class and for signing in; the answer stays, anonymous, in the counts.
    teacher_browser.get(portal.url + class_page)
    assert student not in teacher_browser.page_source and "Student " + student[-4:] not in teacher_browser.page_source
    assert int(portal.sql("SELECT count(*) FROM users WHERE id = '%s'" % user_id)) == 0
    assert int(portal.sql("SET ROLE portal_auth; SELECT count(*) FROM answers")) == answers
    driver.get(portal.url + "/login")
    driver.find_element(By.ID, "username").send_keys(student)
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    driver.find_element(By.CSS_SELECTOR, "form.account button[type=submit]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".form-error"), message="the old sign-in still works")
    assert not inspector.problems, "\n".join(inspector.problems)
