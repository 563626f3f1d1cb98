// Study sessions (the server's question pages and the offline study page): keyboard shortcuts
// and the mock exam's live countdown.
// The pages work without this file; it only saves keystrokes and shows time passing.
(function () {
  "use strict";

  var countdown = document.getElementById("countdown");
  if (countdown) {
    var secondsLeft = parseInt(countdown.getAttribute("data-seconds-left"), 10);
    if (!isNaN(secondsLeft)) {
      var endsAt = Date.now() + secondsLeft * 1000;
      var tick = function () {
        var left = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
        var minutes = Math.floor(left / 60), seconds = left % 60;
        countdown.textContent = minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
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

  var hint = document.getElementById("shortcuts");
  if (hint && (document.getElementById("answer-form") || document.getElementById("flag-form"))) hint.hidden = false;

  function typing(target) {
    var name = target && target.tagName;
    return name === "TEXTAREA" || name === "SELECT" || (name === "INPUT" && target.type !== "radio" && target.type !== "checkbox") || (target && target.isContentEditable);
  }

  function send(form) {
    if (typeof form.requestSubmit === "function") form.requestSubmit(); else form.submit();
  }

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
