"""Every role's pages on a phone and on a desktop screen, in a real Chromium.

A visitor, a student, a teacher and an admin each go through the pages they can reach; each
page is loaded at 390 x 844 (a phone) in the light colour scheme and at 1280 x 800 in the dark
one (the browser told the device prefers dark). On each: the page is no wider than the screen
(nothing to scroll sideways, nothing off the right edge), it is drawn in the scheme asked for, and
axe-core (4.12, the script that ships inside the axe-playwright-python package, injected through
Selenium) finds no violation of any rule, colour contrast included.
"""

import importlib.util
import os
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import fill_some_answer, register, sign_in, wait

EXAM_PAGE = "/exams/europe/network-fundamentals"
VIEWPORTS = [(390, 844, True, "light"), (1280, 800, False, "dark")]

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (result) => done(result.violations.map((v) => ({
    id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n").slice(0, 2).join(" ")),
  }))),
  (error) => done([{id: "axe-error", impact: "critical", nodes: [String(error)]}]));
"""


def axe_source():
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec, "axe-playwright-python is missing: scripts/browser-env.sh installs it"
    with open(os.path.join(spec.submodule_search_locations[0], "axe.min.js")) as script:
        return script.read()


# Words split across lines: in a table of a question (a cell breaks between words and the table
# scrolls), and anywhere in a Thai page (its dictionary decides where words end). A word wider
# than its whole box may break; any other is split only by a wrong rule (`overflow-wrap:
# anywhere` squeezing a cell, a Thai word broken mid-way). Words as Intl.Segmenter finds them.
BROKEN_WORDS = """
const found = [];
const thai = document.documentElement.lang === 'th';
const boxes = Array.from(document.querySelectorAll(thai ? 'main *, header *, nav *' : '.rich td, .rich th'));
for (const box of boxes) {
  const width = box.clientWidth;
  for (const node of box.childNodes) {
    if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim() || found.length >= 5) continue;
    const language = (node.parentElement.closest('[lang]') || document.documentElement).lang || 'en';
    for (const piece of new Intl.Segmenter(language, {granularity: 'word'}).segment(node.textContent)) {
      if (!piece.isWordLike) continue;
      const range = document.createRange();
      range.setStart(node, piece.index);
      range.setEnd(node, piece.index + piece.segment.length);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      const natural = rects.reduce((sum, r) => sum + r.width, 0);
      if (lines.size > 1 && natural < width) found.push(piece.segment);
    }
  }
}
return found.slice(0, 5);
"""


class Inspector:
    """Loads pages at each screen size and writes down what is wrong with them."""

    def __init__(self, driver, portal):
        self.driver = driver
        self.portal = portal
        self.axe = axe_source()
        self.problems = []
        self.seen = 0

    def check(self, name, path=None):
        """Checks `path` (or the page on screen, reloaded) at both sizes."""
        url = self.portal.url + path if path else self.driver.current_url
        for width, height, mobile, scheme in VIEWPORTS:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            self.driver.get(url)
            wait(self.driver, lambda d: d.execute_script("return document.readyState") == "complete")
            where = "%s (%s) at %dpx, %s" % (name, url[len(self.portal.url):], width, scheme)
            drawn = self.driver.execute_script("return getComputedStyle(document.documentElement).colorScheme")
            if drawn != scheme:
                self.problems.append("%s: drawn in the %s scheme" % (where, drawn))
            widths = self.driver.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth]")
            if widths[0] > widths[1]:
                wide = self.driver.execute_script("""
                    const limit = window.innerWidth;
                    return Array.from(document.querySelectorAll('body *'))
                      .filter((e) => e.getBoundingClientRect().right > limit + 1 && !e.closest('.table-wrap'))
                      .slice(0, 3).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : ''));
                """)
                self.problems.append("%s: the page is %dpx wide (%s)" % (where, widths[0], ", ".join(wide)))
            if mobile:
                # Data tables stack into a card per row on a phone: nothing in them scrolls
                # sideways, and each cell shows the name of its column.
                stacked = self.driver.execute_script("""
                    return Array.from(document.querySelectorAll('table.stacks')).map((t) => {
                      const box = t.closest('.table-wrap') || t.parentElement;
                      const cell = t.querySelector('td[data-label]');
                      const label = cell ? getComputedStyle(cell, '::before').content : 'none';
                      return [t.querySelector('caption') ? t.querySelector('caption').textContent.trim() : '', box.scrollWidth - box.clientWidth,
                              cell ? label !== 'none' && label.length > 2 : true];
                    });
                """)
                for caption, overflow, labelled in stacked:
                    if overflow > 1:
                        self.problems.append("%s: the table %r scrolls %dpx sideways on a phone" % (where, caption, overflow))
                    if not labelled:
                        self.problems.append("%s: the stacked table %r shows no column names" % (where, caption))
                for broken in self.driver.execute_script(BROKEN_WORDS):
                    self.problems.append("%s: %r is broken across lines inside a word" % (where, broken))
            self.driver.execute_script(self.axe)
            for violation in self.driver.execute_async_script(RUN_AXE):
                self.problems.append("%s: axe %s (%s): %s" % (where, violation["id"], violation["impact"], "; ".join(violation["nodes"])))
            self.seen += 1
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def submit(self, selector):
        """Submits the form whose button matches `selector` on the page on screen."""
        before = self.driver.current_url
        button = self.driver.find_element(By.CSS_SELECTOR, selector)
        # In the middle of the screen, as a person would have it: not under a phone's tab bar.
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        wait(self.driver, lambda d: d.current_url != before, message="submitting %s went nowhere" % selector)
        return self.driver.current_url


def start_session(inspector, mode, domain=None):
    """Starts a session of three questions from the exam page, in one domain when `domain` names it."""
    driver = inspector.driver
    driver.get(inspector.portal.url + EXAM_PAGE)
    # The choices are folded under the page's ways to start.
    driver.find_element(By.CSS_SELECTOR, "details.start-options > summary").click()
    choice = driver.find_element(By.CSS_SELECTOR, 'form.start[action="/sessions"] input[name=mode][value="%s"]' % mode)
    choice.click()
    if domain:
        for box in choice.find_element(By.XPATH, "ancestor::form").find_elements(By.CSS_SELECTOR, "input[name=domain]"):
            if box.is_selected() != (box.get_attribute("value") == domain):
                box.click()
    count = driver.find_element(By.ID, "question-count")
    count.clear()
    count.send_keys("3")
    return inspector.submit('form.start[action="/sessions"] button[type=submit]')


def answer_first_option(inspector):
    driver = inspector.driver
    fill_some_answer(driver.find_element(By.ID, "answer-form"))
    return inspector.submit("#answer-form button.primary")


def test_every_role_s_pages_fit_a_phone_and_pass_axe(portal, browser_factory):
    driver = browser_factory()
    inspector = Inspector(driver, portal)

    # A visitor: the catalogue, an exam, its board, the account forms, offline study, a guest's
    # question, a page that does not exist.
    for name, path in [("home", "/"), ("exam page", EXAM_PAGE), ("leaderboard", EXAM_PAGE + "/leaderboard"),
                       ("sign-in", "/login"), ("registration", "/register"), ("offline study", "/offline/study"),
                       ("not found", "/exams/nowhere/nothing")]:
        inspector.check("visitor " + name, path)
    guest_question = start_session(inspector, "practice")
    inspector.check("guest question", guest_question[len(portal.url):])

    # A student: dashboard, settings, classes, an exam, practice with its feedback and results,
    # a mock exam.
    driver.delete_all_cookies()
    student = "student-" + uuid.uuid4().hex[:8]
    register(driver, portal, student)
    for name, path in [("home", "/"), ("dashboard", "/me"), ("review", "/me/review"), ("settings", "/me/settings"),
                       ("classes", "/me/classes"), ("exam page", EXAM_PAGE), ("leaderboard", EXAM_PAGE + "/leaderboard")]:
        inspector.check("student " + name, path)
    practice = start_session(inspector, "practice")
    inspector.check("practice question", practice[len(portal.url):])
    feedback = answer_first_option(inspector)
    focused = driver.execute_script("return document.activeElement && document.activeElement.id")
    assert focused == "verdict", "after an answer the focus is on %r, not the feedback's heading" % focused
    inspector.check("practice feedback", feedback[len(portal.url):])
    session = practice[len(portal.url):].split("?")[0]
    inspector.check("finish page", session + "/finish")
    driver.get(portal.url + session + "/finish")
    results = inspector.submit("form[action$='/finish'] button[type=submit]")
    inspector.check("results", results[len(portal.url):])
    # With something studied: the dashboard's table of weeks, the review page's chart and its table.
    inspector.check("dashboard after study", "/me")
    inspector.check("review after study", "/me/review")
    assert driver.find_elements(By.CSS_SELECTOR, 'svg.chart[role="img"] title'), "the review page charts the next 30 days"
    # On a phone the next step is in the first screen: the dashboard's "Review N" and the review
    # page's button for the exam, above the tab bar.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    for path, selector in [("/me", 'main a.button.primary[href="/me/review"]'), ("/me/review", "main .due-list button.primary")]:
        driver.get(portal.url + path)
        bottom, bar = driver.execute_script(
            "return [document.querySelector(arguments[0]).getBoundingClientRect().bottom, document.querySelector('nav.tab-bar').getBoundingClientRect().top]",
            selector)
        assert 0 < bottom <= bar, "%s: the way to review ends at %s px, below the first screen (the bar starts at %s)" % (path, bottom, bar)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    mock = start_session(inspector, "mock")
    inspector.check("mock question", mock[len(portal.url):])
    # The question grid is one Tab stop (the current question's number); arrows move in it.
    driver.get(mock)
    stops = driver.find_elements(By.CSS_SELECTOR, '.question-grid a:not([tabindex="-1"])')
    assert len(stops) == 1 and stops[0].get_attribute("aria-current") == "page", "the grid has %d Tab stops" % len(stops)
    stops[0].send_keys(Keys.ARROW_RIGHT)
    moved = driver.execute_script("return document.activeElement.textContent.trim()")
    assert moved.startswith("2"), "the right arrow went to %r, not question 2" % moved
    # On a phone an exam page's first screen holds its way to start.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.get(portal.url + EXAM_PAGE)
    # A signed-in reader's main destinations are in the bar at the foot of a phone's screen, and
    # the header above keeps to a few lines.
    bar_top, bar_bottom = driver.execute_script("const r = document.querySelector('nav.tab-bar').getBoundingClientRect(); return [r.top, r.bottom]")
    assert bar_bottom == 844 and 844 - 80 <= bar_top < 844, "the tab bar is at %s..%s px" % (bar_top, bar_bottom)
    tabs = [a.get_attribute("href")[len(portal.url):] for a in driver.find_elements(By.CSS_SELECTOR, "nav.tab-bar a")]
    assert tabs == ["/", "/me/review", "/me", "/me/classes", "/me/settings"], tabs
    # The bar marks where the reader is: an exam page is under Study.
    current = [a.get_attribute("href")[len(portal.url):] for a in driver.find_elements(By.CSS_SELECTOR, 'nav.tab-bar a[aria-current="page"]')]
    assert current == ["/"], "on an exam page the bar marks %s" % current
    header = driver.execute_script("return document.querySelector('.site-header').getBoundingClientRect().height")
    assert header <= 110, "the header takes %s px of a phone's 844" % header
    bottom = driver.execute_script(
        "return document.querySelector('form.quick-start button[value=practice]').getBoundingClientRect().bottom")
    assert 0 < bottom <= bar_top, "the exam page's Practise button is at %s px, below the first screen" % bottom
    # The mock exam's clock stays in sight when the question scrolls on a phone.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 500, "deviceScaleFactor": 1, "mobile": True})
    driver.get(mock)
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    scrolled, top = driver.execute_script(
        "return [window.scrollY, document.getElementById('countdown').getBoundingClientRect().top]")
    assert scrolled > 200, "the mock question is taller than the screen (scrolled %s px)" % scrolled
    assert 0 <= top < 120, "the countdown scrolled out of sight: its top is at %s px" % top
    # The timer folds away and stays folded on the next question.
    driver.execute_script("window.scrollTo(0, 0)")
    driver.find_element(By.CSS_SELECTOR, "details.timer summary").click()
    assert not driver.find_element(By.ID, "countdown").is_displayed(), "the timer did not fold away"
    session = mock.split("?")[0]
    driver.get(session + "?q=2")
    assert not driver.find_element(By.ID, "countdown").is_displayed(), "the folded timer came back on the next question"
    driver.find_element(By.CSS_SELECTOR, "details.timer summary").click()
    assert driver.find_element(By.ID, "countdown").is_displayed()
    # Question 2 flagged; the review screen's flagged list jumps back to it.
    flag = driver.find_element(By.ID, "flag-button")
    # In the middle of the screen, as a person would have it: not under a phone's tab bar.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", flag)
    flag.click()
    wait(driver, lambda d: "Remove the flag" in d.find_element(By.ID, "flag-button").text, message="flagging question 2 did not take")
    driver.get(session + "/finish")
    def tap(element):
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
    tap(driver.find_element(By.CSS_SELECTOR, 'a[href$="/finish?show=flagged"]'))
    wait(driver, lambda d: d.current_url.endswith("show=flagged"), message="the flagged list did not open")
    rows = driver.find_elements(By.CSS_SELECTOR, ".review-list a")
    assert len(rows) == 1, "the flagged list holds %d questions" % len(rows)
    tap(rows[0])
    wait(driver, lambda d: d.current_url.endswith("?q=2"), message="the review screen did not jump to the flagged question")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    inspector.check("the review screen", session[len(portal.url):] + "/finish")
    inspector.check("the review screen's flagged list", session[len(portal.url):] + "/finish?show=flagged")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # Rich questions: a routing question's exhibit, table and listing; a formula question's
    # MathML, inline and displayed. Each fits the phone (wide ones scroll in their boxes).
    for domain, mark in [("routing-tables", "figure.exhibit img"), ("window-size", "math")]:
        question = start_session(inspector, "practice", domain)
        inspector.check("practice " + domain, question[len(portal.url):])
        assert driver.find_elements(By.CSS_SELECTOR, mark), "%s shows %s" % (domain, mark)
        feedback = answer_first_option(inspector)
        inspector.check("feedback " + domain, feedback[len(portal.url):])

    # A hotspot question on a phone: the picture takes the screen's width; a tap outside every
    # part of it is asked again (said beside it, nothing sent); a tap on a part answers, and the
    # feedback draws the right part and the tap on the picture.
    question = start_session(inspector, "practice", "network-diagrams")
    inspector.check("hotspot question", question[len(portal.url):])
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.get(question)
    image = driver.find_element(By.CSS_SELECTOR, "#answer-form .hotspot-image")
    wait(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    shown = driver.execute_script("return arguments[0].getBoundingClientRect().width", image)
    assert shown >= 320, "the hotspot picture is %s px wide on a 390 px phone" % shown
    TAP = """
        const image = arguments[0], rect = image.getBoundingClientRect(), x = arguments[1], y = arguments[2];
        image.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: rect.left + x * rect.width / image.naturalWidth,
                                                     clientY: rect.top + y * rect.height / image.naturalHeight}));
    """
    outside = driver.execute_script("""
        const image = arguments[0], regions = JSON.parse(image.closest('.hotspot').dataset.regions);
        const corners = [[1, 1], [image.naturalWidth - 1, 1], [1, image.naturalHeight - 1], [image.naturalWidth - 1, image.naturalHeight - 1]];
        return corners.find(([x, y]) => PortalAnswerCheck.regionAt(regions.map((region) => ({region})), x, y) === -1);
    """, image)
    assert outside, "every corner of the picture is inside a part"
    driver.execute_script(TAP, image, *outside)
    miss = driver.find_element(By.CSS_SELECTOR, ".hotspot-miss[role=status]").text
    assert "outside every part of the picture" in miss, miss
    assert driver.execute_script("return document.querySelector('#answer-form [name=point_x]').value") == ""
    centre = driver.execute_script("""
        const region = JSON.parse(arguments[0].closest('.hotspot').dataset.regions)[0], c = region.coords;
        if (region.shape === 'rect') return [(c[0] + c[2]) / 2, (c[1] + c[3]) / 2];
        if (region.shape === 'circle') return [c[0], c[1]];
        const xs = c.filter((_, i) => i % 2 === 0), ys = c.filter((_, i) => i % 2 === 1);
        return [xs.reduce((a, b) => a + b) / xs.length, ys.reduce((a, b) => a + b) / ys.length];
    """, image)
    driver.execute_script(TAP, image, *centre)
    assert not driver.find_elements(By.CSS_SELECTOR, ".hotspot-miss"), "the message stays after a tap on a part"
    assert driver.find_element(By.CSS_SELECTOR, '#answer-form input[name=choice][value="0"]').is_selected()
    feedback = inspector.submit("#answer-form button.primary")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".hotspot-review svg.hotspot-overlay .tap-mark"),
         message="the feedback marks no tap on the picture")
    assert driver.find_elements(By.CSS_SELECTOR, ".hotspot-review svg.hotspot-overlay .key-region"), "the feedback outlines no right part"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    inspector.check("hotspot feedback", feedback[len(portal.url):])

    # The student chooses the dark scheme on a device set to light: their pages are drawn dark
    # (and pass axe so); then back to following the device.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    for choice, expected in [("dark", "dark"), ("device", "light")]:
        driver.get(portal.url + "/me/settings")
        driver.find_element(By.CSS_SELECTOR, 'input[name=color_scheme][value="%s"]' % choice).click()
        inspector.submit('form.settings-form .save-all button[type=submit]')
        driver.get(portal.url + "/me")
        drawn = driver.execute_script("return getComputedStyle(document.documentElement).colorScheme")
        assert drawn == expected, "with %s chosen the dashboard is drawn %s" % (choice, drawn)
        if choice == "dark":
            driver.execute_script(inspector.axe)
            assert not driver.execute_async_script(RUN_AXE), "axe on the dashboard in the chosen dark scheme"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    # A teacher: their classes, a class, a share link made, the live event form.
    driver.delete_all_cookies()
    teacher = "teacher-" + uuid.uuid4().hex[:8]
    register(driver, portal, teacher)
    portal.sql("SET ROLE portal_auth; UPDATE users SET role = 'teacher' WHERE username = '%s'" % teacher)
    driver.delete_all_cookies()
    sign_in(driver, portal, teacher, "a long enough password")
    inspector.check("teacher's classes", "/teach")
    driver.get(portal.url + "/teach")
    driver.find_element(By.ID, "class-name").send_keys("Year 10 networking")
    class_page = inspector.submit('form[action="/teach/classes"] button[type=submit]')
    inspector.check("class page", class_page[len(portal.url):])
    inspector.check("teacher exam page", EXAM_PAGE)
    driver.get(portal.url + EXAM_PAGE)
    driver.find_element(By.ID, "share-title").send_keys("Homework")
    inspector.submit('form[action="/teach/links"] button[type=submit]')
    inspector.check("teacher dashboard", "/me")
    # A live event before it starts: the host's page, the projector and the players' join page
    # (nothing moves on until the host starts it, so nothing reloads under the checks).
    driver.get(portal.url + "/live/new")
    driver.find_element(By.ID, "live-title").send_keys("Friday quiz")
    host_page = inspector.submit('form[action="/live"] button[type=submit]')[len(portal.url):]
    inspector.check("live host page", host_page)
    code = host_page.split("/")[2]
    assert driver.find_element(By.ID, "live-code").text == code, "the host page is the event's (Redis reachable)"
    inspector.check("live projector", "/live/%s/screen" % code)
    assert driver.find_elements(By.CSS_SELECTOR, "svg.qr"), "the projector shows the QR code"
    assert not driver.find_elements(By.CSS_SELECTOR, ".site-header"), "the projector has no site menu"
    inspector.check("live join page", "/live/%s" % code)

    # An admin: every part of the dashboard and a question's editor.
    driver.delete_all_cookies()
    sign_in(driver, portal, *portal.ADMIN)
    for name, path in [("overview", "/admin"), ("questions", "/admin/questions"), ("import", "/admin/import"),
                       ("reports", "/admin/reports"), ("audit log", "/admin/audit"), ("new question", "/admin/questions/new"),
                       ("users", "/admin/users"), ("exams", "/admin/exams"), ("an exam's blueprint", "/admin/exams/europe/network-fundamentals"),
                       ("teachers", "/admin/teachers"), ("drafts", "/admin/questions?status=draft")]:
        inspector.check("admin " + name, path)
    # An import's dry run: what the file would do, and the choice of drafts or published.
    driver.get(portal.url + "/admin/import")
    driver.find_element(By.ID, "import-text").send_keys("::Checked:: Which port does SSH use? {=22 ~23 ~25}\n")
    Select(driver.find_element(By.ID, "import-into")).select_by_value("europe/network-fundamentals")
    driver.find_element(By.ID, "import-domain").send_keys("ports")
    checked = inspector.submit('form[action="/admin/import"] button[type=submit]')
    assert "/admin/import/" in checked, "the import went to %s, not its check" % checked
    inspector.check("an import's dry run", checked[len(portal.url):])
    # The editor shows the chosen kind's fields only, and the new kind's at once when the type changes.
    driver.get(portal.url + "/admin/questions/new")
    Select(driver.find_element(By.ID, "q-type")).select_by_value("hotspot")
    assert driver.find_element(By.ID, "q-hotspot-image").is_displayed(), "a hotspot question's picture field is hidden"
    Select(driver.find_element(By.ID, "q-type")).select_by_value("single-choice")
    assert not driver.find_element(By.ID, "q-hotspot-image").is_displayed(), "a single-choice question shows a hotspot's picture field"
    driver.get(portal.url + "/admin/questions")
    editor = driver.find_element(By.CSS_SELECTOR, "table a[href^='/admin/questions/']").get_attribute("href")
    inspector.check("question editor", editor[len(portal.url):])
    # A question with a code block, whose long lines scroll (the region takes the focus).
    driver.get(portal.url + "/admin/questions?type=code-snippet")
    code_question = driver.find_element(By.CSS_SELECTOR, "table a[href^='/admin/questions/']").get_attribute("href")
    inspector.check("code question", code_question[len(portal.url):])

    assert inspector.seen >= 50
    assert not inspector.problems, "\n".join(inspector.problems)


# Each interface language with an exam written in it: long German words, Thai without spaces,
# Chinese and Japanese without either.
LANGUAGE_EXAMS = [("ja", "/exams/asia-pacific/database-kiso"), ("th", "/exams/asia-pacific/phuenthan-khruea-khai"),
                  ("de", "/exams/europe/netzwerkgrundlagen"), ("zh", "/exams/asia-pacific/wangluo-jichu"),
                  ("es", "/exams/europe/fundamentos-de-redes"), ("it", "/exams/europe/programmazione-python")]


def test_pages_in_every_language_fit_a_phone_and_pass_axe(portal, browser_factory):
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    register(driver, portal, "polyglot-" + uuid.uuid4().hex[:8])
    for language, exam in LANGUAGE_EXAMS:
        driver.get(portal.url + "/language/" + language)
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang").split("-")[0] == language
        for name, path in [("home", "/"), ("exam page", exam), ("dashboard", "/me"), ("settings", "/me/settings")]:
            inspector.check("%s %s" % (language, name), path)
        driver.get(portal.url + exam)
        question = inspector.submit('form.quick-start button[value="practice"]')
        inspector.check("%s question" % language, question[len(portal.url):])
        feedback = answer_first_option(inspector)
        inspector.check("%s feedback" % language, feedback[len(portal.url):])
    assert not inspector.problems, "\n".join(inspector.problems)


def test_the_design_page_fits_a_phone_and_passes_axe_in_both_schemes(portal, browser_factory):
    """`/design` (development mode only) renders every token and component: it must itself keep
    the rules it shows — no sideways scroll on a phone, axe clean in the light and dark schemes."""
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    portal.stop()
    portal.start(PORTAL_MODE="development")
    try:
        inspector.check("design page", "/design")
        assert driver.find_elements(By.CSS_SELECTOR, "svg use"), "the design page shows no icon"
        assert driver.find_elements(By.CSS_SELECTOR, "table.stacks"), "the design page shows no stacking table"
    finally:
        portal.stop()
        portal.start()
    assert inspector.seen == 2
    assert not inspector.problems, "\n".join(inspector.problems)


def test_a_teacher_asks_to_teach_is_approved_and_runs_a_class_of_forty_on_a_phone(portal, browser_factory):
    """Signing up to teach, an admin's approval from the queue, then a class of forty pupils made
    from a pasted list: the class page keeps one compact row a pupil on a 390 px phone (no
    sideways scroll, a few screens long), and each pupil's page holds what a teacher does for one."""
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    teacher = "asker-" + uuid.uuid4().hex[:8]
    driver.get(portal.url + "/register")
    inspector.check("registration", "/register")
    driver.get(portal.url + "/register")
    driver.find_element(By.ID, "username").send_keys(teacher)
    driver.find_element(By.ID, "display-name").send_keys("Ms Asker")
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    driver.find_element(By.ID, "password-confirmation").send_keys("a long enough password")
    driver.find_element(By.CSS_SELECTOR, 'input[name=intent][value="teach"]').click()
    driver.find_element(By.CSS_SELECTOR, "form.account button[type=submit]").click()
    wait(driver, lambda d: d.current_url.endswith("/me/teaching"), message="choosing to teach did not lead to the request")
    inspector.check("ask to teach", "/me/teaching")
    driver.find_element(By.ID, "request-school").send_keys("Riverside High")
    inspector.submit('form[action="/me/teaching"] button[type=submit]')
    assert "waits for an admin" in driver.find_element(By.TAG_NAME, "main").text
    inspector.check("a student at the teaching area", "/teach")

    driver.delete_all_cookies()
    sign_in(driver, portal, *portal.ADMIN)
    inspector.check("admin teachers", "/admin/teachers")
    driver.get(portal.url + "/admin/teachers")
    inspector.submit('button[aria-label="Approve %s"]' % teacher)
    assert "%s teaches now." % teacher in driver.find_element(By.TAG_NAME, "main").text

    driver.delete_all_cookies()
    sign_in(driver, portal, teacher, "a long enough password")
    driver.get(portal.url + "/teach")
    driver.find_element(By.ID, "class-name").send_keys("Year 9 — forty")
    class_page = inspector.submit('form[action="/teach/classes"] button[type=submit]')[len(portal.url):]
    driver.get(portal.url + class_page + "/accounts")
    names = "\n".join("Pupil %02d Surname-%s" % (n, "abcdefghij"[n % 10] * 6) for n in range(1, 41))
    driver.find_element(By.ID, "names").send_keys(names)
    inspector.submit('form[action$="/accounts"] button[type=submit]')
    assert int(portal.sql("SELECT count(*) FROM class_members m JOIN classes c ON c.id = m.class_id WHERE c.name = 'Year 9 — forty'").strip()) == 40
    # The first printed card, for the pupil who signs in with it below.
    card = driver.find_elements(By.CSS_SELECTOR, "li.signin-card")[0].find_elements(By.CSS_SELECTOR, "dd")
    card_user, card_code = card[0].text.strip(), card[1].text.strip()
    inspector.check("class of forty", class_page)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.get(portal.url + class_page)
    rows = driver.find_elements(By.CSS_SELECTOR, "table.roster tbody tr")
    assert len(rows) == 40, "the roster shows %d rows" % len(rows)
    tallest = max(driver.execute_script("return arguments[0].getBoundingClientRect().height", row) for row in rows)
    detail = driver.execute_script("""
        const row = arguments[0];
        return [row.outerHTML, getComputedStyle(row).display, Array.from(row.children).map((c) => [c.tagName, c.getBoundingClientRect().top, c.getBoundingClientRect().height, c.getBoundingClientRect().width, getComputedStyle(c).display])];
    """, rows[0])
    assert tallest <= 64, "a pupil's row is %s px high on a phone: more than two lines (%s)" % (tallest, detail)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    assert height <= 5 * 844, "a class of forty is %s px long on a phone: more than five screens" % height
    member = rows[0].find_element(By.CSS_SELECTOR, "th a").get_attribute("href")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    inspector.check("a pupil's page", member[len(portal.url):])
    inspector.check("the gradebook", class_page + "/gradebook")
    inspector.check("a new assignment: the exam", class_page + "/assignments/new")
    driver.get(portal.url + class_page + "/assignments/new")
    exam_choice = driver.find_element(By.CSS_SELECTOR, 'a[href*="/assignments/new?exam="]').get_attribute("href")
    inspector.check("a new assignment: the form", exam_choice[len(portal.url):])
    driver.get(member)
    assert driver.find_elements(By.CSS_SELECTOR, 'form[action$="/accommodation"]'), "the pupil's page has no extra-time form"
    assert driver.find_elements(By.CSS_SELECTOR, 'a[href$="/reset"]') and driver.find_elements(By.CSS_SELECTOR, 'a[href$="/remove"]')

    # A quiz of chosen questions: made, filled from a search, previewed, assigned to the class.
    inspector.check("quizzes", "/teach/quizzes")
    driver.get(portal.url + "/teach/quizzes")
    driver.find_element(By.ID, "quiz-title").send_keys("Chosen for Year 9")
    quiz = inspector.submit('form[action="/teach/quizzes"] button[type=submit]')[len(portal.url):]
    for _ in range(3):
        driver.get(portal.url + quiz + "?q=")
        inspector.submit('#results form button[type=submit]')
    assert len(driver.find_elements(By.CSS_SELECTOR, "#chosen + p + ol.quiz-items > li, ol.quiz-items > li")) == 3
    inspector.check("a quiz", quiz)
    inspector.check("a quiz's search", quiz + "?q=")
    inspector.check("a quiz's preview", quiz + "/preview")
    driver.get(portal.url + quiz)
    inspector.submit('form[action="/teach/links"] button[type=submit]')
    assert "Chosen for Year 9" in driver.find_element(By.TAG_NAME, "main").text

    # A pupil with the first card, on a phone: choosing a password lands on the class and its
    # assignment, which they open, take and finish.
    driver.delete_all_cookies()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.get(portal.url + "/reset?first=1&user=%s&code=%s" % (card_user, card_code.replace("-", "")))
    driver.find_element(By.ID, "password").send_keys("my own long phrase")
    driver.find_element(By.ID, "password-confirmation").send_keys("my own long phrase")
    inspector.submit('form[action="/reset"] button[type=submit]')
    assert driver.current_url.endswith("/me/classes"), driver.current_url
    assignment = driver.find_element(By.CSS_SELECTOR, "a.assignment-title")
    assert assignment.text == "Chosen for Year 9", assignment.text
    assert assignment.location["y"] < 844, "the assignment is not on the pupil's first screen"
    driver.get(assignment.get_attribute("href"))
    inspector.submit('form[action$="/start"] button[type=submit]')
    session = driver.current_url.split("?")[0]
    for _ in range(3):
        driver.get(session)
        fill_some_answer(driver.find_element(By.ID, "answer-form"))
        inspector.submit("#answer-form button.primary")
    driver.get(session + "/finish")
    inspector.submit("form.finish button[type=submit]")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # The teacher's gradebook shows the attempt, and its cell opens the pupil's answers.
    driver.delete_all_cookies()
    sign_in(driver, portal, teacher, "a long enough password")
    driver.get(portal.url + class_page + "/gradebook")
    cells = [cell for cell in driver.find_elements(By.CSS_SELECTOR, "table.gradebook td a") if cell.text.endswith("%")]
    assert len(cells) == 1, "the gradebook shows %d scores, not the one attempt" % len(cells)
    driver.get(cells[0].get_attribute("href"))
    assert "Chosen for Year 9" in driver.find_element(By.TAG_NAME, "main").text
    assert not inspector.problems, "\n".join(inspector.problems)


