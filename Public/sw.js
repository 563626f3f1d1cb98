// The service worker: keeps the offline study app (its page, style sheet and scripts) and the
// downloaded exam bundles available with no connection.
//
// - The app shell is precached under a versioned cache. The server stamps VERSION from the
//   shell's own files, so any change to them makes a new worker; old shells are deleted when
//   the new worker activates.
// - A new worker waits until the student chooses "Reload to update" (offline.js); it is never
//   swapped in under an open page.
// - Navigations go to the network first (a study session's forms too); with no answer, the
//   cached copy of that page when it is part of the shell, else the offline study page — in the student's language: the page is
//   precached once per language (`?lang=`), and the pages tell the worker which one they read
//   in (offline.js), so a Japanese student offline gets the Japanese page and its strings.
// - Bundles are answered from the cache first: their URLs are immutable.
// - Images go to the network first; with no answer, the copy offline.js stored when the exam
//   that shows them was downloaded (so diagrams show offline too).
"use strict";

var VERSION = "__SHELL_VERSION__";
var SHELL_CACHE = "portal-shell-" + VERSION;
var BUNDLE_CACHE = "portal-bundles";
var IMAGE_CACHE = "portal-images";
var OFFLINE_PAGE = "/offline/study";
var SHELL = [OFFLINE_PAGE, "/css/site.css", "/css/dark.css", "/js/offline.js", "/js/offline-study.js", "/js/answer-check.js", "/js/hotspot.js", "/js/ordering.js", "/js/rich-text.js", "/js/session.js", "/favicon.svg", "/icons.svg"];
var LANGUAGES = __SHELL_LANGUAGES__;
var SETTINGS_CACHE = "portal-settings";
var LANGUAGE_KEY = "/__portal/language";

function offlinePage(language) { return OFFLINE_PAGE + "?lang=" + language; }

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    // Past the HTTP cache, and without cookies: the shell is the same for everyone.
    var urls = SHELL.concat(LANGUAGES.map(offlinePage));
    return cache.addAll(urls.map(function (url) { return new Request(url, { cache: "reload", credentials: "omit" }); }));
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("portal-shell-") === 0 && name !== SHELL_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  // The language the student's pages are in, kept for the offline page (a worker's variables
  // do not outlive it).
  if (event.data && event.data.type === "language" && LANGUAGES.indexOf(event.data.language) >= 0) {
    event.waitUntil(caches.open(SETTINGS_CACHE).then(function (cache) {
      return cache.put(LANGUAGE_KEY, new Response(event.data.language));
    }));
  }
});

function studentLanguage() {
  return caches.open(SETTINGS_CACHE).then(function (cache) { return cache.match(LANGUAGE_KEY); })
    .then(function (stored) { return stored ? stored.text() : ""; })
    .then(function (language) {
      if (LANGUAGES.indexOf(language) >= 0) return language;
      var browser = (self.navigator.language || "en").toLowerCase().split("-")[0];
      return LANGUAGES.indexOf(browser) >= 0 ? browser : "en";
    });
}

function fromShell(request) {
  return Promise.all([caches.open(SHELL_CACHE), studentLanguage()]).then(function (opened) {
    var cache = opened[0], own = cache.match(offlinePage(opened[1]));
    // The offline page in the student's language; another shell page as it was cached.
    if (new URL(request.url).pathname === OFFLINE_PAGE) return own.then(function (page) { return page || cache.match(OFFLINE_PAGE); });
    return cache.match(request, { ignoreSearch: true }).then(function (page) {
      return page || own.then(function (mine) { return mine || cache.match(OFFLINE_PAGE); });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  // An answer, a flag or a finish sent with no connection: the offline page says what to do
  // (the page kept a copy of an answer, which goes when a page loads online), never the
  // browser's error page. Only a study session's forms: a launch from an LMS or a sign-in
  // provider's return is left to the browser, whose own request tells the server where it came from.
  if (request.mode === "navigate" && request.method === "POST") {
    var posted = new URL(request.url);
    if (posted.origin === self.location.origin && /^\/sessions(\/[0-9a-f-]{36}\/(answers|flags|finish))?$/.test(posted.pathname)) {
      event.respondWith(fetch(request).catch(function () { return fromShell(new Request(OFFLINE_PAGE)); }));
    }
    return;
  }
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  // Pictures, and the formulas' font, come from the network, else from what the device stored with its exams.
  if (request.destination === "image" || request.destination === "font") {
    var stored = function () {
      return caches.open(IMAGE_CACHE).then(function (cache) { return cache.match(request.url); });
    };
    // A proxy's error page in place of the server counts as no answer.
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok || response.type === "opaque") return response;
      return stored().then(function (copy) { return copy || response; });
    }, function () {
      return stored().then(function (copy) { return copy || Response.error(); });
    }));
    return;
  }
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () { return fromShell(request); }));
    return;
  }
  if (url.pathname.indexOf("/offline/exams/") === 0) {
    event.respondWith(caches.open(BUNDLE_CACHE).then(function (cache) {
      return cache.match(request).then(function (stored) { return stored || fetch(request); });
    }));
    return;
  }
  if (SHELL.indexOf(url.pathname) >= 0 && url.pathname !== OFFLINE_PAGE) {
    // The shell's files belong to this worker's version: the page it controls gets the
    // script and style sheet of the same version, online or not.
    event.respondWith(caches.open(SHELL_CACHE).then(function (cache) {
      return cache.match(request, { ignoreSearch: true }).then(function (stored) { return stored || fetch(request); });
    }));
  }
});

// A reminder pushed by the portal (RFC 8291-encrypted; the browser hands over the plain JSON):
// shown as a notification that opens the review. Only a path of this site is ever opened.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  var path = typeof data.url === "string" && data.url.charAt(0) === "/" && data.url.charAt(1) !== "/" ? data.url : "/me";
  event.waitUntil(self.registration.showNotification(data.title || "Study Portal", {
    body: data.body || "", tag: data.tag || "reviews", icon: "/favicon.svg", data: { path: path }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var path = (event.notification.data && event.notification.data.path) || "/me";
  var url = new URL(path, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});
