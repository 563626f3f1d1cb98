// The exam page's start form: as its choices change, how many questions the practice they
// describe would draw from. The server counts (GET …/practice-count): the student's own
// history decides some of the choices. Without this file the session itself says it — it holds
// what matches, and a choice nothing matches is refused with what to change.
(function () {
  "use strict";
  var output = document.getElementById("practice-count");
  var form = output && output.closest("form");
  if (!form || !("fetch" in window) || !("URLSearchParams" in window)) return;
  var asked = 0;
  function update() {
    var data = new FormData(form);
    if (data.get("mode") !== "practice") { output.hidden = true; return; }
    var query = new URLSearchParams();
    ["pool", "difficulty_from", "difficulty_to"].forEach(function (name) { if (data.get(name)) query.append(name, data.get(name)); });
    ["domain", "kind"].forEach(function (name) { data.getAll(name).forEach(function (value) { query.append(name, value); }); });
    var mine = ++asked;
    fetch(output.getAttribute("data-address") + "?" + query.toString(), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        // Only the answer to the latest choices is said.
        if (mine !== asked || !answer || typeof answer.count !== "number") return;
        output.textContent = output.getAttribute("data-text").replace("{count}", String(answer.count));
        output.hidden = false;
      }, function () { /* no connection: nothing said */ });
  }
  form.addEventListener("change", update);
  update();
})();