def test_an_admin_makes_an_exam_and_imports_drafts_on_a_phone(portal, browser_factory):
    """The admin's whole job on a 390 px phone: a region, a draft exam, its blueprint adding up to
    100% (110% refused first), published; then a GIFT file checked, imported as drafts and the
    drafts published together."""
    driver = browser_factory()
    inspector = Inspector(driver, portal)
    sign_in(driver, portal, *portal.ADMIN)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    code = "r" + uuid.uuid4().hex[:8]
    driver.get(portal.url + "/admin/exams")
    driver.find_element(By.ID, "region-code").send_keys(code)
    driver.find_element(By.ID, "region-name").send_keys("Phone region")
    inspector.submit('form[action="/admin/regions"] button[type=submit]')
    Select(driver.find_element(By.ID, "exam-region")).select_by_value(code)
    driver.find_element(By.ID, "exam-slug").send_keys("pocket-networks")
    driver.find_element(By.ID, "exam-title").send_keys("Pocket Networks")
    exam = inspector.submit('form[action="/admin/exams"] button[type=submit]')[len(portal.url):]
    assert exam == "/admin/exams/%s/pocket-networks" % code, exam
    for index, (slug, title, weight) in enumerate([("ports", "Ports", "60"), ("layers", "Layers", "50")]):
        driver.find_element(By.ID, "slug-%d" % index).send_keys(slug)
        driver.find_element(By.ID, "title-%d" % index).send_keys(title)
        driver.find_element(By.ID, "weight-%d" % index).send_keys(weight)
    inspector.submit('form[action$="/blueprint"] button[type=submit]')
    assert "add up to 110%" in driver.find_element(By.TAG_NAME, "main").text, "a blueprint of 110% was not refused"
    weight = driver.find_element(By.ID, "weight-1")
    weight.clear()
    weight.send_keys("40")
    inspector.submit('form[action$="/blueprint"] button[type=submit]')
    assert "Together: 100%" in driver.find_element(By.TAG_NAME, "main").text
    inspector.submit('form[action$="/publish"] button[type=submit]')
    assert "Published" in driver.find_element(By.TAG_NAME, "main").text
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    inspector.check("a new exam's page", exam)

    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.get(portal.url + "/admin/import")
    driver.find_element(By.ID, "import-text").send_keys(
        "::SSH:: Which port does SSH use? {=22 ~23 ~25}\n\n::HTTPS:: Which port does HTTPS use? {=443 ~80 ~25}\n")
    Select(driver.find_element(By.ID, "import-into")).select_by_value("%s/pocket-networks" % code)
    driver.find_element(By.ID, "import-domain").send_keys("ports")
    inspector.submit('form[action="/admin/import"] button[type=submit]')
    assert "2 questions added" in driver.find_element(By.TAG_NAME, "main").text
    drafts = inspector.submit('button[name="publish"][value="0"]')
    assert "status=draft" in drafts, drafts
    assert "2 questions imported as drafts" in driver.find_element(By.TAG_NAME, "main").text
    inspector.submit('#publish-drafts button[type=submit]')
    assert "2 drafts published" in driver.find_element(By.TAG_NAME, "main").text
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not inspector.problems, "\n".join(inspector.problems)
