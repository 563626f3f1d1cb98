"""Offline study in a real Chromium against a real portal.

The site is taken offline by stopping the server process (Chrome's offline emulation does not
cut off a service worker's own requests), so everything the student does in between is served
by the service worker and stored by the page in IndexedDB.
"""

import json
import os
import shutil
import tempfile
import time
import uuid

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select

from conftest import ROOT, fill_some_answer, html_problems, register, sign_in, wait

EXAM = "europe/network-fundamentals"
EXAM_PAGE = "/exams/" + EXAM

READ_STORE = """
const [store, done] = arguments;
const open = indexedDB.open("portal-offline", 1);
open.onupgradeneeded = () => { open.transaction.abort(); };
open.onerror = () => done([]);
open.onsuccess = () => {
  const db = open.result;
  if (!db.objectStoreNames.contains(store)) { db.close(); done([]); return; }
  const request = db.transaction(store).objectStore(store).getAll();
  request.onsuccess = () => { db.close(); done(request.result); };
};
"""

WRITE_RECORDS = """
const [store, records, keysToDelete, done] = arguments;
const open = indexedDB.open("portal-offline", 1);
open.onsuccess = () => {
  const db = open.result;
  const tx = db.transaction(store, "readwrite");
  records.forEach((record) => tx.objectStore(store).put(record));
  keysToDelete.forEach((key) => tx.objectStore(store).delete(key));
  tx.oncomplete = () => { db.close(); done(true); };
  tx.onerror = () => done(false);
};
"""


def put_records(driver, store_name, records):
    return driver.execute_async_script(WRITE_RECORDS, store_name, records, [])


def delete_record(driver, store_name, key):
    return driver.execute_async_script(WRITE_RECORDS, store_name, [], [key])


def store(driver, name):
    return driver.execute_async_script(READ_STORE, name)


def download_exam(driver, portal):
    driver.get(portal.url + EXAM_PAGE)
    driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    button = wait(driver, expected_conditions.element_to_be_clickable((By.ID, "offline-download")))
    assert not driver.find_element(By.ID, "offline-open").is_displayed(), "nothing to study offline before a download"
    button.click()
    wait(driver, lambda d: "On this device" in d.find_element(By.ID, "offline-status").text, timeout=30,
         message="the exam was not downloaded")
    assert driver.find_element(By.ID, "offline-remove").is_displayed()
    assert driver.find_element(By.ID, "offline-open").is_displayed()
    assert "This site stores" in driver.find_element(By.ID, "offline-storage").text


def exam_item(driver):
    """The downloaded exam's entry on the offline study page."""
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '[data-exam="%s"]' % EXAM))


def start_offline_session(driver, count=None, mode="practice", snapshots=None):
    """Starts a session of the downloaded exam from the offline study page."""
    item = exam_item(driver)
    item.find_element(By.CSS_SELECTOR, 'input[value="%s"]' % mode).click()
    if count is not None:
        field = item.find_element(By.CSS_SELECTOR, "input[type=number]")
        field.clear()
        field.send_keys(str(count))
    if snapshots is not None:
        snapshots["offline-library"] = driver.page_source
    item.find_element(By.CSS_SELECTOR, "form.start button[type=submit]").click()
    return item


def offline_session_of(driver, question_ids):
    """Offline, with the exam downloaded: a session of these questions (as if the shuffle had
    picked them), continued from the exam's entry."""
    driver.refresh()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Study offline", message="no offline page from the service worker")
    start_offline_session(driver, len(question_ids))
    wait(driver, lambda d: d.find_element(By.ID, "question-heading"))
    session = store(driver, "sessions")[0]
    session["questionIds"] = question_ids
    assert put_records(driver, "sessions", [session])
    driver.refresh()
    wait(driver, lambda d: exam_item(d).find_element(By.XPATH, ".//button[contains(., 'Continue')]")).click()


def answer_questions(driver, count, snapshots=None):
    """Answers `count` questions in the offline session on screen: the first option (or the
    order as shown), then on to the next. `snapshots` collects the DOM of each state once."""
    snapshots = {} if snapshots is None else snapshots
    for number in range(1, count + 1):
        expected = "Question %d of %d" % (number, count)
        wait(driver, lambda d: d.find_element(By.ID, "question-heading").text == expected, message="not at " + expected)
        snapshots.setdefault("offline-question", driver.page_source)
        form = driver.find_element(By.ID, "answer-form")
        fill_some_answer(form)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        verdict = wait(driver, lambda d: d.find_element(By.ID, "verdict"))
        assert verdict.text in ("Right", "Not quite")
        snapshots.setdefault("offline-feedback", driver.page_source)
        driver.find_element(By.ID, "next-link").click()
    wait(driver, lambda d: d.find_element(By.ID, "offline-session-heading").text == "Session finished")
    snapshots.setdefault("offline-results", driver.page_source)


