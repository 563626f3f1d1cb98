// Study sessions (the server's question pages, live events and the offline study page):
// keyboard shortcuts, the mock exam's live countdown, and clicking a hotspot question's image.
// The pages work without this file; it only saves keystrokes, shows time passing and lets a
// pointer pick a part of a picture (the list of its parts does the same without it).
(function () {
  "use strict";

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
  var verdict = document.getElementById("verdict");
  try {
    if (verdict && self.sessionStorage.getItem("portal-answered") === location.pathname) {
      verdict.setAttribute("tabindex", "-1");
      verdict.focus();
    }
    self.sessionStorage.removeItem("portal-answered");
  } catch (unavailable) { /* storage switched off: focus stays where the browser puts it */ }
  document.addEventListener("submit", function (event) {
    if (event.target && event.target.id === "answer-form") {
      try { self.sessionStorage.setItem("portal-answered", location.pathname); } catch (unavailable) { /* as above */ }
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

  // A click on a hotspot image: the point in the image's own coordinates goes with the form
  // (the server decides which part it is), the part it falls in is chosen in the list, and a
  // mark shows where. Choosing from the list afterwards sends that choice instead.
  document.addEventListener("click", function (event) {
    var image = event.target;
    if (!image || !image.classList || !image.classList.contains("hotspot-image")) return;
    var form = image.closest("form"), box = image.closest(".hotspot");
    if (!form || !box || !form.elements.point_x || !self.PortalHotspot) return;
    var rect = image.getBoundingClientRect();
    var point = self.PortalHotspot.pointIn(image, event), x = point[0], y = point[1];
    form.elements.point_x.value = String(x);
    form.elements.point_y.value = String(y);
    var regions = [];
    try { regions = JSON.parse(box.getAttribute("data-regions") || "[]"); } catch (problem) { regions = []; }
    var picked = self.PortalAnswerCheck ? self.PortalAnswerCheck.regionAt(regions.map(function (region) { return { region: region }; }), x, y) : -1;
    Array.prototype.forEach.call(form.querySelectorAll('input[name="choice"]'), function (input) { input.checked = parseInt(input.value, 10) === picked; });
    // A tap outside every part is asked again (the server would refuse it too), said beside the picture.
    var outside = box.getAttribute("data-outside"), said = box.parentNode.querySelector(".hotspot-miss");
    if (outside && picked === -1 && regions.length) {
      form.elements.point_x.value = "";
      form.elements.point_y.value = "";
      var old = box.querySelector(".hotspot-mark");
      if (old) old.remove();
      if (!said) {
        said = document.createElement("p");
        said.className = "hotspot-miss notice";
        said.setAttribute("role", "status");
        box.parentNode.insertBefore(said, box.nextSibling);
      }
      said.textContent = outside;
      return;
    }
    if (said) said.remove();
    var mark = box.querySelector(".hotspot-mark") || box.appendChild(document.createElement("span"));
    mark.className = "hotspot-mark";
    mark.style.left = (event.clientX - rect.left) + "px";
    mark.style.top = (event.clientY - rect.top) + "px";
  });
  document.addEventListener("change", function (event) {
    var input = event.target, form = input && input.form;
    if (!form || input.name !== "choice" || !form.elements.point_x) return;
    form.elements.point_x.value = "";
    form.elements.point_y.value = "";
    var mark = form.querySelector(".hotspot-mark");
    if (mark) mark.remove();
  });

  // An ordering question's items can be dragged into order by a handle (a mouse or a finger);
  // each item's position field follows, so the form sends what the list shows. The fields stay
  // the keyboard's and the no-script way. The offline study page enhances its lists as it
  // draws them (PortalOrdering.enhance).
  function enhanceOrdering(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("form ul.ordering:not([data-draggable])"), function (list) {
      list.setAttribute("data-draggable", "");
      var hint = list.previousElementSibling, said = list.getAttribute("data-drag-hint");
      if (said && hint && hint.classList.contains("hint")) hint.textContent = said;
      Array.prototype.forEach.call(list.children, function (item) {
        var handle = document.createElement("span");
        handle.className = "drag-handle";
        handle.setAttribute("aria-hidden", "true");
        item.insertBefore(handle, item.firstChild);
      });
    });
  }
  var dragged = null;
  document.addEventListener("pointerdown", function (event) {
    var handle = event.target.closest ? event.target.closest(".drag-handle") : null;
    if (!handle || event.button !== 0) return;
    event.preventDefault();
    dragged = handle.parentNode;
    dragged.classList.add("dragging");
  });
  document.addEventListener("pointermove", function (event) {
    if (!dragged) return;
    var list = dragged.parentNode, items = Array.prototype.slice.call(list.children);
    var from = items.indexOf(dragged);
    // The item under the pointer once it is past that item's middle; only the others move, so
    // the dragged item keeps the pointer.
    var to = items.findIndex(function (item) {
      var rect = item.getBoundingClientRect();
      return item !== dragged && event.clientY >= rect.top && event.clientY <= rect.bottom
        && (items.indexOf(item) > from ? event.clientY > rect.top + rect.height / 2 : event.clientY < rect.top + rect.height / 2);
    });
    if (to === -1) return;
    if (to > from) items.slice(from + 1, to + 1).forEach(function (item) { list.insertBefore(item, dragged); });
    else items.slice(to, from).reverse().forEach(function (item) { list.insertBefore(item, dragged.nextSibling); });
  });
  function drop() {
    if (!dragged) return;
    var list = dragged.parentNode;
    dragged.classList.remove("dragging");
    dragged = null;
    Array.prototype.forEach.call(list.children, function (item, index) {
      var select = item.querySelector("select");
      if (select) select.value = String(index + 1);
    });
  }
  document.addEventListener("pointerup", drop);
  document.addEventListener("pointercancel", drop);
  enhanceOrdering(document);
  self.PortalOrdering = { enhance: enhanceOrdering };

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
