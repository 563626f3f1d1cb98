// The offline study page: practice and review sessions run in the browser from downloaded
// bundles, with the same question markup and the same answer checking as the server's pages.
// Every answer goes to the outbox in IndexedDB first (offline.js), and is uploaded when the
// device is online and signed in; the server checks it again and keeps the verdict that counts.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";

  var app = document.getElementById("offline-app");
  var offline = window.PortalOffline, checker = window.PortalAnswerCheck;
  if (!app) return;
  var text = app.dataset;
  var libraryStatus = document.getElementById("offline-library-status");
  var list = document.getElementById("offline-exam-list");
  var library = document.getElementById("offline-library");
  var view = document.getElementById("offline-session");
  var sync = document.getElementById("offline-sync");
  if (!offline || !offline.supported || !checker) {
    libraryStatus.textContent = text.none;
    return;
  }
  var fill = offline.fill;

  // ---- Small DOM helpers --------------------------------------------------------------------

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      var value = attributes[name];
      if (value === null || value === undefined || value === false) return;
      if (name === "text") node.textContent = value;
      else if (name === "hidden") node.hidden = true;
      else node.setAttribute(name, value === true ? "" : value);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child); });
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function shuffled(items) {
    var copy = items.slice(), random = crypto.getRandomValues(new Uint32Array(copy.length));
    for (var i = copy.length - 1; i > 0; i--) {
      var j = random[i] % (i + 1), swap = copy[i];
      copy[i] = copy[j];
      copy[j] = swap;
    }
    return copy;
  }

  // ---- The outbox's status line --------------------------------------------------------------

  var hadWaiting = false;
  offline.onOutbox(function (status) {
    var parts = [];
    // Signed out with answers waiting: the line ends with a sign-in link that comes back here,
    // where the upload starts on load.
    var signIn = status.waiting > 0 && status.state === "signin";
    if (status.waiting > 0) {
      hadWaiting = true;
      parts.push(status.waiting === 1 ? text.waitingOne : fill(text.waitingOther, { count: status.waiting }));
      if (!signIn && (status.state === "offline" || status.state === "failed" || navigator.onLine === false)) parts.push(text.offlineNow);
    } else if (hadWaiting) parts.push(text.uploaded);
    if (status.otherAccount > 0) parts.push(fill(text.otherAccount, { count: status.otherAccount }));
    if (status.rejected > 0) parts.push(fill(text.rejected, { count: status.rejected, reason: status.reason }));
    sync.textContent = parts.join(" ");
    if (signIn) {
      sync.appendChild(document.createTextNode(" "));
      sync.appendChild(element("a", { href: "/login?next=" + encodeURIComponent("/offline/study"), text: text.signInToUpload }));
    }
    sync.hidden = parts.length === 0;
  });
  offline.outboxStatus();

  // ---- The library of downloaded exams --------------------------------------------------------

  /// The exam the page was opened for: ?exam=region/slug, or the exam page this copy of the
  /// shell stands in for when the service worker answered a navigation with it offline.
  function wantedExam() {
    var query = new URLSearchParams(window.location.search).get("exam");
    if (query) return query;
    var match = window.location.pathname.match(/^\/exams\/([^/]+)\/([^/]+)/);
    return match ? decodeURIComponent(match[1]) + "/" + decodeURIComponent(match[2]) : null;
  }

  // Offline, the worker answers any page it does not hold with this one: say which page needs
  // a connection instead of standing in for it silently (an exam page picks its exam instead).
  (function sayWhereFrom() {
    var path = window.location.pathname, notice = document.getElementById("offline-elsewhere");
    if (!notice || path === "/offline/study" || /^\/exams\/[^/]+\/[^/]+/.test(path)) return;
    // A study session's form sent with no connection: the page to try again is the session's.
    var again = path === "/sessions" ? "/" : path.replace(/^(\/sessions\/[0-9a-f-]{36})\/(answers|flags|finish)$/, "$1");
    notice.textContent = fill(notice.getAttribute("data-text"), { page: decodeURI(again) }) + " ";
    notice.appendChild(element("a", { href: again === path ? path + window.location.search : again, text: text.tryAgain }));
    notice.hidden = false;
  })();

  function freshness(record) {
    return fill(text.updated, { ago: offline.ago(record.version) });
  }

  function showLibrary() {
    view.hidden = true;
    clear(view);
    // The list is drawn afresh from storage; nothing of the last drawing stays meanwhile.
    clear(list);
    library.hidden = false;
    return Promise.all([offline.getAll("exams"), offline.getAll("sessions"), offline.lastUser()]).then(function (results) {
      var records = results[0], sessions = results[1], user = results[2];
      clear(list);
      libraryStatus.textContent = records.length ? "" : text.none;
      libraryStatus.hidden = records.length > 0;
      records.sort(function (a, b) { return a.title.localeCompare(b.title); });
      var wanted = wantedExam(), focusTarget = null;
      records.forEach(function (record) {
        var open = sessions.filter(function (session) {
          return session.region === record.region && session.exam === record.slug && !session.finishedAt && (!session.userId || session.userId === user);
        });
        var item = examItem(record, open);
        list.appendChild(item.node);
        if (wanted === record.key) focusTarget = item.start;
        if (navigator.onLine !== false) checkForUpdate(record, item);
      });
      if (focusTarget) focusTarget.focus();
    });
  }

  function examItem(record, openSessions) {
    var id = "exam-" + record.key.replace(/[^a-z0-9]/gi, "-");
    var status = element("p", { "class": "exam-status", role: "status" });
    var updateButton = element("button", { type: "button", text: text.update });
    var updateLine = element("p", { "class": "notice update-available", hidden: true }, [text.updateAvailable + " — ", updateButton]);
    var meta = element("p", { "class": "meta" }, [fill(text.questions, { count: record.questions }) + " · ", element("span", { "class": "freshness", text: freshness(record) })]);

    var practice = element("input", { type: "radio", name: id + "-mode", value: "practice", checked: true });
    var review = element("input", { type: "radio", name: id + "-mode", value: "review" });
    var count = element("input", { type: "number", id: id + "-count", name: "count", min: "1", max: "100", value: "10" });
    var start = element("button", { type: "submit", "class": "primary", text: text.start });
    var form = element("form", { "class": "start" }, [
      element("fieldset", {}, [
        element("legend", { text: text.modeLegend }),
        element("label", {}, [practice, " " + text.modePractice]),
        element("label", {}, [review, " " + text.modeReview + " " + fill(text.dueCount, { count: dueCount(record) })])
      ]),
      element("div", { "class": "row" }, [element("label", { "for": id + "-count", text: text.countLabel }), " ", count]),
      start
    ]);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var wanted = Math.max(1, Math.min(100, parseInt(count.value, 10) || 10));
      begin(record, review.checked ? "review" : "practice", wanted, status);
    });

    var continues = openSessions.map(function (session) {
      var answered = Object.keys(session.answered || {}).length;
      var button = element("button", { type: "button", text: fill(text["continue"], { answered: answered, total: session.questionIds.length }) });
      button.addEventListener("click", function () { resume(record, session, status); });
      return button;
    });

    var removeButton = element("button", { type: "button", "class": "link", text: text.remove });
    removeButton.addEventListener("click", function () {
      offline.removeExam(record.key).then(showLibrary);
    });
    updateButton.addEventListener("click", function () {
      updateButton.disabled = true;
      status.textContent = text.updating;
      offline.update(record).then(function (outcome) {
        record = outcome.record;
        updateLine.hidden = true;
        meta.querySelector(".freshness").textContent = freshness(record);
        meta.firstChild.textContent = fill(text.questions, { count: record.questions }) + " · ";
        status.textContent = outcome.full ? text.updateFull : fill(text.updateDone, { changed: outcome.changed, deleted: outcome.deleted });
      }, function () {
        status.textContent = text.updateFailed;
      }).then(function () { updateButton.disabled = false; });
    });

    var node = element("li", { id: id, "class": "offline-exam", "data-exam": record.key }, [
      element("h3", { lang: record.language, text: record.title }),
      meta, updateLine, status, form
    ].concat(continues.length ? [element("p", {}, continues)] : []).concat([element("p", {}, [removeButton])]));
    return { node: node, start: start, updateLine: updateLine };
  }

  function checkForUpdate(record, item) {
    offline.availableUpdate(record).then(function (newer) {
      item.updateLine.hidden = !newer;
    }, function () {});
    // The review schedule follows the server whenever the device is online and signed in.
    offline.refreshSchedule(record).catch(function () {});
  }

  // ---- Choosing questions ---------------------------------------------------------------------

  /// How many questions a review would take now (before checking they are still in the bundle).
  function dueCount(record) {
    var reviewedHere = record.reviewedHere || {}, now = Date.now(), due = new Set();
    (record.schedule ? record.schedule.cards : []).forEach(function (card) {
      var id = card.question.toLowerCase();
      if (Date.parse(card.due) <= now && !reviewedHere[id]) due.add(id);
    });
    (record.missed || []).forEach(function (id) { due.add(id); });
    return due.size;
  }

  function reviewQuestions(record, bundle, count) {
    var present = new Set(bundle.questions.map(function (question) { return question.id.toLowerCase(); }));
    var reviewedHere = record.reviewedHere || {}, now = Date.now(), chosen = [];
    var cards = record.schedule ? record.schedule.cards.slice() : [];
    cards.sort(function (a, b) { return Date.parse(a.due) - Date.parse(b.due); });
    cards.forEach(function (card) {
      var id = card.question.toLowerCase();
      if (Date.parse(card.due) <= now && present.has(id) && !reviewedHere[id]) chosen.push(id);
    });
    // Then what was missed on this device since, which the server has not scheduled yet.
    (record.missed || []).forEach(function (id) {
      if (present.has(id) && chosen.indexOf(id) < 0) chosen.push(id);
    });
    return chosen.slice(0, count);
  }

  function begin(record, mode, count, status) {
    Promise.all([offline.loadBundle(record), offline.lastUser()]).then(function (results) {
      var bundle = results[0];
      var ids = mode === "review"
        ? reviewQuestions(record, bundle, count)
        : shuffled(bundle.questions.map(function (question) { return question.id.toLowerCase(); })).slice(0, count);
      if (ids.length === 0) {
        status.textContent = text.nothingDue + (record.schedule ? "" : " " + text.noSchedule);
        return;
      }
      var session = {
        id: offline.uuid(), region: record.region, exam: record.slug, mode: mode, questionIds: ids,
        startedAt: new Date().toISOString(), userId: results[1], answered: {}
      };
      return offline.put("sessions", session).then(function () { run(record, bundle, session); });
    }).catch(function () { status.textContent = text.updateFailed; });
  }

  function resume(record, session, status) {
    offline.loadBundle(record).then(function (bundle) { run(record, bundle, session); }, function () { status.textContent = text.updateFailed; });
  }

  // ---- A session ------------------------------------------------------------------------------

  function run(record, bundle, session) {
    var byID = {};
    bundle.questions.forEach(function (question) { byID[question.id.toLowerCase()] = question; });
    // Questions removed by an update since the session began drop out of it.
    var questions = session.questionIds.map(function (id) { return byID[id.toLowerCase()]; }).filter(Boolean);
    var position = 0;
    while (position < questions.length && session.answered[questions[position].id.toLowerCase()]) position += 1;
    library.hidden = true;
    view.hidden = false;
    // Every state of the session view starts with a heading of this id.
    view.setAttribute("aria-labelledby", "offline-session-heading");
    if (position >= questions.length) finish(record, session, questions);
    else showQuestion(record, bundle, session, questions, position);
  }

  function progress(answered, total) {
    return fill(text.progress, { answered: answered, total: total });
  }

  function header(record, session, questions) {
    var answered = Object.keys(session.answered).length;
    return [
      element("h2", { id: "offline-session-heading", lang: record.language, text: record.title }),
      element("p", { "class": "meta freshness", text: freshness(record) }),
      element("div", { "class": "session-bar" }, [element("p", { "class": "progress", text: progress(answered, questions.length) }), leaveButton()])
    ];
  }

  // Stopping a session part-way: what was answered is kept, and the exam's entry offers to
  // continue it.
  function leaveButton() {
    var leave = element("button", { type: "button", "class": "secondary", id: "offline-leave", text: text.leave });
    leave.addEventListener("click", function () { showLibrary(); });
    return leave;
  }

  // A question written in markdown carries its trees (`rich`): its stem, explanation and each
  // option's text and explanation, shown by PortalRichText as the server shows them.
  function optionTexts(question, index) {
    var rich = question.rich;
    return rich && rich.options && rich.options.length === question.options.length ? rich.options[index] : null;
  }

  function optionText(question, index) {
    var texts = optionTexts(question, index);
    return texts ? element("span", { "class": "option-text" }, [window.PortalRichText.inlines(texts.text)])
      : element("span", { "class": "option-text", text: question.options[index].text });
  }

  function richOr(tag, className, lang, tree, plain) {
    return tree ? element("div", { "class": className + " rich", lang: lang }, [window.PortalRichText.blocks(tree)])
      : element(tag, { "class": className, lang: lang, text: plain });
  }

  function optionBody(question, index) {
    var option = question.options[index];
    var span = optionText(question, index);
    if (option.code) span.appendChild(element("code", { "class": "block", text: option.code }));
    if (option.imageUrl) span.appendChild(element("img", { src: option.imageUrl, alt: "" }));
    return span;
  }

  // Each mark {#n} in a passage's text becomes gap n's field: a list of its choices, or a box.
  function fillGaps(passage, gaps) {
    var walker = document.createTreeWalker(passage, NodeFilter.SHOW_TEXT), nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var parts = node.nodeValue.split(/(\{#[0-9]{1,4}\})/);
      if (parts.length === 1) return;
      var pieces = document.createDocumentFragment();
      parts.forEach(function (part) {
        var mark = /^\{#([0-9]{1,4})\}$/.exec(part), number = mark ? parseInt(mark[1], 10) : 0, gap = gaps[number - 1];
        if (!gap) { if (part) pieces.appendChild(document.createTextNode(part)); return; }
        var labels = "gaps-legend gap-" + number + "-number", field;
        if (gap.choices) {
          field = element("select", { id: "gap-" + number, name: "gap_" + number, "aria-labelledby": labels }, [element("option", { value: "", text: "…" })]);
          gap.choices.forEach(function (choice) { field.appendChild(element("option", { value: choice, text: choice })); });
        } else {
          field = element("input", { type: "text", id: "gap-" + number, name: "gap_" + number, "aria-labelledby": labels, maxlength: "500", autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
        }
        pieces.appendChild(element("span", { "class": "gap" }, [element("span", { "class": "gap-number", id: "gap-" + number + "-number", text: String(number) }), field]));
      });
      node.parentNode.replaceChild(pieces, node);
    });
  }

  function showQuestion(record, bundle, session, questions, position) {
    var question = questions[position], total = questions.length, shownAt = Date.now();
    var kind = question.type, lang = record.language;
    clear(view);
    header(record, session, questions).forEach(function (node) { view.appendChild(node); });

    var heading = element("h3", { id: "question-heading", tabindex: "-1", text: fill(text.questionHeading, { number: position + 1, total: total }) });
    var error = element("p", { "class": "form-error", role: "alert", id: "answer-error", hidden: true });
    var fieldset = element("fieldset", { lang: lang });
    var details = question.details || {};
    var legend = { "multi-choice": text.chooseAll, ordering: text.orderLegend, matching: text.matchLegend, "fill-in": text.typeLegend, hotspot: text.hotspotLegend, cloze: text.gapsLegend }[kind] || text.chooseOne;
    fieldset.appendChild(element("legend", kind === "cloze" ? { id: "gaps-legend", text: legend } : { text: legend }));
    if (kind === "ordering") {
      fieldset.appendChild(element("p", { "class": "hint", text: text.orderHint }));
      var ul = element("ul", { "class": "ordering", "data-drag-hint": text.orderDragHint });
      question.options.forEach(function (option, index) {
        var select = element("select", { id: "position-" + index, name: "position_" + index, "aria-label": fill(text.positionOf, { option: option.text }) });
        question.options.forEach(function (_, place) {
          select.appendChild(element("option", { value: String(place + 1), selected: place === index, text: String(place + 1) }));
        });
        ul.appendChild(element("li", {}, [select, " ", element("label", { "for": "position-" + index }, [optionBody(question, index)])]));
      });
      fieldset.appendChild(ul);
    } else if (kind === "matching") {
      fieldset.appendChild(element("p", { "class": "hint", text: text.matchHint }));
      var pairs = element("ul", { "class": "matching" });
      question.options.forEach(function (option, index) {
        var select = element("select", { id: "target-" + index, name: "target_" + index }, [element("option", { value: "", text: text.matchChoose })]);
        (details.targets || []).forEach(function (target, place) {
          select.appendChild(element("option", { value: String(place + 1), text: target.text }));
        });
        pairs.appendChild(element("li", {}, [element("label", { "for": "target-" + index }, [optionBody(question, index)]), " ", select]));
      });
      fieldset.appendChild(pairs);
    } else if (kind === "cloze") {
      // The text itself, each gap's field where its mark {#n} stands (as the server's page has it).
      var passage = richOr("div", "stem cloze", lang, question.rich && question.rich.stem, question.stem);
      fillGaps(passage, details.gaps || []);
      fieldset.appendChild(passage);
    } else if (kind === "fill-in") {
      fieldset.appendChild(element("label", { "for": "typed-answer", text: text.typeLabel }));
      fieldset.appendChild(element("input", { type: "text", id: "typed-answer", name: "answer", maxlength: "500", autocomplete: "off", autocapitalize: "off", spellcheck: "false" }));
    } else {
      if (kind === "hotspot") {
        fieldset.appendChild(element("p", { "class": "hint", text: text.hotspotHint }));
        fieldset.appendChild(element("div", { "class": "hotspot", "data-outside": text.hotspotOutside, "data-regions": JSON.stringify(question.options.map(function (option) { return option.region; })) }, [
          element("img", { src: details.imageUrl, alt: text.hotspotImageAlt, "class": "hotspot-image" })
        ]));
        fieldset.appendChild(element("input", { type: "hidden", name: "point_x", value: "" }));
        fieldset.appendChild(element("input", { type: "hidden", name: "point_y", value: "" }));
      }
      question.options.forEach(function (option, index) {
        var input = element("input", { type: kind === "multi-choice" ? "checkbox" : "radio", name: "choice", value: String(index), "data-key": String(index + 1) });
        // A hotspot's regions are named in its picture (letters, most often): no number beside them.
        fieldset.appendChild(element("label", { "class": "option" }, kind === "hotspot" ? [input, " ", optionBody(question, index)] : [
          input, " ", element("span", { "class": "option-key", "aria-hidden": "true", text: String(index + 1) }), " ", optionBody(question, index)
        ]));
      });
    }
    var form = element("form", { "class": "answer", id: "answer-form" }, [fieldset, element("button", { type: "submit", "class": "primary", text: text.check })]);
    var article = element("article", { "class": "question", "aria-labelledby": "question-heading" }, [
      heading,
      element("p", { "class": "meta", text: fill(text.difficulty, { value: question.difficulty + (text["level-" + question.difficulty] ? " · " + text["level-" + question.difficulty] : "") }) }),
      kind === "cloze" ? null : richOr("div", "stem", lang, question.rich && question.rich.stem, question.stem),
      question.code ? element("pre", { "class": "code", lang: lang, tabindex: "0" }, [element("code", { text: question.code })]) : null,
      error, form
    ]);
    view.appendChild(article);
    if (window.PortalOrdering) window.PortalOrdering.enhance(article);
    var nav = element("nav", { "class": "question-nav", "aria-label": text.navigation });
    view.appendChild(nav);
    view.appendChild(element("p", { "class": "shortcuts", text: text.shortcuts }));
    heading.focus();

    // The answer in its stored shape (as the server's form would send it).
    function response() {
      if (kind === "ordering") {
        var placed = question.options.map(function (_, index) {
          return { position: parseInt(form.querySelector("#position-" + index).value, 10), option: index };
        });
        var positions = new Set(placed.map(function (item) { return item.position; }));
        if (placed.some(function (item) { return !(item.position >= 1 && item.position <= placed.length); })) throw fill(text.orderIncomplete, { count: placed.length });
        if (positions.size !== placed.length) throw text.orderDuplicate;
        placed.sort(function (a, b) { return a.position - b.position; });
        return placed.map(function (item) { return item.option; });
      }
      if (kind === "matching") {
        var given = question.options.map(function (_, index) { return parseInt(form.querySelector("#target-" + index).value, 10); });
        if (given.some(function (target) { return !(target >= 1); })) throw fill(text.matchIncomplete, { count: given.length });
        return { pairs: given.map(function (target) { return target - 1; }) };
      }
      if (kind === "fill-in") return { text: form.querySelector("#typed-answer").value };
      if (kind === "cloze") return { gaps: (details.gaps || []).map(function (_, index) { var field = form.elements["gap_" + (index + 1)]; return field ? field.value : ""; }) };
      if (kind === "hotspot" && form.elements.point_x.value !== "") {
        return { point: [parseFloat(form.elements.point_x.value), parseFloat(form.elements.point_y.value)] };
      }
      return Array.prototype.map.call(form.querySelectorAll("input[name=choice]:checked"), function (input) { return parseInt(input.value, 10); });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var chosen, outcome;
      try {
        chosen = response();
        outcome = checker.check(question, chosen);
      } catch (problem) {
        error.textContent = typeof problem === "string" ? problem
          : problem.code === "empty" ? (kind === "fill-in" || kind === "cloze" ? text.typeSomething : text.chooseSomething)
          : problem.code === "tooLong" ? text.tooLong
          : problem.code === "wrongCount" ? text.chooseOneOnly : text.badResponse;
        error.hidden = false;
        return;
      }
      error.hidden = true;
      var id = question.id.toLowerCase();
      var answer = {
        id: offline.uuid(), sessionId: session.id, questionId: id, questionVersion: question.version,
        response: chosen, timeMs: Math.min(86400000, Math.max(0, Date.now() - shownAt)), answeredAt: new Date().toISOString()
      };
      session.answered[id] = { correct: outcome.isCorrect, score: outcome.score };
      // The answer first, then the session's progress and the review bookkeeping: once the
      // answer is stored nothing is lost if the page closes.
      offline.recordAnswer(answer).then(function () {
        return offline.put("sessions", session);
      }).then(function () {
        return noteReview(record, id, outcome.isCorrect);
      }).then(function () {
        form.remove();
        article.appendChild(feedback(question, chosen, outcome, lang));
        var last = position + 1 >= total;
        var next = element("button", { type: "button", "class": "button primary", id: "next-link", text: last ? text.seeResults : text.next });
        next.addEventListener("click", function () {
          if (last) finish(record, session, questions);
          else showQuestion(record, bundle, session, questions, position + 1);
        });
        nav.appendChild(next);
        view.querySelector(".progress").textContent = progress(Object.keys(session.answered).length, total);
        next.focus();
        offline.upload().catch(function () {});
      });
    });
  }

  function noteReview(record, id, correct) {
    return offline.get("exams", record.key).then(function (stored) {
      if (!stored) return;
      stored.reviewedHere = stored.reviewedHere || {};
      stored.reviewedHere[id] = new Date().toISOString();
      var missed = (stored.missed || []).filter(function (other) { return other !== id; });
      if (!correct) missed.push(id);
      stored.missed = missed.slice(-200);
      record.reviewedHere = stored.reviewedHere;
      record.missed = stored.missed;
      return offline.put("exams", stored);
    });
  }

  function feedback(question, chosen, outcome, lang) {
    var section = element("section", { "class": "feedback " + (outcome.isCorrect ? "right" : "wrong"), "aria-labelledby": "verdict" }, [
      element("h3", { id: "verdict", text: outcome.isCorrect ? text.right : text.wrong })
    ]);
    if (!outcome.isCorrect && outcome.score > 0) section.appendChild(element("p", { text: fill(text.partial, { percent: Math.round(outcome.score * 100) }) }));
    var details = question.details || {};
    if (question.type === "ordering") {
      var list = function (indexes) {
        return element("ol", {}, indexes.map(function (index) { return element("li", { text: question.options[index].text }); }));
      };
      section.appendChild(element("div", { "class": "orders", lang: lang }, [
        element("div", {}, [element("h4", { text: text.yourOrder }), list(chosen)]),
        element("div", {}, [element("h4", { text: text.keyOrder }), list(question.correct)])
      ]));
    } else if (question.type === "matching") {
      var targets = details.targets || [];
      section.appendChild(element("ul", { "class": "options-review matching-review", lang: lang }, question.options.map(function (option, index) {
        var given = chosen.pairs[index], right = question.correct[index], same = given === right;
        var item = element("li", { "class": same ? "key" : "" }, [
          optionText(question, index), " → ", element("span", { "class": "given", text: (targets[given] || {}).text || "" }), " "
        ]);
        if (same) {
          item.appendChild(element("strong", { "class": "tag", text: text.tagRight }));
        } else {
          item.appendChild(element("span", { "class": "tag", text: text.tagYours }));
          item.appendChild(document.createTextNode(" · " + text.tagKey + ": "));
          item.appendChild(element("strong", { text: (targets[right] || {}).text || "" }));
        }
        return item;
      })));
    } else if (question.type === "cloze") {
      section.appendChild(element("ol", { "class": "gaps-review", lang: lang }, (details.gaps || []).map(function (gap, index) {
        var given = checker.normalized((chosen.gaps || [])[index] || ""), right = false;
        try { right = given !== "" && checker.check({ type: "cloze", details: { gaps: [gap] } }, { gaps: [given] }).isCorrect; } catch (ignored) { right = false; }
        return element("li", { "class": right ? "key" : "" }, [
          element("span", { "class": "gap-number", text: String(index + 1) }), " ",
          element("span", { "class": "given", text: given || "—" }), " ",
          element(right ? "strong" : "span", { "class": "tag", text: right ? text.tagRight : text.tagYours }),
          document.createTextNode(" · " + text.acceptedAnswers + ": " + gap.accepted.join(", "))
        ]);
      })));
    } else if (question.type === "fill-in") {
      section.appendChild(element("dl", { "class": "typed-review", lang: lang }, [
        element("dt", { text: text.yourAnswer }), element("dd", { text: chosen.text }),
        element("dt", { text: text.acceptedAnswers }),
        element("dd", {}, [element("ul", {}, (details.accepted || []).map(function (answer) { return element("li", { text: answer }); }))])
      ].concat((details.partial || []).length === 0 ? [] : [
        element("dt", { text: text.partialAnswers }),
        element("dd", {}, [element("ul", {}, details.partial.map(function (p) { return element("li", { text: p.answer + " (" + Math.round(p.share * 100) + "%)" }); }))])
      ])));
    } else {
      // The option picked: a choice, or the part of the picture a click fell in.
      var picked = Array.isArray(chosen) ? chosen : chosen.point ? [checker.regionAt(question.options, chosen.point[0], chosen.point[1])] : [];
      if (question.type === "hotspot" && details.imageUrl) {
        // The picture with the right parts outlined and the tap marked, as the server's feedback draws it.
        var box = element("div", {
          "class": "hotspot hotspot-review", "data-key": JSON.stringify(question.correct),
          "data-regions": JSON.stringify(question.options.map(function (option) { return option.region; })),
          "data-tap": chosen.point ? chosen.point.join(" ") : ""
        }, [element("img", { src: details.imageUrl, alt: text.hotspotImageAlt, "class": "hotspot-image" })]);
        section.appendChild(box);
        if (window.PortalHotspot) window.PortalHotspot.outline(box);
      }
      section.appendChild(element("ul", { "class": "options-review", lang: lang }, question.options.map(function (option, index) {
        var isKey = question.correct.indexOf(index) >= 0, wasChosen = picked.indexOf(index) >= 0;
        var item = element("li", { "class": (isKey ? "key" : "") + (wasChosen ? " chosen" : "") }, [optionText(question, index)]);
        if (isKey) item.appendChild(document.createTextNode(" ")), item.appendChild(element("strong", { "class": "tag", text: text.tagKey }));
        if (wasChosen) item.appendChild(document.createTextNode(" ")), item.appendChild(element("span", { "class": "tag", text: text.tagYours }));
        var texts = optionTexts(question, index);
        if (texts && texts.explanation) item.appendChild(element("div", { "class": "why rich" }, [window.PortalRichText.blocks(texts.explanation)]));
        else if (option.explanation) item.appendChild(element("br")), item.appendChild(element("span", { "class": "why", text: option.explanation }));
        return item;
      })));
    }
    section.appendChild(element("h4", { text: text.explanation }));
    section.appendChild(richOr("p", "explanation", lang, question.rich && question.rich.explanation, question.explanation));
    return section;
  }

  function finish(record, session, questions) {
    session.finishedAt = session.finishedAt || new Date().toISOString();
    offline.put("sessions", session).then(function () {
      var answered = Object.keys(session.answered).map(function (id) { return session.answered[id]; });
      var right = answered.filter(function (result) { return result.correct; }).length;
      var total = questions.length;
      clear(view);
      var heading = element("h2", { id: "offline-session-heading", tabindex: "-1", text: text.resultsHeading });
      var back = element("button", { type: "button", "class": "primary", text: text.back });
      back.addEventListener("click", function () { showLibrary(); });
      [heading,
        element("p", { "class": "lead", lang: record.language, text: record.title }),
        element("p", { "class": "score", text: fill(text.results, { right: right, total: total, percent: total ? Math.round(100 * right / total) : 0 }) }),
        element("p", { "class": "hint", text: text.scoringRule }),
        element("p", { text: text.resultsSaved }),
        back].forEach(function (node) { view.appendChild(node); });
      heading.focus();
      offline.upload().catch(function () {});
    });
  }

  showLibrary().catch(function () { libraryStatus.textContent = text.none; });
});