def test_study_offline_then_upload_exactly_once(portal, browser_factory):
    driver = browser_factory()
    username = "flyer-" + uuid.uuid4().hex[:8]
    register(driver, portal, username)
    download_exam(driver, portal)

    # Offline: the server is gone. Reloading the exam page gets the offline study page from the
    # service worker, with the downloaded exam ready to start.
    portal.stop()
    driver.refresh()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Study offline", message="no offline page from the service worker")
    assert "Content updated" in exam_item(driver).text
    # A page the device does not hold (the dashboard) says it needs a connection, above the exams.
    driver.get(portal.url + "/me")
    elsewhere = wait(driver, lambda d: d.find_element(By.ID, "offline-elsewhere"))
    wait(driver, lambda d: elsewhere.is_displayed(), message="offline, /me stands in silently for the offline page")
    assert "/me needs a connection" in elsewhere.text, elsewhere.text
    assert "Content updated" in exam_item(driver).text
    snapshots = {"offline-elsewhere": driver.page_source}
    # A session can be stopped part-way and continued from the exam's entry.
    start_offline_session(driver, 10, snapshots=snapshots)
    wait(driver, lambda d: d.find_element(By.ID, "question-heading").text == "Question 1 of 10")
    driver.find_element(By.ID, "offline-leave").click()
    continue_button = wait(driver, lambda d: exam_item(d).find_element(By.XPATH, ".//button[contains(., 'Continue')]"))
    assert "0 of 10" in continue_button.text, continue_button.text
    continue_button.click()
    answer_questions(driver, 10, snapshots)
    problems = html_problems(snapshots)
    assert not problems, "the offline pages as built in the browser are not valid HTML:\n" + "\n".join(problems)

    outbox = store(driver, "answers")
    assert len(outbox) == 10, "every answer waits in the outbox while offline"
    session_id = outbox[0]["sessionId"]
    assert {answer["sessionId"] for answer in outbox} == {session_id}
    assert "10 answers are waiting" in driver.find_element(By.ID, "offline-sync").text

    # Close the page, come back online: the first page opened uploads the outbox.
    driver.get("about:blank")
    portal.start()
    driver.get(portal.url + "/")
    wait(driver, lambda d: len(store(d, "answers")) == 0, timeout=30, message="the outbox was not emptied")
    assert portal.sql("SELECT count(*) FROM answers WHERE session_id = '%s'" % session_id) == "10"
    assert portal.sql("SELECT finished_at IS NOT NULL FROM study_sessions WHERE id = '%s'" % session_id) == "t"
    assert store(driver, "sessions") == []

    # The upload repeats (say its reply was lost): the same ten answers are sent again, the
    # server calls them duplicates, and there are still exactly ten rows.
    assert put_records(driver, "answers", outbox)
    driver.refresh()
    wait(driver, lambda d: len(store(d, "answers")) == 0, timeout=30, message="the repeated upload was not acknowledged")
    assert portal.sql("SELECT count(*) FROM answers WHERE session_id = '%s'" % session_id) == "10"
    user_rows = portal.sql(
        "SELECT count(*) FROM answers a JOIN study_sessions s ON s.id = a.session_id JOIN users u ON u.id = s.user_id "
        "WHERE u.username = '%s'" % username)
    assert user_rows == "10"


