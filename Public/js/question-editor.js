// The question editor: when the type changes, the fields of the new kind show and the others
// hide at once (each field says which kinds use it in data-kinds). Without this file the page
// shows the kind it was drawn for, and "Preview" draws it again for a new type.
(function () {
  "use strict";
  var type = document.getElementById("q-type");
  if (!type) return;
  var show = function () {
    Array.prototype.forEach.call(document.querySelectorAll(".kind-field[data-kinds]"), function (field) {
      field.hidden = field.getAttribute("data-kinds").split(" ").indexOf(type.value) === -1;
    });
  };
  type.addEventListener("change", show);
})();
