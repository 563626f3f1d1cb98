"""A student's study rhythm in Chromium, and the calendar feed as a calendar application reads it:
the student chooses their study time and a day off, makes a calendar address, and the feed opens
in the `icalendar` library with one event for each day with reviews (at the study time, with an
alarm) and the exam day; it revalidates with its ETag, and a new address ends the old one."""

import datetime
import urllib.error
import urllib.request
import uuid

import icalendar
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from conftest import register, wait
from test_accounts import axe_violations, fits_a_phone
from test_layout import Inspector


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_a_students_calendar_feed_opens_in_a_real_icalendar_parser(portal, browser_factory):
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    student = "cal-" + uuid.uuid4().hex[:8]
    register(driver, portal, student)
    user = portal.sql("SELECT id FROM users WHERE username = '%s'" % student)
    # A practice history (each question answered "easy" a few days ago, so due again within
    # the next week or so) and an exam in three weeks; the cards are made from the history.
    portal.sql("""
        ALTER TABLE study_sessions DISABLE TRIGGER USER; ALTER TABLE answers DISABLE TRIGGER USER;
        ALTER TABLE study_sessions NO FORCE ROW LEVEL SECURITY; ALTER TABLE answers NO FORCE ROW LEVEL SECURITY;
        INSERT INTO study_sessions (id, user_id, exam_id, mode, question_ids, started_at, finished_at, score_correct, score_percent, passed)
        SELECT gen_random_uuid(), '%(user)s', q.exam_id, 'practice', ARRAY[q.id], q.at, q.at + interval '1 minute', 1, 100, true
        FROM (SELECT id, exam_id, now() - (2 + row_number() OVER (ORDER BY id) %% 4) * interval '1 day' AS at
              FROM questions WHERE type = 'single-choice' ORDER BY id LIMIT 12) AS q;
        INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at, received_at, difficulty)
        SELECT gen_random_uuid(), s.id, s.user_id, s.question_ids[1], 1, '[0]', true, 1, 4, 15000, s.started_at, s.started_at, 3
        FROM study_sessions s WHERE s.user_id = '%(user)s';
        ALTER TABLE study_sessions ENABLE TRIGGER USER; ALTER TABLE answers ENABLE TRIGGER USER;
        ALTER TABLE study_sessions FORCE ROW LEVEL SECURITY; ALTER TABLE answers FORCE ROW LEVEL SECURITY;
        INSERT INTO exam_dates (user_id, exam_id, sits_on, set_at)
        SELECT '%(user)s', e.id, current_date + 21, now() FROM exams e ORDER BY e.id LIMIT 1;
        SELECT review_cards_rebuild('%(user)s');
        """ % {"user": user})
    assert portal.sql("SELECT count(*) FROM review_cards WHERE user_id = '%s' AND due > now()" % user) == "12"

    # The week: 07:30, Sundays off.
    driver.get(portal.url + "/me/rhythm")
    study_time = driver.find_element(By.ID, "study-time")
    driver.execute_script("arguments[0].value = '07:30'", study_time)
    Select(driver.find_element(By.ID, "day7")).select_by_value("x")
    driver.find_element(By.CSS_SELECTOR, 'form[action="/me/rhythm"] button[type=submit]').click()
    wait(driver, lambda d: "saved=week" in d.current_url, message="the week was not saved")
    assert "Your reviews have been rescheduled to fit your week." in driver.page_source
    assert portal.sql("SELECT count(*) FROM review_cards WHERE user_id = '%s'" % user) == "12"
    sundays = portal.sql("SELECT count(*) FROM review_cards WHERE user_id = '%s' AND extract(isodow FROM due) = 7" % user)
    assert sundays == "0"
    inspector.check("study rhythm", "/me/rhythm")

    # A calendar address, shown once, with its QR code.
    driver.find_element(By.CSS_SELECTOR, 'form[action="/me/calendar"] button[type=submit]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "feed-address"), message="no calendar address")
    address = driver.find_element(By.ID, "feed-address").get_attribute("value")
    subscribe = driver.find_element(By.CSS_SELECTOR, ".feed-made a.button").get_attribute("href")
    assert address.startswith(portal.url + "/calendar/") and address.endswith(".ics")
    assert subscribe == "webcal://" + address.split("://", 1)[1]
    assert driver.find_elements(By.CSS_SELECTOR, ".feed-made svg")
    assert fits_a_phone(driver)
    assert axe_violations(inspector) == []

    status, headers, body = fetch(address)
    assert status == 200 and headers["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(body)
    assert str(calendar["VERSION"]) == "2.0" and "PRODID" in calendar
    events = [component for component in calendar.walk("VEVENT")]
    reviews = [event for event in events if str(event["SUMMARY"]).startswith("Review ")]
    exams = [event for event in events if str(event["SUMMARY"]).startswith("Exam: ")]
    assert sum(int(str(event["SUMMARY"]).split()[1]) for event in reviews) == 12, [str(e["SUMMARY"]) for e in reviews]
    for event in reviews:
        start = event.decoded("DTSTART")
        assert (start.hour, start.minute) == (7, 30), start  # the student's time zone is UTC
        assert start.weekday() != 6, "nothing on a Sunday"
        assert event.decoded("DTEND") > start
        assert [alarm for alarm in event.walk("VALARM") if str(alarm["ACTION"]) == "DISPLAY"]
        assert str(event["URL"]).endswith("/me")
    assert len(exams) == 1
    exam_day = exams[0].decoded("DTSTART")
    assert isinstance(exam_day, datetime.date) and not isinstance(exam_day, datetime.datetime)
    assert exam_day == datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=21)
    assert len({str(event["UID"]) for event in events}) == len(events)

    # Polled again: the same text and a 304 for its ETag.
    status, again, _ = fetch(address, {"If-None-Match": headers["ETag"]})
    assert status == 304 and again["ETag"] == headers["ETag"]
    assert fetch(address, {"If-Modified-Since": headers["Last-Modified"]})[0] == 304

    # A new address ends the old one.
    driver.get(portal.url + "/me/rhythm")
    driver.find_element(By.CSS_SELECTOR, 'form[action="/me/calendar"] button[type=submit]').click()
    wait(driver, lambda d: d.find_elements(By.ID, "feed-address"), message="no new calendar address")
    fresh = driver.find_element(By.ID, "feed-address").get_attribute("value")
    assert fresh != address
    assert fetch(address)[0] == 404
    assert fetch(fresh)[0] == 200
    assert inspector.problems == [], "\n".join(inspector.problems)