def test_signing_out_with_answers_waiting_warns_first(portal, browser_factory):
    driver = browser_factory()
    register(driver, portal, "leaver-" + uuid.uuid4().hex[:8])
    driver.get(portal.url + EXAM_PAGE)
    driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    # An answer made offline that cannot go yet: the network is cut for the page.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    waiting = {
        "id": str(uuid.uuid4()), "sessionId": str(uuid.uuid4()), "questionId": str(uuid.uuid4()), "questionVersion": 1,
        "response": [0], "timeMs": 1000, "answeredAt": "2026-01-01T00:00:00.000Z", "userId": None,
    }
    assert put_records(driver, "answers", [waiting])
    driver.find_element(By.CSS_SELECTOR, "#logout-form button").click()
    alert = wait(driver, expected_conditions.alert_is_present(), message="no warning before signing out")
    assert "1 answers from this device have not been uploaded" in alert.text or "have not been uploaded yet" in alert.text
    alert.dismiss()
    time.sleep(0.3)
    assert driver.find_elements(By.ID, "logout-form"), "dismissing the warning keeps the student signed in"
    delete_record(driver, "answers", waiting["id"])
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    # With nothing waiting, signing out needs no confirmation.
    driver.find_element(By.CSS_SELECTOR, "#logout-form button").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'a[href="/login"]'), message="signing out did not happen")
    try:
        driver.switch_to.alert
        raise AssertionError("a warning appeared with nothing waiting")
    except NoAlertPresentException:
        pass


def test_content_change_shows_banner_and_applies_the_delta(portal, browser_factory):
    student = browser_factory()
    register(student, portal, "reader-" + uuid.uuid4().hex[:8])
    download_exam(student, portal)
    records = store(student, "exams")
    assert len(records) == 1
    downloaded = records[0]

    # An admin rewrites one question of the exam in the dashboard.
    question_id = portal.sql(
        "SELECT q.id FROM questions q JOIN domains d ON d.id = q.domain_id JOIN exams e ON e.id = d.exam_id "
        "WHERE e.slug = 'network-fundamentals' AND q.status = 'published' AND q.type = 'single-choice' ORDER BY q.id LIMIT 1")
    admin = browser_factory()
    sign_in(admin, portal, *portal.ADMIN)
    admin.get(portal.url + "/admin/questions/%s/edit" % question_id)
    stem = admin.find_element(By.ID, "q-stem")
    stem.clear()
    stem.send_keys("Which layer does a router work at? (revised wording)")
    admin.find_element(By.CSS_SELECTOR, "form button.primary[type=submit]").click()
    wait(admin, lambda d: "/edit" not in d.current_url, message="the edit was not saved")

    # The exam page says so too, and offers to update the copy.
    student.get(portal.url + EXAM_PAGE)
    wait(student, lambda d: "New questions available" in d.find_element(By.ID, "offline-status").text,
         message="the exam page does not say newer content is there")
    assert student.find_element(By.ID, "offline-download").text == "Update"

    # The student's offline page says new content is there, and updating applies the change feed.
    student.get(portal.url + "/offline/study")
    item = exam_item(student)
    banner = item.find_element(By.CSS_SELECTOR, ".update-available")
    wait(student, lambda d: banner.is_displayed(), message="no 'new questions available' banner")
    assert "New questions available" in banner.text
    student.execute_script("performance.clearResourceTimings()")
    banner.find_element(By.TAG_NAME, "button").click()
    status = item.find_element(By.CSS_SELECTOR, ".exam-status")
    wait(student, lambda d: "Up to date" in status.text or "could not" in status.text, message="the update did not finish")
    assert "Questions changed: 1; removed: 0" in status.text, status.text
    assert not banner.is_displayed()
    fetched = student.execute_script("return performance.getEntriesByType('resource').map((entry) => entry.name)")
    assert any("/changes?since=" + downloaded["version"] in name for name in fetched), fetched
    assert not any("/offline/exams/" in name for name in fetched), "the whole bundle was downloaded again"

    updated = store(student, "exams")[0]
    manifest = json.loads(student.execute_script("return fetch('/offline/manifest.json').then((r) => r.text())"))
    current = [exam for exam in manifest["exams"] if exam["region"] + "/" + exam["slug"] == EXAM][0]
    assert updated["version"] == current["version"] and updated["url"] == current["url"]
    bundle = student.execute_async_script(
        "caches.match(arguments[0]).then((r) => r.json()).then(arguments[1])", updated["url"])
    revised = [question for question in bundle["questions"] if question["id"].lower() == question_id.lower()]
    assert revised and revised[0]["stem"] == "Which layer does a router work at? (revised wording)"
    assert len(bundle["questions"]) == downloaded["questions"]
    assert "Content updated" in item.text


