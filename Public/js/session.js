// Study sessions (the server's question pages, live events and the offline study page):
// keyboard shortcuts, the mock exam's live countdown, the focus after an answer and the mock's
// question grid. The pages work without this file; it only saves keystrokes and shows time
// passing. A hotspot's picture (hotspot.js) and an ordering's drag (ordering.js) have their own.
(function () {
  "use strict";

  // A mock exam's timer, folded away by its student, stays folded on every question of the session.
  var timerBox = document.getElementById("timer");
  if (timerBox) {
    var timerKey = "portal-timer-hidden:" + timerBox.getAttribute("data-session");
    try {
      if (self.sessionStorage.getItem(timerKey) === "1") timerBox.open = false;
      timerBox.addEventListener("toggle", function () {
        if (timerBox.open) self.sessionStorage.removeItem(timerKey); else self.sessionStorage.setItem(timerKey, "1");
      });
    } catch (unavailable) { /* storage switched off: the timer shows on each page */ }
  }

  var countdown = document.getElementById("countdown");
  if (countdown) {
    var secondsLeft = parseInt(countdown.getAttribute("data-seconds-left"), 10);
    if (!isNaN(secondsLeft)) {
      var endsAt = Date.now() + secondsLeft * 1000;
      // Five minutes and one minute before the end, said once each (a live region reads it out).
      var warning = document.getElementById("time-warning"), said = secondsLeft;
      var tick = function () {
        var left = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
        var minutes = Math.floor(left / 60), seconds = left % 60;
        countdown.textContent = minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
        if (warning) {
          var mark = left <= 60 ? 60 : left <= 300 ? 300 : 0;
          if (mark && mark < said) {
            warning.textContent = countdown.getAttribute(mark === 60 ? "data-one-minute" : "data-five-minutes");
            said = mark;
          }
        }
        if (left === 0) {
          // The server ended the exam at its deadline; reloading shows the results.
          window.clearInterval(timer);
          window.location.reload();
        }
      };
      var timer = window.setInterval(tick, 1000);
      tick();
    }
  }

  // After an answer the page comes back with its feedback: the verdict's heading takes the focus
  // (read out first, and the next Tab goes on from it), not the top of the page. Only after the
  // student's own submit, so opening an answered question from elsewhere starts at the top.
  var verdict = document.getElementById("verdict"), arrivedFromSend = false;
  try {
    arrivedFromSend = self.sessionStorage.getItem("portal-answered") === location.pathname;
    if (verdict && arrivedFromSend) {
      verdict.setAttribute("tabindex", "-1");
      verdict.focus();
    }
    self.sessionStorage.removeItem("portal-answered");
  } catch (unavailable) { /* storage switched off: focus stays where the browser puts it */ }
  // An answer sent from a server's question page is kept on the device until the page that
  // follows it arrives: if the connection is gone, the service worker shows the offline page
  // instead, and offline.js sends the answer as it was once a page loads online (its one-time
  // answer id makes a second arrival harmless). Arriving here after one's own send, the answer
  // is in: its copy goes.
  var PENDING = "portal-pending-answers";
  function pendingAnswers() {
    try { return JSON.parse(self.localStorage.getItem(PENDING) || "[]"); } catch (unavailable) { return []; }
  }
  function keepPending(list) {
    try {
      if (list.length) self.localStorage.setItem(PENDING, JSON.stringify(list)); else self.localStorage.removeItem(PENDING);
    } catch (unavailable) { /* storage switched off: the answer goes as the browser sends it, no copy */ }
  }
  if (arrivedFromSend) {
    var arrived = location.pathname + "/answers", kept = pendingAnswers(), newest = -1;
    kept.forEach(function (answer, index) { if (answer.action === arrived && (newest < 0 || answer.at >= kept[newest].at)) newest = index; });
    if (newest >= 0) { kept.splice(newest, 1); keepPending(kept); }
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form && form.id === "answer-form") {
      try { self.sessionStorage.setItem("portal-answered", location.pathname); } catch (unavailable) { /* as above */ }
      var action = new URL(form.action, location.href);
      if (action.origin === location.origin && /^\/sessions\/[0-9a-f-]{36}\/answers$/.test(action.pathname) && "URLSearchParams" in self) {
        var body = new URLSearchParams(new FormData(form)).toString();
        var list = pendingAnswers().filter(function (answer) { return answer.body !== body; });
        list.push({ action: action.pathname, body: body, page: location.pathname + location.search, at: Date.now() });
        keepPending(list.slice(-50));
      }
    }
  });

  // A mock exam's question grid is one stop for Tab: the arrow keys (and Home, End) move
  // within it, and Tab goes on past it, not through every number.
  var grid = document.querySelector(".question-grid ol");
  if (grid) {
    var cells = Array.prototype.slice.call(grid.querySelectorAll("a"));
    var current = cells.filter(function (cell) { return cell.getAttribute("aria-current") === "page"; })[0] || cells[0];
    cells.forEach(function (cell) { cell.setAttribute("tabindex", cell === current ? "0" : "-1"); });
    grid.addEventListener("keydown", function (event) {
      var at = cells.indexOf(event.target), to = -1;
      if (at < 0) return;
      if (event.key === "ArrowRight" || event.key === "ArrowDown") to = Math.min(cells.length - 1, at + 1);
      else if (event.key === "ArrowLeft" || event.key === "ArrowUp") to = Math.max(0, at - 1);
      else if (event.key === "Home") to = 0;
      else if (event.key === "End") to = cells.length - 1;
      if (to < 0) return;
      cells[at].setAttribute("tabindex", "-1");
      cells[to].setAttribute("tabindex", "0");
      cells[to].focus();
      event.preventDefault();
    });
  }

  var hint = document.getElementById("shortcuts");
  if (hint && (document.getElementById("answer-form") || document.getElementById("flag-form"))) hint.hidden = false;

  function typing(target) {
    var name = target && target.tagName;
    return name === "TEXTAREA" || name === "SELECT" || (name === "INPUT" && target.type !== "radio" && target.type !== "checkbox") || (target && target.isContentEditable);
  }

  function send(form) {
    if (typeof form.requestSubmit === "function") form.requestSubmit(); else form.submit();
  }


  // A mock exam's strike-out without reloading the page: the request the button sends anyway (what
  // is chosen goes with it and is saved), then the option crossed through or put back as the page
  // that comes back draws it, and the form's one-time answer id and signed time taken from that
  // page (the next answer is a new one). Anything unexpected goes to that page itself.
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("button.strike") : null;
    var form = button && button.form;
    if (!form || !("fetch" in self) || !("DOMParser" in self) || !("URLSearchParams" in self)) return;
    event.preventDefault();
    var body = new URLSearchParams(new FormData(form));
    body.append("strike", button.value);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
      var samePage = response.ok && new URL(response.url).pathname === location.pathname;
      if (!samePage) { location.href = response.url; return null; }
      return response.text();
    }).then(function (html) {
      if (!html) return;
      var page = new DOMParser().parseFromString(html, "text/html");
      ["answer_id", "shown_at"].forEach(function (name) {
        var fresh = page.querySelector('input[name="' + name + '"]'), here = document.querySelector('input[name="' + name + '"]');
        if (fresh && here) here.value = fresh.value;
      });
      var freshButton = page.querySelector('button.strike[value="' + button.value + '"]');
      var freshLabel = freshButton && freshButton.parentNode.querySelector("label.option");
      var label = button.parentNode.querySelector("label.option");
      if (!freshButton || !freshLabel || !label) { location.reload(); return; }
      // The label keeps its input (and what is ticked); its class and its spoken "(struck out)" come from the page.
      label.className = freshLabel.className;
      Array.prototype.forEach.call(label.querySelectorAll(".visually-hidden"), function (said) { said.remove(); });
      var freshSaid = freshLabel.querySelector(".visually-hidden");
      if (freshSaid) label.appendChild(document.importNode(freshSaid, true));
      var replacement = document.importNode(freshButton, true);
      button.replaceWith(replacement);
      replacement.focus();
    }).catch(function () { location.reload(); });
  });

  // The elements are looked up on each key: the offline study page draws them as it goes.
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing || typing(event.target)) return;
    var key = event.key;
    var answerForm = document.getElementById("answer-form");
    var flagForm = document.getElementById("flag-form");
    // In a mock exam the flag is a button of the answer form: what is chosen goes with it.
    var flagButton = document.getElementById("flag-button");
    var nextLink = document.getElementById("next-link");
    if (answerForm && key >= "1" && key <= "9") {
      var option = answerForm.querySelector('input[data-key="' + key + '"]');
      if (!option) return;
      if (option.type === "checkbox") option.checked = !option.checked; else option.checked = true;
      option.focus();
      event.preventDefault();
    } else if (answerForm && key === "Enter") {
      var tag = event.target && event.target.tagName;
      if (tag === "A" || tag === "BUTTON" || tag === "SUMMARY") return;
      send(answerForm);
      event.preventDefault();
    } else if ((flagButton || flagForm) && (key === "f" || key === "F")) {
      if (flagButton) flagButton.click(); else send(flagForm);
      event.preventDefault();
    } else if (nextLink && (key === "n" || key === "N")) {
      nextLink.click();
      event.preventDefault();
    }
  });
})();
