// Live events: the scoreboard updates as answers arrive, the countdowns tick, the host sees
// players join, and the page moves on when the server's clock opens or closes a question.
// Without this file each page offers a link that shows what is happening now.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root || typeof EventSource === "undefined") return;
  var code = root.getAttribute("data-code");

  // Countdowns: whole seconds left, from when the page was rendered.
  var counters = Array.prototype.slice.call(document.querySelectorAll("[data-seconds-left]"));
  var started = Date.now();
  if (counters.length) {
    window.setInterval(function () {
      counters.forEach(function (element) {
        var left = parseInt(element.getAttribute("data-seconds-left"), 10) - Math.floor((Date.now() - started) / 1000);
        element.textContent = String(Math.max(0, left));
      });
    }, 250);
  }

  // An event that is over has nothing more to say.
  if (root.hasAttribute("data-ended")) return;

  // The host's list of players, fetched again (at most once a second) as people join.
  var people = document.getElementById("people"), fetching = false, again = false;
  function refreshPeople() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      var fresh = html && new DOMParser().parseFromString(html, "text/html").getElementById("people");
      if (fresh) people.replaceWith(fresh), people = fresh;
    }).catch(function () {}).then(function () {
      window.setTimeout(function () {
        fetching = false;
        if (again) { again = false; refreshPeople(); }
      }, 1000);
    });
  }

  var source = new EventSource("/live/" + encodeURIComponent(code) + "/events");
  var firstPhase = true;
  source.addEventListener("phase", function () {
    // The first message describes the phase this page already shows.
    if (firstPhase) { firstPhase = false; return; }
    source.close();
    window.location.reload();
  });
  source.addEventListener("scores", function (message) {
    if (people) refreshPeople();
    var data;
    try { data = JSON.parse(message.data); } catch (error) { return; }
    var board = document.getElementById("scoreboard");
    if (board && data.top) {
      while (board.firstChild) board.removeChild(board.firstChild);
      data.top.forEach(function (entry) {
        var item = document.createElement("li");
        var name = document.createElement("span");
        name.className = "name";
        name.textContent = entry.name;
        var points = document.createElement("span");
        points.className = "points";
        points.textContent = entry.points.toLocaleString();
        item.appendChild(name);
        item.appendChild(document.createTextNode(" "));
        item.appendChild(points);
        board.appendChild(item);
      });
    }
  });
})();