def test_answer_checking_agrees_with_the_server_cases(portal, browser_factory):
    """The shared cases QuestionEngine's tests run, run by the offline page's checker."""
    with open(os.path.join(ROOT, "Tests", "Fixtures", "answer-checking.json")) as fixture:
        cases = json.load(fixture)
    driver = browser_factory()
    driver.get(portal.url + "/offline/study")
    wait(driver, lambda d: d.execute_script("return !!window.PortalAnswerCheck"))
    outcomes = driver.execute_script("""
        return arguments[0].map((c) => {
          try {
            // A count of options stands for that many plain ones (as in the Swift and SQL runs).
            const options = typeof c.options === "number"
              ? Array.from({ length: c.options }, (_, i) => ({ id: "o" + i, text: "Option " + (i + 1) })) : c.options;
            const question = { type: c.kind, options: options, correct: c.key, details: c.details || {} };
            const outcome = PortalAnswerCheck.check(question, c.response);
            return { name: c.name, correct: outcome.isCorrect, score: outcome.score };
          } catch (error) {
            return { name: c.name, error: error.code || String(error) };
          }
        });
    """, cases)
    assert len(outcomes) == len(cases) > 10
    assert {case["kind"] for case in cases} >= {"matching", "fill-in", "hotspot"}
    for case, outcome in zip(cases, outcomes):
        if "error" in case:
            assert outcome.get("error") == case["error"], (case, outcome)
        else:
            assert outcome.get("correct") == case["correct"], (case, outcome)
            assert abs(outcome["score"] - case["score"]) < 1e-9, (case, outcome)


def test_review_offline_takes_what_was_missed_on_the_device(portal, browser_factory):
    driver = browser_factory()
    username = "reviewer-" + uuid.uuid4().hex[:8]
    register(driver, portal, username)
    download_exam(driver, portal)
    driver.get(portal.url + "/offline/study?exam=" + EXAM)
    start_offline_session(driver, 6)
    answer_questions(driver, 6)
    missed = store(driver, "exams")[0]["missed"]
    driver.find_element(By.CSS_SELECTOR, "#offline-session button.primary").click()
    wait(driver, lambda d: "(%d due now)" % len(missed) in exam_item(d).text, message="the review count is not shown")

    item = start_offline_session(driver, mode="review")
    if not missed:
        wait(driver, lambda d: "Nothing is due" in item.find_element(By.CSS_SELECTOR, ".exam-status").text)
        return
    # Review takes the questions missed here (the schedule came down with no cards yet).
    answer_questions(driver, len(missed))
    # The answers and then the session's end go up (the end can follow in a later request):
    # done when the device holds neither.
    wait(driver, lambda d: len(store(d, "answers")) == 0 and len(store(d, "sessions")) == 0, timeout=30,
         message="the review answers and the session's end were not uploaded")
    assert portal.sql(
        "SELECT count(*) FROM study_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = '%s' AND s.mode = 'review' "
        "AND s.finished_at IS NOT NULL AND cardinality(s.question_ids) = %d" % (username, len(missed))) == "1"
    assert portal.sql(
        "SELECT count(*) FROM answers a JOIN users u ON u.id = a.user_id WHERE u.username = '%s'" % username) == str(6 + len(missed))


def test_a_new_shell_is_offered_and_never_swapped_under_an_open_page(portal, browser_factory):
    driver = browser_factory()
    driver.get(portal.url + EXAM_PAGE)
    driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), message="the page is not controlled")
    before = driver.execute_async_script("caches.keys().then(arguments[0])")
    assert [name for name in before if name.startswith("portal-shell-")], before

    # A new release of the shell: the same site with a changed script.
    public = tempfile.mkdtemp(prefix="portal-public-")
    shutil.rmtree(public)
    shutil.copytree(os.path.join(ROOT, "Public"), public)
    with open(os.path.join(public, "js", "offline.js"), "a") as script:
        script.write("\n// a new release\n")
    portal.stop()
    portal.start(PUBLIC_DIR=public)
    try:
        driver.execute_script("window.stillTheSamePage = true;")
        driver.execute_async_script("navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => arguments[0](true), () => arguments[0](false));")
        banner = driver.find_element(By.ID, "update-banner")
        wait(driver, lambda d: banner.is_displayed(), message="no 'Reload to update' offered")
        assert "Reload to update" in banner.text
        # Still the old worker and the same page until the student chooses.
        time.sleep(0.5)
        assert driver.execute_script("return window.stillTheSamePage === true")
        waiting = driver.execute_async_script("caches.keys().then(arguments[0])")
        assert set(before) < set(waiting), "the new shell is cached beside the old one while it waits"
        driver.find_element(By.ID, "update-reload").click()
        wait(driver, lambda d: d.execute_script("return window.stillTheSamePage !== true"), message="the page did not reload")
        # The old shell goes; what outlives a shell (bundles, images, the student's language) stays.
        old_shells = {name for name in before if name.startswith("portal-shell-")}
        after = wait(driver, lambda d: (lambda names: names if set(names).isdisjoint(old_shells) else None)(
            d.execute_async_script("caches.keys().then(arguments[0])")), message="the old shell was not removed")
        assert [name for name in after if name.startswith("portal-shell-")]
    finally:
        portal.stop()
        portal.start()
        shutil.rmtree(public, ignore_errors=True)


