// Live events: the scoreboard updates as answers arrive, the countdowns tick, and the page
// moves on when the server's clock opens or closes a question. Without this file the page
// refreshes itself at each of those moments instead.
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

  // The page's own refresh is for browsers without JavaScript; the stream replaces it.
  var refresh = document.querySelector('meta[http-equiv="refresh"]');
  if (refresh) refresh.parentNode.removeChild(refresh);

  var source = new EventSource("/live/" + encodeURIComponent(code) + "/events");
  var firstPhase = true;
  source.addEventListener("phase", function () {
    // The first message describes the phase this page already shows.
    if (firstPhase) { firstPhase = false; return; }
    source.close();
    window.location.reload();
  });
  source.addEventListener("scores", function (message) {
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
