// Ordering questions: the items dragged into order (loaded by the pages that show one, and by
// the offline study page). Without it the position fields do the same.
(function () {
  "use strict";

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
})();
