"""Journeys across pages, as the people who make them would, in Chromium at a phone's size: a
browser in Tokyo registering, a guest on a phone reaching the first question, a student who
finishes a practice and goes on from its results, a mock exam left and resumed, two edits in
settings kept by one Save."""

import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import fill_some_answer, register, wait
from test_layout import EXAM_PAGE, RUN_AXE, Inspector

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}


def axe_violations(inspector):
    inspector.driver.execute_script(inspector.axe)
    return inspector.driver.execute_async_script(RUN_AXE)


def test_a_browser_in_tokyo_registers_and_its_day_is_its_own(portal, browser_factory):
    driver = browser_factory()
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    username = "tokyo-" + uuid.uuid4().hex[:8]
    driver.get(portal.url + "/register")
    chosen = driver.execute_script("return document.getElementById('time-zone').value")
    assert chosen == "Asia/Tokyo", "the registration form chose %r, not the browser's zone" % chosen
    register(driver, portal, username)
    stored = portal.sql("SELECT time_zone || ' ' || time_zone_confirmed FROM users WHERE username = '%s'" % username)
    assert stored == "Asia/Tokyo true", stored
    driver.get(portal.url + "/me")
    assert not driver.find_elements(By.CSS_SELECTOR, ".zone-prompt"), "the dashboard asks for a zone the browser gave"
    # Its day is Tokyo's: the database's own reckoning of the student's today.
    today = portal.sql("SELECT (now() AT TIME ZONE 'Asia/Tokyo')::date::text")
    theirs = portal.sql(
        "SELECT (now() AT TIME ZONE u.time_zone)::date::text FROM users u WHERE u.username = '%s'" % username)
    assert theirs == today, "the student's today is %s, Tokyo's is %s" % (theirs, today)