def test_answers_made_signed_out_wait_for_a_sign_in_and_then_upload(portal, browser_factory):
    # Bundles go to signed-in students only: the exam was downloaded while signed in, then
    # this browser signed out and studied on.
    driver = browser_factory()
    username = "later-" + uuid.uuid4().hex[:8]
    register(driver, portal, username)
    download_exam(driver, portal)
    driver.get(portal.url + "/")
    driver.find_element(By.CSS_SELECTOR, "#logout-form button").click()
    wait(driver, lambda d: not d.find_elements(By.ID, "logout-form"), message="signing out did not happen")
    driver.get(portal.url + "/offline/study")
    start_offline_session(driver, 2)
    answer_questions(driver, 2)
    sync = driver.find_element(By.ID, "offline-sync")
    wait(driver, lambda d: "2 answers are waiting" in sync.text, message="no waiting answers: " + sync.text)
    link = sync.find_element(By.LINK_TEXT, "Sign in to upload your answers.")
    link.click()
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    driver.find_element(By.CSS_SELECTOR, "form.account button[type=submit]").click()
    wait(driver, lambda d: d.current_url.endswith("/offline/study"), message="signing in did not come back to the offline page")
    wait(driver, lambda d: len(store(d, "answers")) == 0, timeout=30, message="the answers were not uploaded after signing in")
    assert portal.sql("SELECT count(*) FROM answers a JOIN users u ON u.id = a.user_id WHERE u.username = '%s'" % username) == "2"


LOAD_IMAGES = """
const [urls, done] = arguments;
Promise.all(urls.map((url) => new Promise((resolve) => {
  const image = document.createElement("img");
  image.alt = "";
  image.onload = () => resolve(image.naturalWidth > 0);
  image.onerror = () => resolve(false);
  image.src = url;
  document.body.appendChild(image);
}))).then(done);
"""


def test_diagrams_of_a_downloaded_exam_show_with_the_server_gone(portal, browser_factory):
    driver = browser_factory()
    register(driver, portal, "diagrams-" + uuid.uuid4().hex[:8])
    download_exam(driver, portal)
    urls = sorted(set(portal.sql(
        "SELECT DISTINCT o->>'imageUrl' FROM questions q JOIN domains d ON d.id = q.domain_id JOIN exams e ON e.id = d.exam_id, "
        "jsonb_array_elements(q.options) o WHERE e.slug = 'network-fundamentals' AND q.status = 'published' "
        "AND o ? 'imageUrl'").split()))
    assert urls, "the exam shows diagrams"

    portal.stop()
    try:
        driver.refresh()
        wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Study offline", message="no offline page from the service worker")
        loaded = driver.execute_async_script(LOAD_IMAGES, urls)
        assert loaded == [True] * len(urls), "every diagram of the downloaded exam shows offline: %r" % list(zip(urls, loaded))
        missing = driver.execute_async_script(LOAD_IMAGES, ["/images/not-in-any-exam.svg"])
        assert missing == [False], "only what the downloaded exams show is kept"
    finally:
        portal.start()

    # Removing the exam frees its images too.
    driver.get(portal.url + EXAM_PAGE)
    wait(driver, expected_conditions.element_to_be_clickable((By.ID, "offline-remove"))).click()
    wait(driver, lambda d: d.execute_async_script(
        "caches.open('portal-images').then((c) => c.keys()).then((k) => arguments[0](k.length))") == 0,
        message="the images were not freed with the exam")


