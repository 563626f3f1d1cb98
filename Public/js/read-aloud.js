// Read-aloud (a reader's setting, or an accommodation their teacher gave): a button on the
// question that reads its text and then each option with the browser's speech synthesis, in the
// question's language, the sentence being read highlighted as it goes. Without this file, or a
// browser that cannot speak, there is no button and nothing else changes.
(function () {
  "use strict";

  var settings = document.getElementById("read-aloud"), question = document.querySelector("article.question");
  if (!settings || !question || !("speechSynthesis" in self) || typeof SpeechSynthesisUtterance !== "function") return;
  var synthesis = self.speechSynthesis;
  var language = settings.getAttribute("data-language");
  var highlights = self.CSS && CSS.highlights && typeof Highlight === "function" ? CSS.highlights : null;

  // The parts to read, in order: the question's text, then each option's words.
  function parts() {
    var found = [];
    var stem = question.querySelector(".stem");
    if (stem) found.push(stem);
    Array.prototype.forEach.call(question.querySelectorAll("label.option .option-text, .ordering label, .matching label"), function (element) {
      found.push(element);
    });
    return found;
  }

  // An element's text as sentences, each with the ranges of the text nodes it covers (so the
  // sentence can be highlighted where it stands, whatever markup it runs through). Readings
  // over words (ruby) are read as their base, the text a hidden reading would show.
  function sentences(element) {
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        var parent = node.parentNode;
        while (parent && parent !== element) {
          var name = parent.nodeName.toLowerCase();
          if (name === "rt" || name === "rp" || name === "annotation" || parent.classList && parent.classList.contains("visually-hidden")) {
            return NodeFilter.FILTER_REJECT;
          }
          parent = parent.parentNode;
        }
        return NodeFilter.FILTER_ACCEPT;
      }
    });
    var nodes = [], text = "", node;
    while ((node = walker.nextNode())) { nodes.push({ node: node, start: text.length }); text += node.data; }
    var bounds = [];
    if (typeof Intl === "object" && typeof Intl.Segmenter === "function") {
      var segmenter = new Intl.Segmenter(language, { granularity: "sentence" });
      var iterator = segmenter.segment(text)[Symbol.iterator](), step;
      while (!(step = iterator.next()).done) bounds.push([step.value.index, step.value.index + step.value.segment.length]);
    } else {
      var pattern = /[^.!?。！？]+[.!?。！？]*\s*/g, match;
      while ((match = pattern.exec(text))) bounds.push([match.index, match.index + match[0].length]);
    }
    return bounds.map(function (bound) {
      var words = text.slice(bound[0], bound[1]);
      var range = document.createRange(), started = false;
      nodes.forEach(function (entry) {
        var end = entry.start + entry.node.data.length;
        if (!started && bound[0] < end) { range.setStart(entry.node, bound[0] - entry.start); started = true; }
        if (started && bound[1] <= end && bound[1] >= entry.start) range.setEnd(entry.node, bound[1] - entry.start);
      });
      return { words: words.trim(), range: started ? range : null };
    }).filter(function (sentence) { return sentence.words !== ""; });
  }

  var button = document.createElement("button");
  button.type = "button";
  button.className = "read-aloud";
  var labels = { start: settings.getAttribute("data-read-label"), stop: settings.getAttribute("data-stop-label") };
  button.textContent = labels.start;
  button.setAttribute("aria-pressed", "false");
  var heading = question.querySelector("h1");
  (heading || question).insertAdjacentElement(heading ? "afterend" : "afterbegin", button);

  var reading = false;
  function finish() {
    reading = false;
    button.textContent = labels.start;
    button.setAttribute("aria-pressed", "false");
    if (highlights) highlights.delete("read-aloud");
  }

  button.addEventListener("click", function () {
    if (reading) { synthesis.cancel(); finish(); return; }
    var queue = [];
    parts().forEach(function (part) { queue = queue.concat(sentences(part)); });
    if (!queue.length) return;
    reading = true;
    button.textContent = labels.stop;
    button.setAttribute("aria-pressed", "true");
    synthesis.cancel();
    var next = function (index) {
      if (!reading || index >= queue.length) { finish(); return; }
      var sentence = queue[index];
      if (highlights && sentence.range) highlights.set("read-aloud", new Highlight(sentence.range));
      var utterance = new SpeechSynthesisUtterance(sentence.words);
      utterance.lang = language;
      utterance.onend = function () { next(index + 1); };
      utterance.onerror = finish;
      synthesis.speak(utterance);
    };
    next(0);
  });
  // Leaving the page stops the voice.
  self.addEventListener("pagehide", function () { if (reading) synthesis.cancel(); });
})();