def test_a_guest_on_a_phone_reaches_the_first_question_without_scrolling(portal, browser_factory):
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.get(portal.url + EXAM_PAGE)
    header = driver.execute_script("return document.querySelector('.site-header').getBoundingClientRect().height")
    assert header < 60, "a visitor's header is %s px tall on a phone: more than one line" % header
    driver.find_element(By.CSS_SELECTOR, 'form.quick-start button[name=mode][value=practice]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "answer-form"), message="no question")
    first = driver.current_url.split("?")[0]
    assert not driver.find_elements(By.CSS_SELECTOR, ".guest-line"), "the guest notice comes before the first answer"
    found_short = False
    for number in range(1, 21):
        driver.get(first + "?q=%d" % number)
        if not driver.find_elements(By.ID, "question-heading"):
            break  # past the session's last question
        top = driver.execute_script("return document.getElementById('question-heading').getBoundingClientRect().top")
        assert top < 200, "question %d starts at %s px on a phone" % (number, top)
        options = driver.find_elements(By.CSS_SELECTOR, "#answer-form input[type=radio]")
        labels = [o.find_element(By.XPATH, "ancestor::label").text.strip() for o in options]
        if len(options) == 4 and all(len(label) <= 20 for label in labels):
            found_short = True
            bottom = driver.execute_script("return document.querySelector('#answer-form button.primary').getBoundingClientRect().bottom")
            assert bottom <= 844, "question %d's send button ends at %s px, below a phone's screen" % (number, bottom)
            break
    assert found_short, "no single-choice question with four short options among the first twenty"
    # After the first answer, the guest notice, on one line.
    driver.get(first)
    fill_some_answer(driver.find_element(By.ID, "answer-form"))
    inspector.submit("#answer-form button.primary")
    line = driver.find_elements(By.CSS_SELECTOR, ".guest-line")
    assert line, "no guest notice after the first answer"
    assert line[0].size["height"] < 60, "the guest notice is %s px tall" % line[0].size["height"]
    assert not axe_violations(inspector), axe_violations(inspector)


def test_a_finished_practice_leads_on_to_the_questions_missed(portal, browser_factory):
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    register(driver, portal, "missed-" + uuid.uuid4().hex[:8])
    driver.get(portal.url + EXAM_PAGE)
    driver.find_element(By.CSS_SELECTOR, 'form.quick-start button[name=mode][value=practice]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "answer-form"), message="no question")
    session = driver.current_url.split("?")[0]
    # Three answers, each the last option offered (right or wrong as it falls), then finish.
    for _ in range(3):
        driver.get(session)
        boxes = driver.find_elements(By.CSS_SELECTOR, "#answer-form input[type=radio], #answer-form input[type=checkbox]")
        if boxes:
            driver.execute_script("arguments[0].click()", boxes[-1])
        else:
            fill_some_answer(driver.find_element(By.ID, "answer-form"))
        inspector.submit("#answer-form button.primary")
    driver.get(session + "/finish")
    inspector.submit('form.finish button[type=submit]')
    assert driver.current_url.endswith("/results"), driver.current_url
    wrong = int(portal.sql(
        "SELECT count(*) FROM counted_answers WHERE session_id = '%s' AND NOT correct" % session.rsplit("/", 1)[1]))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.refresh()
    summary = driver.find_element(By.CSS_SELECTOR, ".verdict .pass-fail").text
    assert "3 of" in summary and "answered" in summary, summary
    if wrong == 0:
        assert not driver.find_elements(By.XPATH, "//button[starts-with(normalize-space(.), 'Practise the ')]")
        return
    button = driver.find_element(By.XPATH, "//button[normalize-space(.)='Practise the %d you missed']" % wrong)
    bottom = driver.execute_script("return arguments[0].getBoundingClientRect().bottom", button)
    bar = driver.execute_script("return document.querySelector('nav.tab-bar').getBoundingClientRect().top")
    assert 0 < bottom <= bar, "the way on ends at %s px, below the first screen (the bar starts at %s)" % (bottom, bar)
    assert not axe_violations(inspector), axe_violations(inspector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(driver, lambda d: d.find_elements(By.ID, "answer-form"), message="the practice of the missed did not start")
    progress = driver.find_element(By.CSS_SELECTOR, ".session-bar .progress").text
    assert ("of %d" % wrong) in progress, progress


def test_a_mock_exam_left_for_the_dashboard_is_resumed_from_the_exam_page(portal, browser_factory):
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    register(driver, portal, "mock-" + uuid.uuid4().hex[:8])
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.get(portal.url + EXAM_PAGE)
    driver.find_element(By.CSS_SELECTOR, 'form.quick-start button[name=mode][value=mock]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "answer-form"), message="no mock question")
    mock = driver.current_url.split("?")[0]
    # One answer in (a start sent again before any answer leads to the same attempt, asking nothing).
    fill_some_answer(driver.find_element(By.ID, "answer-form"))
    inspector.submit("#answer-form button.primary")
    driver.get(portal.url + "/me")
    resume = driver.find_element(By.CSS_SELECTOR, ".running-session a.button")
    assert resume.get_attribute("href").endswith(mock[len(portal.url):]), resume.get_attribute("href")
    driver.get(portal.url + EXAM_PAGE)
    resume = driver.find_element(By.CSS_SELECTOR, ".running-session a.button")
    assert not axe_violations(inspector), axe_violations(inspector)
    # "Mock exam" again asks first; resuming leads back to the same attempt.
    driver.find_element(By.CSS_SELECTOR, 'form.quick-start button[name=mode][value=mock]').click()
    wait(driver, lambda d: "still running" in d.page_source, message="a second mock started without asking")
    assert not axe_violations(inspector), axe_violations(inspector)
    driver.find_element(By.LINK_TEXT, "Resume it").click()
    wait(driver, lambda d: d.current_url.split("?")[0] == mock, message="resume went elsewhere")


def test_two_edits_in_settings_and_one_save_keep_both(portal, browser_factory):
    driver = browser_factory()
    username = "edits-" + uuid.uuid4().hex[:8]
    register(driver, portal, username)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.get(portal.url + "/me/settings")
    name = driver.find_element(By.ID, "display-name")
    name.clear()
    name.send_keys("Edited Name")
    Select(driver.find_element(By.ID, "desired-retention")).select_by_value("0.85")
    button = driver.find_element(By.CSS_SELECTOR, "form.settings-form p.save-all button[type=submit]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(driver, lambda d: "saved=" in d.current_url, message="the settings were not saved")
    said = driver.find_element(By.CSS_SELECTOR, "main p.notice[role=status]").text
    assert "name" in said and "remember" in said, said
    row = portal.sql("SELECT display_name || '|' || desired_retention::float8 FROM users WHERE username = '%s'" % username)
    assert row == "Edited Name|0.85", row
    # A reload of the saved page saves nothing again and shows both edits.
    driver.refresh()
    assert driver.find_element(By.ID, "display-name").get_attribute("value") == "Edited Name"
    assert Select(driver.find_element(By.ID, "desired-retention")).first_selected_option.get_attribute("value") == "0.85"


def test_a_practice_built_on_the_exam_page_says_how_many_questions_match_as_the_choices_change(portal, browser_factory):
    driver = browser_factory()
    register(driver, portal, "builder-" + uuid.uuid4().hex[:8])
    driver.get(portal.url + EXAM_PAGE)
    driver.find_element(By.CSS_SELECTOR, "details.start-options > summary").click()
    count = driver.find_element(By.ID, "practice-count")
    wait(driver, lambda d: count.is_displayed() and count.text.startswith("Questions that match these choices:"), message="no count")
    everything = int(count.text.rsplit(" ", 1)[1])
    assert everything > 0
    # Nothing studied yet: nothing was missed in a last session.
    driver.find_element(By.CSS_SELECTOR, 'input[name=pool][value="missed-last"]').click()
    wait(driver, lambda d: count.text.endswith(": 0"), message="the count did not follow the choice: " + count.text)
    driver.find_element(By.CSS_SELECTOR, 'input[name=pool][value="unseen"]').click()
    wait(driver, lambda d: count.text.endswith(": %d" % everything), message=count.text)
    # One domain fewer, fewer questions.
    driver.find_elements(By.CSS_SELECTOR, 'form.start input[name=domain]')[0].click()
    wait(driver, lambda d: int(count.text.rsplit(" ", 1)[1]) < everything, message=count.text)


# A stand-in for the browser's speech synthesis, installed before the page's scripts: it records
# what it is asked to say (the words and their language) and ends each utterance at once.
RECORDING_SYNTHESIS = """
window.__spoken = [];
const synthesis = {
  speaking: false,
  cancel() {},
  speak(utterance) {
    window.__spoken.push({ text: utterance.text, lang: utterance.lang, highlighted: CSS.highlights && CSS.highlights.has("read-aloud") });
    setTimeout(() => utterance.onend && utterance.onend(), 0);
  },
};
Object.defineProperty(window, "speechSynthesis", { value: synthesis, configurable: true });
"""


def test_a_student_turns_on_read_aloud_and_hears_a_japanese_question_in_japanese(portal, browser_factory):
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDING_SYNTHESIS})
    register(driver, portal, "voice-" + uuid.uuid4().hex[:8])
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    # Off by default: no button.
    driver.get(portal.url + "/exams/asia-pacific/database-kiso")
    driver.find_element(By.CSS_SELECTOR, 'form.quick-start button[name=mode][value=practice]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "answer-form"), message="no question")
    question = driver.current_url
    assert not driver.find_elements(By.CSS_SELECTOR, "button.read-aloud"), "read-aloud shows before it is turned on"
    # Turned on in settings.
    driver.get(portal.url + "/me/settings")
    box = driver.find_element(By.CSS_SELECTOR, 'input[name="reads_aloud"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    button = driver.find_element(By.CSS_SELECTOR, "form.settings-form p.save-all button[type=submit]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(driver, lambda d: "saved=" in d.current_url, message="the setting was not saved")
    driver.get(question)
    read = driver.find_element(By.CSS_SELECTOR, "button.read-aloud")
    stem = driver.find_element(By.CSS_SELECTOR, ".question .stem").text
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", read)
    read.click()
    options = len(driver.find_elements(By.CSS_SELECTOR, "#answer-form label.option, #answer-form .ordering label, #answer-form .matching label"))
    wait(driver, lambda d: len(d.execute_script("return window.__spoken")) >= 1 + options and
         d.find_element(By.CSS_SELECTOR, "button.read-aloud").get_attribute("aria-pressed") == "false",
         message="the question and its options were not read to the end")
    spoken = driver.execute_script("return window.__spoken")
    assert all(utterance["lang"] == "ja" for utterance in spoken), spoken
    assert spoken[0]["text"] and spoken[0]["text"] in stem, (spoken[0], stem)
    assert all(utterance["highlighted"] for utterance in spoken), "a sentence was read without being marked"
    assert not axe_violations(inspector), axe_violations(inspector)


def test_a_mock_exam_option_is_struck_out_in_place_and_the_answer_still_saves(portal, browser_factory):
    driver = browser_factory()
    register(driver, portal, "strike-" + uuid.uuid4().hex[:8])
    driver.get(portal.url + EXAM_PAGE)
    driver.find_element(By.CSS_SELECTOR, 'form.quick-start button[name=mode][value=mock]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "answer-form"), message="no mock question")
    session = driver.current_url.split("?")[0]
    # The first question with options to strike.
    for number in range(1, 11):
        driver.get(session + "?q=%d" % number)
        if driver.find_elements(By.CSS_SELECTOR, "button.strike"):
            break
    page = driver.current_url
    driver.execute_script("window.__stayed = true")
    strike = driver.find_elements(By.CSS_SELECTOR, "button.strike")[1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", strike)
    strike.click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'button.strike[aria-pressed="true"]'), message="the option was not struck out")
    assert driver.execute_script("return window.__stayed === true"), "striking out reloaded the page"
    assert driver.current_url == page
    assert "struck" in driver.find_elements(By.CSS_SELECTOR, ".option-row label.option")[1].get_attribute("class")
    # The answer chosen afterwards saves as a new one (the form took a fresh one-time id).
    fill_some_answer(driver.find_element(By.ID, "answer-form"))
    save = driver.find_element(By.CSS_SELECTOR, "#answer-form button.primary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", save)
    save.click()
    wait(driver, lambda d: d.current_url != page, message="the answer was not saved")
    answered = int(portal.sql("SELECT count(*) FROM answers WHERE session_id = '%s'" % session.rsplit("/", 1)[1]).strip())
    assert answered == 1, "%d answers stored" % answered
    driver.get(page)
    assert driver.find_elements(By.CSS_SELECTOR, 'button.strike[aria-pressed="true"]'), "the strike was not kept with the session"
