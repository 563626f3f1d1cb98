// Offline study on every page: the service worker's registration (and "Reload to update"), the
// exam page's download controls, the outbox of answers made offline and its upload, and the
// warning before signing out with answers still waiting. Pages work without this file.
//
// Storage, per browser profile:
//   Cache "portal-bundles"   the exam bundles, under their immutable URLs (the service worker
//                             answers them cache-first)
//   Cache "portal-images"    the images the downloaded exams' options show (the service worker
//                             answers them from here when the network does not)
//   IndexedDB "portal-offline"
//     exams     one record per downloaded exam: version, URL, size, review schedule
//     sessions  sessions started offline, until the server has them finished
//     answers   the outbox: every answer made offline, until the server acknowledged it
//     meta      the last account seen signed in (answers are tagged with it)
(function () {
  "use strict";

  var DATABASE = "portal-offline";
  var BUNDLES = "portal-bundles";
  var IMAGES = "portal-images";
  /// The formulas' font (site.css names it), kept with the pictures for exams that show formulas.
  var MATH_FONT = "/fonts/latinmodern-math.2005.woff2";
  /// The server takes at most this many answers per request (ProgressUpload.maximumAnswers).
  var BATCH = 500;

  var supported = "indexedDB" in window && "caches" in window && "fetch" in window && "Promise" in window;

  // ---- IndexedDB, as promises -------------------------------------------------------------

  var opening = null;
  function database() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DATABASE, 1);
        request.onupgradeneeded = function () {
          var db = request.result;
          db.createObjectStore("exams", { keyPath: "key" });
          db.createObjectStore("sessions", { keyPath: "id" });
          db.createObjectStore("answers", { keyPath: "id" });
          db.createObjectStore("meta", { keyPath: "name" });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
        request.onblocked = function () { reject(new Error("offline storage is blocked by another tab")); };
      });
    }
    return opening;
  }

  /// Runs `work(stores)` in one transaction over `names`; resolves with what `work` returned
  /// (an IDBRequest's result, once the transaction has committed).
  function transaction(names, mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(names, mode);
        var stores = {};
        names.forEach(function (name) { stores[name] = tx.objectStore(name); });
        var outcome = work(stores);
        tx.oncomplete = function () { resolve(outcome instanceof IDBRequest ? outcome.result : outcome); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error || new Error("transaction aborted")); };
      });
    });
  }

  function getAll(name) { return transaction([name], "readonly", function (s) { return s[name].getAll(); }); }
  function get(name, key) { return transaction([name], "readonly", function (s) { return s[name].get(key); }); }
  function put(name, value) { return transaction([name], "readwrite", function (s) { s[name].put(value); }); }
  function remove(name, key) { return transaction([name], "readwrite", function (s) { s[name].delete(key); }); }

  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // ---- Formatting -------------------------------------------------------------------------

  function fill(pattern, values) {
    return String(pattern || "").replace(/\{(\w+)\}/g, function (whole, name) { return name in values ? String(values[name]) : whole; });
  }

  var language = document.documentElement.lang || "en";

  /// "3 days ago" for a bundle version (milliseconds since 1970).
  function ago(milliseconds) {
    var seconds = (Number(milliseconds) - Date.now()) / 1000;
    var units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
    var format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
    for (var i = 0; i < units.length; i++) {
      if (Math.abs(seconds) >= units[i][1]) return format.format(Math.round(seconds / units[i][1]), units[i][0]);
    }
    return format.format(0, "minute");
  }

  function size(bytes) {
    var units = ["byte", "kilobyte", "megabyte", "gigabyte"], value = bytes, unit = 0;
    while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
    return new Intl.NumberFormat(language, { style: "unit", unit: units[unit], unitDisplay: "short", maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 }).format(value);
  }

  // ---- The account --------------------------------------------------------------------------

  /// Who is signed in now, with a current CSRF token; remembered so answers made offline can be
  /// tagged with the account they belong to.
  function me() {
    return fetch("/api/me", { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (who) {
      if (!who.signedIn) return who;
      return put("meta", { name: "user", userId: who.userId, displayName: who.displayName }).then(function () { return who; });
    });
  }

  function lastUser() {
    return get("meta", "user").then(function (record) { return record ? record.userId : null; });
  }

  // ---- The outbox ---------------------------------------------------------------------------

  var outboxListeners = [];
  var lastStatus = null;

  /// What the outbox holds, for status lines: {waiting, otherAccount, rejected, reason, state}.
  function outboxStatus(state) {
    return Promise.all([getAll("answers"), lastUser()]).then(function (results) {
      var answers = results[0], user = results[1];
      var status = { waiting: 0, otherAccount: 0, rejected: 0, reason: "", state: state || (lastStatus && lastStatus.state) || "idle" };
      answers.forEach(function (answer) {
        if (answer.rejected) {
          status.rejected += 1;
          status.reason = answer.rejected;
        } else if (answer.userId && user && answer.userId !== user) status.otherAccount += 1;
        else status.waiting += 1;
      });
      lastStatus = status;
      outboxListeners.forEach(function (listener) { listener(status); });
      return status;
    });
  }

  /// Stores an answer made offline; it stays until the server acknowledges it.
  function recordAnswer(answer) {
    return lastUser().then(function (user) {
      answer.userId = user;
      return put("answers", answer);
    }).then(function () { return outboxStatus(); });
  }

  var uploading = null;
  var uploadAgain = false;

  /// Sends what waits in the outbox, a batch at a time, and removes exactly what the server
  /// acknowledged (accepted, or already present). A rejected answer is kept with its reason and
  /// not sent again. Safe to call at any time; concurrent calls share one run — which then
  /// looks at the outbox once more when it is through, since what a later call wanted sent
  /// (a session's end, stored just after its last answer) may have come after it had read it.
  function upload() {
    if (!supported) return Promise.resolve(null);
    if (uploading) {
      uploadAgain = true;
      return uploading;
    }
    uploading = uploadRuns().then(function (state) {
      uploading = null;
      return outboxStatus(state);
    }, function (error) {
      uploading = null;
      uploadAgain = false;
      return outboxStatus(navigator.onLine === false ? "offline" : "failed").then(function () { throw error; });
    });
    return uploading;
  }

  function uploadRuns() {
    uploadAgain = false;
    return uploadBatches().then(function (state) {
      return uploadAgain && state === "done" ? uploadRuns() : state;
    });
  }

  function uploadBatches() {
    return Promise.all([getAll("answers"), getAll("sessions")]).then(function (results) {
      var answers = results[0].filter(function (answer) { return !answer.rejected; });
      var finished = results[1].filter(function (session) { return session.finishedAt; });
      if (answers.length === 0 && finished.length === 0) return "done";
      if (navigator.onLine === false) return "offline";
      return me().then(function (who) {
        if (!who.signedIn) return "signin";
        var mine = function (item) { return !item.userId || item.userId === who.userId; };
        answers = answers.filter(mine);
        var sessions = results[1].filter(mine);
        finished = finished.filter(mine);
        if (answers.length === 0 && finished.length === 0) return "done";
        answers.sort(function (a, b) { return a.answeredAt < b.answeredAt ? -1 : a.answeredAt > b.answeredAt ? 1 : 0; });
        var batch = answers.slice(0, BATCH);
        return send(who, batch, answers, sessions).then(function (state) {
          // After each successful request: go on while anything is left.
          return state === "more" ? uploadBatches() : state;
        });
      });
    });
  }

  function send(who, batch, pending, sessions) {
    var inBatch = new Set(batch.map(function (answer) { return answer.sessionId; }));
    var pendingBySession = {};
    pending.forEach(function (answer) { pendingBySession[answer.sessionId] = (pendingBySession[answer.sessionId] || 0) + 1; });
    var batchBySession = {};
    batch.forEach(function (answer) { batchBySession[answer.sessionId] = (batchBySession[answer.sessionId] || 0) + 1; });
    // A session goes with its answers; its end goes only once all its answers go with it,
    // because the server takes no answer into a finished session.
    var sent = sessions.filter(function (session) {
      return inBatch.has(session.id) || (session.finishedAt && !pendingBySession[session.id]);
    }).map(function (session) {
      var complete = (batchBySession[session.id] || 0) === (pendingBySession[session.id] || 0);
      var wire = { id: session.id, region: session.region, exam: session.exam, mode: session.mode || "practice", questionIds: session.questionIds, startedAt: session.startedAt };
      if (session.finishedAt && complete) wire.finishedAt = session.finishedAt;
      return wire;
    });
    var body = {
      sessions: sent,
      answers: batch.map(function (answer) {
        return {
          id: answer.id, sessionId: answer.sessionId, questionId: answer.questionId, questionVersion: answer.questionVersion,
          response: answer.response, timeMs: answer.timeMs, answeredAt: answer.answeredAt
        };
      })
    };
    return fetch("/api/progress", {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": who.csrfToken },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (response.status === 401 || response.status === 403) return { signin: true };
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (result) {
      if (result.signin) return "signin";
      var acknowledged = new Set((result.accepted || []).concat(result.duplicates || []));
      var rejected = {};
      (result.rejected || []).forEach(function (item) { rejected[item.id] = item.reason; });
      return transaction(["answers", "sessions"], "readwrite", function (stores) {
        batch.forEach(function (answer) {
          var id = answer.id.toLowerCase();
          if (acknowledged.has(id)) stores.answers.delete(answer.id);
          else if (rejected[id]) {
            answer.rejected = rejected[id];
            stores.answers.put(answer);
          }
        });
        // A session the device finished is done with once its end and all its answers went.
        sent.forEach(function (session) {
          if (session.finishedAt) stores.sessions.delete(session.id);
        });
      }).then(function () { return pending.length > batch.length ? "more" : "done"; });
    });
  }

  // ---- Bundles ------------------------------------------------------------------------------

  function json(url) {
    return fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
      return response.json();
    });
  }

  function manifestEntry(region, slug) {
    return json("/offline/manifest.json").then(function (manifest) {
      var item = manifest.exams.filter(function (exam) { return exam.region === region && exam.slug === slug; })[0];
      if (!item) throw new Error("the exam is not in the manifest");
      return item;
    });
  }

  /// The downloaded bundle of a record (from the cache; no network).
  function loadBundle(record) {
    return caches.open(BUNDLES).then(function (cache) { return cache.match(record.url); }).then(function (response) {
      if (!response) throw new Error("the bundle is missing from this device");
      return response.json();
    });
  }

  /// Every image a bundle's questions show (options' pictures, hotspot images, exhibits), and
  /// the formulas' font when one of them shows a formula, as absolute URLs.
  function imagesOf(bundle) {
    var urls = {};
    bundle.questions.forEach(function (question) {
      if (question.rich && JSON.stringify(question.rich).indexOf('"type":"math"') >= 0) urls[new URL(MATH_FONT, location.href).href] = true;
      (question.options || []).forEach(function (option) {
        if (option.imageUrl) urls[new URL(option.imageUrl, location.href).href] = true;
      });
      if (question.details && question.details.imageUrl) urls[new URL(question.details.imageUrl, location.href).href] = true;
      // The exhibits of a question written in markdown, as the server lists them.
      (question.pictures || []).forEach(function (path) { urls[new URL(path, location.href).href] = true; });
    });
    return Object.keys(urls);
  }

  /// Stores the images of a bundle that are not stored yet, so diagrams show offline too. An
  /// image that cannot be fetched is left out: its option still has its text.
  function storeImages(bundle) {
    return caches.open(IMAGES).then(function (cache) {
      return Promise.all(imagesOf(bundle).map(function (url) {
        return cache.match(url).then(function (stored) {
          if (stored) return null;
          var sameOrigin = new URL(url).origin === location.origin;
          // Another site's image can only be kept as an opaque response (it still displays).
          var options = sameOrigin ? { credentials: "same-origin" } : { mode: "no-cors", credentials: "omit" };
          return fetch(url, options).then(function (response) {
            return sameOrigin && !response.ok ? null : cache.put(url, response);
          }).catch(function () { return null; });
        });
      }));
    });
  }

  /// Deletes the stored images no downloaded exam shows any more.
  function pruneImages() {
    return getAll("exams").then(function (records) {
      return Promise.all(records.map(function (record) { return loadBundle(record).catch(function () { return { questions: [] }; }); }));
    }).then(function (bundles) {
      var kept = {};
      bundles.forEach(function (bundle) { imagesOf(bundle).forEach(function (url) { kept[url] = true; }); });
      return caches.open(IMAGES).then(function (cache) {
        return cache.keys().then(function (requests) {
          return Promise.all(requests.filter(function (request) { return !kept[request.url]; })
            .map(function (request) { return cache.delete(request); }));
        });
      });
    });
  }

  function recordFor(bundle, url, bytes, previous) {
    var record = previous || { key: bundle.exam.region + "/" + bundle.exam.slug, downloadedAt: new Date().toISOString(), missed: [] };
    record.region = bundle.exam.region;
    record.slug = bundle.exam.slug;
    record.title = bundle.exam.title;
    record.language = bundle.exam.language;
    record.version = bundle.version;
    record.url = url;
    record.bytes = bytes;
    record.questions = bundle.questions.length;
    return record;
  }

  /// Downloads an exam's current bundle into the cache and records it (with the student's
  /// review schedule when signed in); asks the browser to keep the storage.
  function download(region, slug) {
    var key = region + "/" + slug;
    return Promise.all([manifestEntry(region, slug), get("exams", key)]).then(function (results) {
      var item = results[0], previous = results[1];
      return storeBundle(item.url, previous);
    }).then(function (record) {
      if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(function () {});
      return refreshSchedule(record).catch(function () { return record; });
    });
  }

  function storeBundle(url, previous) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) {
        var failure = new Error("HTTP " + response.status + " for " + url);
        failure.status = response.status;
        throw failure;
      }
      return Promise.all([response.clone().text(), caches.open(BUNDLES)]).then(function (parts) {
        var text = parts[0], bundle = JSON.parse(text);
        return parts[1].put(url, response).then(function () {
          return storeImages(bundle);
        }).then(function () {
          var oldURL = previous && previous.url !== url ? previous.url : null;
          var record = recordFor(bundle, url, new Blob([text]).size, previous);
          return put("exams", record).then(function () {
            return oldURL ? parts[1].delete(oldURL) : null;
          }).then(function () { return record; });
        });
      });
    });
  }

  /// Frees an exam's storage. Answers waiting in the outbox are not touched.
  function removeExam(key) {
    return get("exams", key).then(function (record) {
      if (!record) return null;
      return caches.open(BUNDLES).then(function (cache) { return cache.delete(record.url); }).then(function () { return remove("exams", key); })
        .then(pruneImages);
    });
  }

  /// The student's review schedule for a downloaded exam, when signed in.
  function refreshSchedule(record) {
    return fetch("/api/exams/" + encodeURIComponent(record.region) + "/" + encodeURIComponent(record.slug) + "/schedule", {
      credentials: "same-origin", cache: "no-store"
    }).then(function (response) {
      if (!response.ok) return record;
      return response.json().then(function (schedule) {
        // Written into the record as stored now (an update may have replaced it meanwhile).
        return Promise.all([get("exams", record.key), getAll("answers")]).then(function (results) {
          var stored = results[0];
          if (!stored) return record;
          stored.schedule = { fetchedAt: new Date().toISOString(), cards: schedule.cards };
          // Once nothing waits to be uploaded, what this device answered is in the schedule.
          var waiting = results[1].some(function (answer) { return !answer.rejected; });
          if (!waiting) stored.reviewedHere = {};
          record.schedule = stored.schedule;
          record.reviewedHere = stored.reviewedHere;
          return put("exams", stored).then(function () { return stored; });
        });
      });
    });
  }

  /// The manifest's entry when it has a newer version than the record; null when up to date.
  function availableUpdate(record) {
    return manifestEntry(record.region, record.slug).then(function (item) {
      return Number(item.version) > Number(record.version) ? item : null;
    });
  }

  /// Brings a downloaded exam up to date: the change feed applied to the stored bundle when the
  /// server can give one, else the whole bundle. Resolves {record, full, changed, deleted}.
  function update(record) {
    var feedURL = "/api/exams/" + encodeURIComponent(record.region) + "/" + encodeURIComponent(record.slug) + "/changes?since=" + encodeURIComponent(record.version);
    return json(feedURL).then(function (feed) {
      if (feed.full) {
        return storeBundle(feed.bundle, record).then(function (updated) { return { record: updated, full: true, changed: 0, deleted: 0 }; });
      }
      return loadBundle(record).then(function (bundle) {
        var gone = new Set(feed.deleted.map(function (id) { return id.toLowerCase(); }));
        var changed = {};
        feed.changed.forEach(function (question) { changed[question.id.toLowerCase()] = question; });
        var questions = bundle.questions.filter(function (question) {
          var id = question.id.toLowerCase();
          return !gone.has(id) && !changed[id];
        });
        Object.keys(changed).forEach(function (id) { questions.push(changed[id]); });
        questions.sort(function (a, b) { return a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1; });
        bundle.questions = questions;
        bundle.version = feed.version;
        if (feed.exam) bundle.exam = feed.exam;
        if (feed.domains) bundle.domains = feed.domains;
        var text = JSON.stringify(bundle);
        return caches.open(BUNDLES).then(function (cache) {
          // Stored under the new version's URL: the cache holds what that URL would serve.
          return cache.put(feed.bundle, new Response(text, { headers: { "Content-Type": "application/json" } })).then(function () {
            return feed.bundle !== record.url ? cache.delete(record.url) : null;
          });
        }).then(function () {
          return storeImages(bundle);
        }).then(function () {
          var updated = recordFor(bundle, feed.bundle, new Blob([text]).size, record);
          return put("exams", updated).then(function () {
            return { record: updated, full: false, changed: feed.changed.length, deleted: feed.deleted.length };
          });
        });
      });
    });
  }

  // ---- The service worker -------------------------------------------------------------------

  function registerWorker() {
    if (!("serviceWorker" in navigator)) return;
    var banner = document.getElementById("update-banner");
    var reloading = false;
    function offer(worker) {
      if (!banner || !navigator.serviceWorker.controller) return;
      banner.hidden = false;
      document.getElementById("update-reload").onclick = function () {
        reloading = true;
        worker.postMessage({ type: "skip-waiting" });
      };
    }
    // The new worker takes over only when the student asked; then the page reloads under it.
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (reloading) window.location.reload();
    });
    // The worker keeps the language this page is in, for the offline page it serves later.
    var language = (document.documentElement.lang || "en").split("-")[0];
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "language", language: language });
    }).catch(function () {});
    navigator.serviceWorker.register("/sw.js").then(function (registration) {
      if (registration.waiting) offer(registration.waiting);
      registration.addEventListener("updatefound", function () {
        var installing = registration.installing;
        if (!installing) return;
        installing.addEventListener("statechange", function () {
          if (installing.state === "installed") offer(installing);
        });
      });
    }).catch(function () {});
  }

  // ---- The exam page ------------------------------------------------------------------------

  function examControls() {
    var section = document.getElementById("offline-section");
    if (!section || !supported || !("serviceWorker" in navigator)) return;
    var region = section.getAttribute("data-region"), slug = section.getAttribute("data-exam"), key = region + "/" + slug;
    var status = document.getElementById("offline-status");
    var storage = document.getElementById("offline-storage");
    var downloadButton = document.getElementById("offline-download");
    var removeButton = document.getElementById("offline-remove");
    var openLink = document.getElementById("offline-open");
    section.hidden = false;

    function showStorage() {
      if (!navigator.storage || !navigator.storage.estimate) return Promise.resolve();
      return Promise.all([navigator.storage.estimate(), navigator.storage.persisted ? navigator.storage.persisted() : Promise.resolve(false)]).then(function (results) {
        var text = fill(section.getAttribute("data-storage"), { used: size(results[0].usage || 0) });
        storage.textContent = text + " " + section.getAttribute(results[1] ? "data-persisted" : "data-not-persisted");
      }).catch(function () {});
    }

    var stored = null;
    var downloadLabel = downloadButton.textContent;

    function show(message) {
      return get("exams", key).then(function (record) {
        stored = record;
        downloadButton.hidden = !!record;
        downloadButton.textContent = downloadLabel;
        removeButton.hidden = !record;
        openLink.hidden = !record;
        if (message) status.textContent = message;
        else if (record) status.textContent = fill(section.getAttribute("data-downloaded"), { count: record.questions, size: size(record.bytes), ago: ago(record.version) });
        else status.textContent = "";
        // A copy older than the catalogue: the same button brings it up to date.
        if (record && navigator.onLine !== false) {
          availableUpdate(record).then(function (newer) {
            if (!newer) return;
            downloadButton.textContent = section.getAttribute("data-update");
            downloadButton.hidden = false;
            status.textContent += " " + section.getAttribute("data-update-available");
          }, function () {});
        }
        return showStorage();
      });
    }

    downloadButton.addEventListener("click", function () {
      downloadButton.disabled = true;
      status.textContent = section.getAttribute("data-downloading");
      (stored ? update(stored) : download(region, slug)).then(function () { return show(); }, function (error) {
        // Bundles carry the answer keys: they are for signed-in students.
        if (error && error.status === 401) {
          return show(section.getAttribute("data-sign-in")).then(function () {
            var link = document.createElement("a");
            link.href = "/login?next=" + encodeURIComponent(location.pathname);
            link.textContent = section.getAttribute("data-sign-in-link");
            status.appendChild(document.createTextNode(" "));
            status.appendChild(link);
          });
        }
        return show(section.getAttribute("data-failed"));
      }).then(function () { downloadButton.disabled = false; });
    });
    removeButton.addEventListener("click", function () {
      removeExam(key).then(function () { return show(section.getAttribute("data-removed")); }).then(function () { downloadButton.focus(); });
    });
    show();
  }

  // ---- Signing out --------------------------------------------------------------------------

  function logoutWarning() {
    var form = document.getElementById("logout-form");
    if (!form || !supported) return;
    var confirmed = false;
    form.addEventListener("submit", function (event) {
      if (confirmed) return;
      event.preventDefault();
      function leave() {
        confirmed = true;
        form.submit();
      }
      // Try to send what waits first; warn only about what is still left after that.
      upload().catch(function () {}).then(function () { return outboxStatus(); }).then(function (status) {
        if (status.waiting === 0 || window.confirm(fill(form.getAttribute("data-pending"), { count: status.waiting }))) leave();
      }, leave);
    });
  }

  // ---- Answers sent from a question page with no connection ---------------------------------

  // session.js keeps a copy of each answer a server question page sends until the page after
  // it arrives. A copy still here was sent with no connection (the service worker showed the
  // offline page): it is sent again, as it was, from a page loaded online — its one-time answer
  // id makes a second arrival harmless, and the server's clock judges it as for any answer. The
  // offline page says it waits.
  var PENDING = "portal-pending-answers";
  function pendingAnswers() {
    try { return JSON.parse(localStorage.getItem(PENDING) || "[]"); } catch (unavailable) { return []; }
  }
  function keepPending(list) {
    try { if (list.length) localStorage.setItem(PENDING, JSON.stringify(list)); else localStorage.removeItem(PENDING); } catch (unavailable) { /* storage off */ }
  }
  var sendingPending = false;
  function sendPending() {
    var list = pendingAnswers();
    if (!list.length || sendingPending || !("fetch" in window)) return;
    sendingPending = true;
    var here = location.pathname + location.search, shownHere = false;
    list.reduce(function (previous, answer) {
      return previous.then(function () {
        return fetch(answer.action, {
          method: "POST", credentials: "same-origin", redirect: "manual", body: answer.body,
          headers: { "Content-Type": "application/x-www-form-urlencoded" }
        }).then(function () {
          // Any answer from the server (taken, or refused as too late): it is not sent again.
          keepPending(pendingAnswers().filter(function (kept) { return kept.body !== answer.body; }));
          if (answer.page.split("?")[0] === location.pathname) shownHere = true;
        }, function () { /* still no connection: it waits */ });
      });
    }, Promise.resolve()).then(function () {
      sendingPending = false;
      pendingNotice();
      // The page shows that question without the answer just delivered: show it again.
      if (shownHere && !document.getElementById("offline-app")) location.replace(here);
    });
  }
  function pendingNotice() {
    var notice = document.getElementById("offline-pending");
    if (notice) notice.hidden = pendingAnswers().length === 0;
  }

  // ---- Start --------------------------------------------------------------------------------

  window.PortalOffline = {
    supported: supported,
    uuid: uuid, fill: fill, ago: ago, size: size,
    getAll: getAll, get: get, put: put, remove: remove,
    recordAnswer: recordAnswer, upload: upload, outboxStatus: outboxStatus,
    onOutbox: function (listener) { outboxListeners.push(listener); if (lastStatus) listener(lastStatus); },
    download: download, removeExam: removeExam, loadBundle: loadBundle, refreshSchedule: refreshSchedule,
    availableUpdate: availableUpdate, update: update, lastUser: lastUser
  };

  pendingNotice();
  window.addEventListener("online", sendPending);
  sendPending();
  // The offline page stands in while the site cannot be reached (the device may still say it
  // is online): it tries again now and then.
  if (document.getElementById("offline-app")) window.setInterval(function () { if (pendingAnswers().length) sendPending(); }, 30000);
  if (!supported) return;
  registerWorker();
  examControls();
  logoutWarning();
  // Uploads on page load and whenever the connection comes back (Background Sync exists only
  // in some browsers, so these two are what every browser gets).
  window.addEventListener("online", function () { upload().catch(function () {}); });
  upload().catch(function () {});
})();