def test_offline_study_in_japanese(portal, browser_factory):
    """A Japanese student's offline page is Japanese: the service worker keeps the shell in every
    language and serves the one the student's pages were in."""
    driver = browser_factory()
    register(driver, portal, "hanako-" + uuid.uuid4().hex[:8])
    driver.get(portal.url + "/language/ja")
    driver.get(portal.url + EXAM_PAGE)
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
    driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    button = wait(driver, expected_conditions.element_to_be_clickable((By.ID, "offline-download")))
    assert button.text == "オフライン用にダウンロード"
    button.click()
    wait(driver, lambda d: "この端末に保存済み" in d.find_element(By.ID, "offline-status").text, timeout=30,
         message="the exam was not downloaded")
    # The page has told the worker its language by now (it does so on every load).
    driver.refresh()
    wait(driver, lambda d: d.find_element(By.ID, "offline-open").is_displayed())

    portal.stop()
    try:
        driver.get(portal.url + "/offline/study")
        wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "オフラインで学習",
             message="the offline page from the service worker is not the Japanese one")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
        start_offline_session(driver, 2)
        wait(driver, lambda d: d.find_element(By.ID, "question-heading").text == "第 1 問（全 2 問）")
        form = driver.find_element(By.ID, "answer-form")
        # Questions come in any kind: an unanswered matching or typed one would be sent back.
        fill_some_answer(form)
        submit = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
        assert submit.text == "解答を確認"
        submit.click()
        verdict = wait(driver, lambda d: d.find_element(By.ID, "verdict"))
        assert verdict.text in ("正解", "不正解")
    finally:
        portal.start()


def test_offline_answers_to_each_newer_kind_are_checked_and_uploaded(portal, browser_factory):
    """A matching, a fill-in and a hotspot question answered offline: the selects, the typed
    answer (with blanks around it) and a click on the diagram, each marked right by the page and
    again by the server after the upload."""
    driver = browser_factory()
    username = "kinds-" + uuid.uuid4().hex[:8]
    register(driver, portal, username)
    download_exam(driver, portal)
    picks = {}
    for kind in ("matching", "fill-in", "hotspot"):
        row = portal.sql(
            "SELECT q.id, q.correct::text, q.details::text, q.options::text FROM questions q JOIN domains d ON d.id = q.domain_id "
            "JOIN exams e ON e.slug = 'network-fundamentals' AND e.id = d.exam_id WHERE q.type = '%s' AND q.status = 'published' "
            "AND NOT q.exam_only ORDER BY q.source_key LIMIT 1" % kind).split("|")
        picks[kind] = {"id": row[0], "correct": json.loads(row[1]), "details": json.loads(row[2]), "options": json.loads(row[3])}

    portal.stop()
    try:
        offline_session_of(driver, [picks[kind]["id"] for kind in ("matching", "fill-in", "hotspot")])
        snapshots = {}
        for number, kind in enumerate(("matching", "fill-in", "hotspot"), start=1):
            wait(driver, lambda d: d.find_element(By.ID, "question-heading").text == "Question %d of 3" % number)
            form = driver.find_element(By.ID, "answer-form")
            question = picks[kind]
            if kind == "matching":
                for index, target in enumerate(question["correct"]):
                    Select(form.find_element(By.ID, "target-%d" % index)).select_by_value(str(target + 1))
            elif kind == "fill-in":
                # An address compared exactly: blanks around it do not count against it.
                form.find_element(By.ID, "typed-answer").send_keys("  " + question["details"]["accepted"][0] + " ")
            else:
                image = form.find_element(By.CSS_SELECTOR, ".hotspot-image")
                wait(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
                coords = question["options"][question["correct"][0]]["region"]["coords"]
                x, y = (coords[0] + coords[2]) / 2, (coords[1] + coords[3]) / 2
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", image)
                box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height, arguments[0].naturalWidth];", image)
                scale = box[0] / box[2]
                ActionChains(driver).move_to_element_with_offset(image, round(x * scale - box[0] / 2), round(y * scale - box[1] / 2)).click().perform()
                point = (form.find_element(By.NAME, "point_x").get_attribute("value"), form.find_element(By.NAME, "point_y").get_attribute("value"))
                picked = form.find_element(By.CSS_SELECTOR, 'input[name=choice][value="%d"]' % question["correct"][0])
                assert picked.is_selected(), "the click at %r (aimed at %r) chose the region it fell in" % (point, (x, y))
                snapshots["offline-hotspot"] = driver.page_source
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            verdict = wait(driver, lambda d: d.find_element(By.ID, "verdict"))
            assert verdict.text == "Right", "%s: %s" % (kind, verdict.text)
            if kind == "hotspot":
                # The feedback outlines the right part on the picture and marks the tap, as online.
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".hotspot-review svg.hotspot-overlay .tap-mark"),
                     message="the offline feedback does not mark the tap on the picture")
                assert driver.find_elements(By.CSS_SELECTOR, ".hotspot-review svg.hotspot-overlay .key-region"), "the offline feedback outlines no right part"
            snapshots["offline-%s-feedback" % kind] = driver.page_source
            driver.find_element(By.ID, "next-link").click()
        problems = html_problems(snapshots)
        assert not problems, "the offline pages of the newer kinds are not valid HTML:\n" + "\n".join(problems)
        outbox = store(driver, "answers")
        shapes = sorted(sorted(answer["response"].keys())[0] if isinstance(answer["response"], dict) else "indexes" for answer in outbox)
        assert shapes == ["pairs", "point", "text"], shapes
    finally:
        portal.start()
    driver.get(portal.url + "/")
    wait(driver, lambda d: len(store(d, "answers")) == 0, timeout=30, message="the outbox was not emptied")
    # This student's answers (other tests on the same site may answer the same questions).
    stored = portal.sql(
        "SELECT string_agg(a.correct::text, ',') FROM answers a JOIN users u ON u.id = a.user_id WHERE u.username = '%s' AND a.question_id IN ('%s')"
        % (username, "','".join(q["id"] for q in picks.values())))
    assert stored == "true,true,true", "the server agrees with every verdict: %s" % stored


