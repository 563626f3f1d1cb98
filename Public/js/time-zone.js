// Settings: while the saved zone is still the default (UTC), choose the browser's own zone in
// the list, so the student only has to press Save. The server's list and check decide; a zone
// the list does not offer is left alone.
(function () {
  "use strict";
  var select = document.getElementById("time-zone");
  if (!select || select.getAttribute("data-saved") !== "UTC" || !window.Intl) return;
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (error) { return; }
  if (!zone || zone === "UTC") return;
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) { select.value = zone; return; }
  }
})();
