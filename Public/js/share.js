// Share links: a copy button beside each link, and the links made in this browser session kept
// (sessionStorage, gone when the browser closes) so the exam, class and teaching pages can show
// them again with their QR codes: the server keeps only a fingerprint of each link and cannot.
// Without this file the page that made a link shows it and its QR code once.
(function () {
  "use strict";

  var KEY = "portal-share-links";
  var MOST = 20;

  function stored() {
    try { return JSON.parse(window.sessionStorage.getItem(KEY) || "[]"); } catch (error) { return []; }
  }

  function store(links) {
    try { window.sessionStorage.setItem(KEY, JSON.stringify(links.slice(-MOST))); } catch (error) { /* private mode: nothing kept */ }
  }

  function copy(text, status, messages) {
    var done = function () { status.textContent = messages.copied; };
    var failed = function () { status.textContent = messages.failed; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, failed);
    } else {
      failed();
    }
  }

  function copyButton(input, status, label, messages) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.textContent = label;
    button.addEventListener("click", function () { input.select(); copy(input.value, status, messages); });
    return button;
  }

  // The page that made a link: its button, and the link remembered for this session.
  var created = document.getElementById("created-link");
  if (created) {
    var input = document.getElementById("new-link");
    var status = created.querySelector(".copy-status");
    var button = created.querySelector("button[data-copy-from]");
    var messages = { copied: created.getAttribute("data-copied"), failed: created.getAttribute("data-copy-failed") };
    button.hidden = false;
    button.addEventListener("click", function () { input.select(); copy(input.value, status, messages); });
    var svg = created.querySelector("svg.qr");
    var url = created.getAttribute("data-url");
    var links = stored().filter(function (link) { return link.url !== url; });
    links.push({
      url: url, title: created.getAttribute("data-title"), back: created.getAttribute("data-back"),
      exam: created.getAttribute("data-exam"), qr: svg ? svg.outerHTML : "", madeAt: Date.now()
    });
    store(links);
  }

  // The pages that make links: the ones made here this session, newest first.
  var section = document.getElementById("session-links");
  if (section) {
    var exam = section.getAttribute("data-exam");
    var mine = stored().filter(function (link) { return exam ? link.exam === exam : link.back === window.location.pathname; }).reverse();
    if (!mine.length) return;
    var list = section.querySelector("ul");
    var labels = { copied: section.getAttribute("data-copied"), failed: section.getAttribute("data-copy-failed") };
    mine.forEach(function (link, index) {
      var item = document.createElement("li");
      var id = "session-link-" + index;
      var label = document.createElement("label");
      label.htmlFor = id;
      label.textContent = link.title;
      var field = document.createElement("input");
      field.id = id;
      field.type = "text";
      field.readOnly = true;
      field.className = "wide";
      field.value = link.url;
      var note = document.createElement("p");
      note.className = "copy-status";
      note.setAttribute("role", "status");
      var row = document.createElement("div");
      row.className = "copy-row";
      row.appendChild(field);
      row.appendChild(copyButton(field, note, section.getAttribute("data-copy"), labels));
      item.appendChild(label);
      item.appendChild(row);
      item.appendChild(note);
      if (link.qr) {
        // Shown as an image: markup kept in storage never becomes part of the page.
        var image = document.createElement("img");
        image.className = "qr";
        image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(link.qr);
        image.alt = (section.getAttribute("data-qr-alt") || "").replace("{title}", link.title);
        item.appendChild(image);
      }
      list.appendChild(item);
    });
    section.hidden = false;
  }
})();