def test_a_session_ended_while_its_last_answer_uploads_still_goes_up(portal, browser_factory):
    """The session's end is stored while the upload of its last answer is still under way (a
    slow connection): the run under way looks at the outbox again when it is through."""
    driver = browser_factory()
    username = "slowpoke-" + uuid.uuid4().hex[:8]
    register(driver, portal, username)
    download_exam(driver, portal)
    driver.get(portal.url + "/offline/study?exam=" + EXAM)
    wait(driver, lambda d: d.execute_script("return !!window.PortalOffline"))
    driver.execute_script("""
        const original = window.fetch;
        window.fetch = function (url, options) {
          if (String(url).indexOf("/api/progress") < 0) return original(url, options);
          return new Promise((done) => setTimeout(done, 1500)).then(() => original(url, options));
        };
    """)
    start_offline_session(driver, 2)
    answer_questions(driver, 2)
    wait(driver, lambda d: len(store(d, "answers")) == 0 and len(store(d, "sessions")) == 0, timeout=20,
         message="the session's end stayed on the device")
    assert portal.sql(
        "SELECT count(*) FROM study_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = '%s' AND s.finished_at IS NOT NULL"
        % username) == "1"


def test_the_offline_renderer_builds_the_servers_markup_from_each_tree(portal, browser_factory):
    """The shared rows QuestionEngine's tests render in Swift, built by the offline page's
    renderer with createElement: each the same DOM as the server's markup parsed."""
    with open(os.path.join(ROOT, "Tests", "Fixtures", "rich-text-rendering.json")) as fixture:
        rows = json.load(fixture)
    driver = browser_factory()
    driver.get(portal.url + "/offline/study")
    wait(driver, lambda d: d.execute_script("return !!window.PortalRichText"))
    outcomes = driver.execute_script("""
        return arguments[0].map((row) => {
          const built = document.createElement("div");
          built.appendChild(PortalRichText.blocks(row.tree));
          const expected = document.createElement("template");
          expected.innerHTML = row.html;
          const parsed = document.createElement("div");
          parsed.appendChild(expected.content);
          return { name: row.name, equal: built.isEqualNode(parsed), built: built.innerHTML,
                   scripts: built.querySelectorAll("script, [onerror], [onclick]").length };
        });
    """, rows)
    assert len(outcomes) == len(rows) >= 7
    for row, outcome in zip(rows, outcomes):
        assert outcome["equal"], (row["name"], row["html"], outcome["built"])
        assert outcome["scripts"] == 0, row["name"]


