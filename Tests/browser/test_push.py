"""A push reminder as the browser gets it: the portal's service worker receives a push message
(delivered through Chromium's DevTools protocol, as the push service would deliver it), shows
the notification with the reminder's words, and keeps the review's address to open."""

import json
import time
import uuid

from conftest import register, wait


def deliver(driver, origin, data):
    """Delivers `data` to the site's service worker as its push service would. DevTools names a
    registration by an id pages never see, and takes any id without a word: the message goes to
    the first few ids a profile gives out, and the site has only the one registration among them
    (a notification with the same tag replaces the one before)."""
    for registration in range(8):
        driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {"origin": origin + "/", "registrationId": str(registration), "data": data})


def notifications(driver, tag):
    """The notifications the site's service worker shows with `tag`, waited for up to 20 s."""
    for _ in range(100):
        shown = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.ready.then((r) => r.getNotifications({ tag: arguments[0] })).then(
                (list) => done(list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, path: n.data && n.data.path }))), () => done([]));
        """, tag)
        if shown:
            return shown
        time.sleep(0.2)
    return []


def test_the_service_worker_shows_a_pushed_reminder(portal, browser_factory):
    driver = browser_factory()
    register(driver, portal, "push-" + uuid.uuid4().hex[:8])
    driver.get(portal.url + "/me/rhythm")
    # The section offers notifications to a browser that has them (hidden without JavaScript).
    wait(driver, lambda d: d.execute_script("return !document.querySelector('[data-push]').hidden"), message="no notification button")
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": portal.url, "permissions": ["notifications"]})
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    scope = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((r) => done(r.scope), (e) => done('error ' + e));
    """)
    assert scope == portal.url + "/", scope
    payload = json.dumps({"title": "5 questions to review", "body": "About 2 min.", "url": "/me", "tag": "reviews"})
    deliver(driver, portal.url, payload)
    shown = notifications(driver, "reviews")
    assert shown == [{"title": "5 questions to review", "body": "About 2 min.", "tag": "reviews", "path": "/me"}]

    # A message naming another site's address still opens only this site's review.
    deliver(driver, portal.url, json.dumps({"title": "Review", "body": "", "url": "//elsewhere.example/steal", "tag": "other"}))
    other = [{"path": n["path"]} for n in notifications(driver, "other")]
    assert other == [{"path": "/me"}]
