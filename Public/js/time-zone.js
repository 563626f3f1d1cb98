// The student's own day from the first visit. A zone list whose saved zone is still the default
// (UTC), or that asks for the browser's (registration), has the browser's zone chosen, so the
// student only confirms; a sign-in form's hidden field carries it. The server's list and check
// decide: a zone the list does not offer is left alone. Without script the list stands as it is.
(function () {
  "use strict";
  if (!window.Intl) return;
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (error) { return; }
  if (!zone) return;
  var hidden = document.getElementById("browser-zone");
  if (hidden) hidden.value = zone;
  var select = document.getElementById("time-zone");
  if (!select || !(select.getAttribute("data-saved") === "UTC" || select.hasAttribute("data-take-browser-zone"))) return;
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) { select.value = zone; return; }
  }
})();