def test_an_ordering_question_is_answered_by_dragging_its_items(portal, browser_factory):
    """Offline, a student drags an ordering question's steps into the key's order by their
    handles (no position typed): the position fields follow the list, and the answer is right."""
    driver = browser_factory()
    register(driver, portal, "dragger-" + uuid.uuid4().hex[:8])
    download_exam(driver, portal)
    row = portal.sql(
        "SELECT q.id, q.correct::text FROM questions q JOIN domains d ON d.id = q.domain_id JOIN exams e ON e.slug = 'network-fundamentals' "
        "AND e.id = d.exam_id WHERE q.type = 'ordering' AND q.status = 'published' AND NOT q.exam_only "
        "AND jsonb_array_length(q.options) >= 4 ORDER BY q.source_key LIMIT 1").split("|")
    question_id, key = row[0], json.loads(row[1])
    portal.stop()
    try:
        offline_session_of(driver, [question_id])
        form = wait(driver, lambda d: d.find_element(By.ID, "answer-form"))
        assert "Drag the items" in form.find_element(By.CSS_SELECTOR, ".hint").text
        def drag_above(moving, target):
            height = target.size["height"]
            ActionChains(driver).click_and_hold(moving.find_element(By.CSS_SELECTOR, ".drag-handle")) \
                .move_to_element_with_offset(target, 0, -height // 2 + 3).move_to_element_with_offset(target, 0, -height // 2 + 2) \
                .release().perform()

        # The last item to the top first, so the list is never already in the key's order.
        items = form.find_elements(By.CSS_SELECTOR, "ul.ordering > li")
        drag_above(items[-1], items[0])
        assert form.find_elements(By.CSS_SELECTOR, "ul.ordering > li")[0] == items[-1], "the last item was not dragged to the top"
        # Then each step of the key, in turn, dragged above the item now at its place.
        for place, option in enumerate(key):
            items = form.find_elements(By.CSS_SELECTOR, "ul.ordering > li")
            moving = form.find_element(By.ID, "position-%d" % option).find_element(By.XPATH, "..")
            if items.index(moving) == place:
                continue
            drag_above(moving, items[place])
        order = driver.execute_script(
            "return [...document.querySelectorAll('#answer-form ul.ordering > li select')].map(s => [parseInt(s.id.split('-')[1]), s.value])")
        assert [option for option, _ in order] == key, "the list is %r, the key %r" % (order, key)
        assert [value for _, value in order] == [str(place + 1) for place in range(len(key))], "the position fields do not follow the list: %r" % order
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        assert wait(driver, lambda d: d.find_element(By.ID, "verdict")).text == "Right"
    finally:
        portal.start()


def test_an_answer_sent_with_no_connection_is_kept_and_arrives_once_back(portal, browser_factory):
    """An ordinary session (not offline study): the connection goes as the student presses
    "Check answer". The service worker shows the offline page saying the answer is kept, and
    the answer arrives, once, when a page loads with the site back."""
    driver = browser_factory()
    register(driver, portal, "tunnel-" + uuid.uuid4().hex[:8])
    driver.get(portal.url + EXAM_PAGE)
    driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    driver.refresh()  # now controlled by the worker
    wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), message="the page has no service worker")
    driver.find_element(By.CSS_SELECTOR, 'form.quick-start button[name=mode][value=practice]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "answer-form"), message="no question")
    session_id = driver.current_url.split("?")[0].rsplit("/", 1)[1]
    fill_some_answer(driver.find_element(By.ID, "answer-form"))

    portal.stop()
    driver.find_element(By.CSS_SELECTOR, "#answer-form button.primary").click()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Study offline", message="the browser's error page, not the offline page")
    notice = driver.find_element(By.ID, "offline-pending")
    assert notice.is_displayed() and "kept on this device" in notice.text, notice.text
    again = driver.find_element(By.CSS_SELECTOR, "#offline-elsewhere a").get_attribute("href")
    assert again.endswith("/sessions/" + session_id), "'Try again' leads to %s, not the session" % again
    kept = json.loads(driver.execute_script("return localStorage.getItem('portal-pending-answers')") or "[]")
    assert len(kept) == 1 and kept[0]["action"] == "/sessions/%s/answers" % session_id, kept

    portal.start()
    driver.get(portal.url + "/me")
    wait(driver, lambda d: d.execute_script("return localStorage.getItem('portal-pending-answers')") is None, timeout=30,
         message="the kept answer was not sent")
    assert portal.sql("SELECT count(*) FROM answers WHERE session_id = '%s'" % session_id) == "1"
    # Sent again (its reply lost, say): still one answer.
    driver.execute_script("localStorage.setItem('portal-pending-answers', arguments[0])", json.dumps(kept))
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return localStorage.getItem('portal-pending-answers')") is None, timeout=30)
    assert portal.sql("SELECT count(*) FROM answers WHERE session_id = '%s'" % session_id) == "1"
