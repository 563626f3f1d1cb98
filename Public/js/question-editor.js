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

// Drawing a hotspot's regions on its picture: choose an option and a shape, then drag a
// rectangle (corner to corner) or a circle (centre outwards), or click a polygon's corners. The
// region's coordinate field is filled in the picture's own pixels, as typing them would; the
// fields stay the keyboard's and the no-script way, and a change typed there is drawn at once.
(function () {
  "use strict";
  var drawer = document.getElementById("region-drawer"), address = document.getElementById("q-hotspot-image");
  var hotspot = self.PortalHotspot;
  if (!drawer || !address || !hotspot) return;
  var which = document.getElementById("draw-option"), shapeChoice = document.getElementById("draw-shape");
  var gesture = document.getElementById("draw-gesture"), said = document.getElementById("draw-said");
  var closeButton = document.getElementById("draw-close"), canvas = drawer.querySelector(".region-canvas");
  var image = document.createElement("img");
  image.className = "hotspot-image";
  image.alt = canvas.getAttribute("data-alt");
  image.draggable = false;
  canvas.appendChild(image);
  drawer.hidden = false;

  var field = function (name, index) { return document.getElementById("opt-" + name + "-" + index); };
  var numbers = function (text) { return text.split(/[\s,]+/).filter(Boolean).map(Number); };
  var active = function () { return parseInt(which.value, 10); };
  var drawing = null;   // the region being dragged: { shape, coords }
  var corners = [];     // a polygon's corners so far, in the picture's pixels

  function say(text) { said.textContent = text || ""; }

  function redraw() {
    var old = canvas.querySelector("svg");
    if (old) old.remove();
    var width = image.naturalWidth, height = image.naturalHeight;
    if (!width || !height) return;
    var svg = hotspot.overlay(width, height), stroke = hotspot.strokeFor(width);
    svg.setAttribute("class", "hotspot-overlay region-overlay");
    Array.prototype.forEach.call(which.options, function (option) {
      var index = parseInt(option.value, 10), coords = field("coords", index);
      if (!coords) return;
      var isActive = index === active();
      var region = isActive && drawing ? drawing : { shape: field("shape", index).value, coords: numbers(coords.value) };
      var drawn = hotspot.shape(region);
      if (!drawn) return;
      drawn.setAttribute("class", isActive ? "drawn-region active" : "drawn-region");
      drawn.setAttribute("stroke-width", stroke);
      svg.appendChild(drawn);
      // Each region carries its option's number, so the picture says which is which.
      var label = document.createElementNS("http://www.w3.org/2000/svg", "text");
      label.setAttribute("x", region.shape === "rect" ? Math.min(region.coords[0], region.coords[2]) + stroke * 2 : region.coords[0]);
      label.setAttribute("y", region.shape === "rect" ? Math.min(region.coords[1], region.coords[3]) + stroke * 8 : region.coords[1]);
      label.setAttribute("font-size", stroke * 8);
      label.setAttribute("class", "region-label");
      label.textContent = String(index + 1);
      svg.appendChild(label);
    });
    if (corners.length) {
      var flat = [].concat.apply([], corners);
      // Two corners are a line; three or more already show the shape closing.
      var path = corners.length > 1 ? hotspot.shape({ shape: "polygon", coords: flat }) : null;
      if (path) { path.setAttribute("class", "drawn-region active"); path.setAttribute("stroke-width", stroke); svg.appendChild(path); }
      corners.forEach(function (corner, position) {
        var dot = hotspot.shape({ shape: "circle", coords: [corner[0], corner[1], stroke * (position === 0 ? 3 : 2)] });
        dot.setAttribute("class", "corner");
        svg.appendChild(dot);
      });
    }
    canvas.appendChild(svg);
  }

  // A region drawn: into its option's fields, as if typed.
  function keep(region) {
    var index = active();
    field("shape", index).value = region.shape;
    field("coords", index).value = region.coords.map(Math.round).join(", ");
    drawing = null;
    corners = [];
    closeButton.hidden = true;
    say(said.getAttribute("data-drawn"));
    redraw();
  }

  function follow() {
    var shape = field("shape", active()).value;
    shapeChoice.value = shape;
    gesture.textContent = gesture.getAttribute("data-" + shape) || "";
    drawing = null;
    corners = [];
    closeButton.hidden = true;
    redraw();
  }

  function load() {
    var src = address.value.trim();
    if (!src) { image.removeAttribute("src"); say(said.getAttribute("data-no-picture")); redraw(); return; }
    if (image.getAttribute("src") !== src) image.src = src;
  }
  image.addEventListener("load", function () { say(""); redraw(); });
  image.addEventListener("error", function () { say(said.getAttribute("data-bad-picture")); redraw(); });
  address.addEventListener("change", load);

  which.addEventListener("change", follow);
  shapeChoice.addEventListener("change", function () {
    field("shape", active()).value = shapeChoice.value;
    follow();
  });
  document.addEventListener("input", function (event) {
    if (/^opt-coords-/.test(event.target.id)) redraw();
    // The list of options says each one's text once it has some.
    var typed = /^opt-text-(\d+)$/.exec(event.target.id);
    if (typed) name(parseInt(typed[1], 10));
  });
  var numbered = {};
  function name(index) {
    var option = which.options[index], text = field("text", index);
    if (!option || !text) return;
    numbered[index] = numbered[index] || option.textContent;
    option.textContent = text.value.trim() ? numbered[index] + " · " + text.value.trim() : numbered[index];
  }
  Array.prototype.forEach.call(which.options, function (_, index) { name(index); });
  document.addEventListener("change", function (event) {
    if (/^opt-shape-/.test(event.target.id)) follow();
  });

  // Rectangles and circles are dragged; a polygon's corners are clicked.
  var start = null;
  image.addEventListener("pointerdown", function (event) {
    if (shapeChoice.value === "polygon" || event.button !== 0) return;
    event.preventDefault();
    image.setPointerCapture(event.pointerId);
    start = hotspot.pointIn(image, event);
  });
  image.addEventListener("pointermove", function (event) {
    if (!start) return;
    var here = hotspot.pointIn(image, event);
    drawing = shapeChoice.value === "circle"
      ? { shape: "circle", coords: [start[0], start[1], Math.hypot(here[0] - start[0], here[1] - start[1])] }
      : { shape: "rect", coords: [Math.min(start[0], here[0]), Math.min(start[1], here[1]), Math.max(start[0], here[0]), Math.max(start[1], here[1])] };
    redraw();
  });
  image.addEventListener("pointerup", function (event) {
    if (shapeChoice.value === "polygon") {
      if (event.button !== 0) return;
      var corner = hotspot.pointIn(image, event);
      // A click near the first corner closes the shape (near: a fingertip, in the picture's pixels).
      var near = 12 * image.naturalWidth / image.getBoundingClientRect().width;
      if (corners.length >= 3 && Math.hypot(corner[0] - corners[0][0], corner[1] - corners[0][1]) <= near) { closePolygon(); return; }
      corners.push(corner);
      closeButton.hidden = corners.length < 3;
      redraw();
      return;
    }
    if (!start) return;
    var region = drawing;
    start = null;
    // A click without a drag draws nothing.
    if (region && (region.shape === "circle" ? region.coords[2] >= 2 : region.coords[2] - region.coords[0] >= 2 && region.coords[3] - region.coords[1] >= 2)) keep(region);
    else { drawing = null; redraw(); }
  });
  function closePolygon() {
    if (corners.length >= 3) keep({ shape: "polygon", coords: [].concat.apply([], corners) });
  }
  closeButton.addEventListener("click", closePolygon);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && (corners.length || drawing)) { corners = []; drawing = null; start = null; closeButton.hidden = true; redraw(); }
  });

  follow();
  load();
})();
