// Hotspot pictures: a point of a picture in the picture's own pixels, and regions drawn over it
// in those pixels. Used by the question pages (a tap), the feedback and results (the right parts
// outlined, the tap marked), the offline study page (the same, drawn as it goes) and the question
// editor (regions drawn with a pointer). Regions are { shape: "rect" | "circle" | "polygon",
// coords: [...] } as the server stores them. The pages say everything in words without it.
(function (scope) {
  "use strict";
  var svgNS = "http://www.w3.org/2000/svg";

  // Where a pointer event falls on an image, in the image's own pixels (to a tenth).
  function pointIn(image, event) {
    var rect = image.getBoundingClientRect();
    var width = image.naturalWidth || rect.width, height = image.naturalHeight || rect.height;
    var x = (event.clientX - rect.left) * width / rect.width, y = (event.clientY - rect.top) * height / rect.height;
    var clamp = function (value, most) { return Math.round(Math.min(Math.max(value, 0), most) * 10) / 10; };
    return [clamp(x, width), clamp(y, height)];
  }

  // One region as an SVG shape, or null when its coordinates do not make one.
  function shape(region) {
    var c = region && region.coords, element;
    if (!c || !c.every(isFinite)) return null;
    if (region.shape === "rect" && c.length === 4) {
      element = document.createElementNS(svgNS, "rect");
      element.setAttribute("x", Math.min(c[0], c[2])); element.setAttribute("y", Math.min(c[1], c[3]));
      element.setAttribute("width", Math.abs(c[2] - c[0])); element.setAttribute("height", Math.abs(c[3] - c[1]));
    } else if (region.shape === "circle" && c.length === 3) {
      element = document.createElementNS(svgNS, "circle");
      element.setAttribute("cx", c[0]); element.setAttribute("cy", c[1]); element.setAttribute("r", Math.max(c[2], 0));
    } else if (region.shape === "polygon" && c.length >= 4 && c.length % 2 === 0) {
      element = document.createElementNS(svgNS, c.length >= 6 ? "polygon" : "polyline");
      element.setAttribute("points", c.join(" "));
    } else {
      return null;
    }
    return element;
  }

  // An empty overlay for a picture of this size, laid over it by the style sheet; the picture's
  // words (its list of parts) say what it shows, so the drawing is hidden from screen readers.
  function overlay(width, height) {
    var svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.setAttribute("class", "hotspot-overlay");
    svg.setAttribute("aria-hidden", "true");
    return svg;
  }

  // A line width that reads at any picture size.
  function strokeFor(width) { return Math.max(2, width / 150); }

  // The feedback's picture: the right parts (data-key) outlined and the tap (data-tap) marked,
  // once the picture's size is known.
  function outline(box) {
    var image = box.querySelector("img");
    if (!image) return;
    var draw = function () {
      var width = image.naturalWidth, height = image.naturalHeight;
      if (!width || !height || box.querySelector("svg")) return;
      var regions, key;
      try { regions = JSON.parse(box.getAttribute("data-regions") || "[]"); key = JSON.parse(box.getAttribute("data-key") || "[]"); } catch (problem) { return; }
      var svg = overlay(width, height), stroke = strokeFor(width);
      key.forEach(function (index) {
        var drawn = shape(regions[index]);
        if (!drawn) return;
        drawn.setAttribute("class", "key-region");
        drawn.setAttribute("stroke-width", stroke);
        svg.appendChild(drawn);
      });
      var tap = (box.getAttribute("data-tap") || "").split(" ").map(parseFloat);
      if (tap.length === 2 && isFinite(tap[0]) && isFinite(tap[1])) {
        var dot = shape({ shape: "circle", coords: [tap[0], tap[1], stroke * 4] });
        dot.setAttribute("class", "tap-mark");
        dot.setAttribute("stroke-width", stroke);
        svg.appendChild(dot);
      }
      box.appendChild(svg);
    };
    if (image.complete) draw(); else image.addEventListener("load", draw);
  }

  if (typeof document !== "undefined") {
    // A click on a hotspot image: the point in the image's own coordinates goes with the form
    // (the server decides which part it is), the part it falls in is chosen in the list, and a
    // mark shows where. Choosing from the list afterwards sends that choice instead.
    document.addEventListener("click", function (event) {
      var image = event.target;
      if (!image || !image.classList || !image.classList.contains("hotspot-image")) return;
      var form = image.closest("form"), box = image.closest(".hotspot");
      if (!form || !box || !form.elements.point_x) return;
      var rect = image.getBoundingClientRect();
      var point = pointIn(image, event), x = point[0], y = point[1];
      form.elements.point_x.value = String(x);
      form.elements.point_y.value = String(y);
      var regions = [];
      try { regions = JSON.parse(box.getAttribute("data-regions") || "[]"); } catch (problem) { regions = []; }
      var picked = self.PortalAnswerCheck ? self.PortalAnswerCheck.regionAt(regions.map(function (region) { return { region: region }; }), x, y) : -1;
      Array.prototype.forEach.call(form.querySelectorAll('input[name="choice"]'), function (input) { input.checked = parseInt(input.value, 10) === picked; });
      // A tap outside every part is asked again (the server would refuse it too), said beside the picture.
      var outside = box.getAttribute("data-outside"), said = box.parentNode.querySelector(".hotspot-miss");
      if (outside && picked === -1 && regions.length) {
        form.elements.point_x.value = "";
        form.elements.point_y.value = "";
        var old = box.querySelector(".hotspot-mark");
        if (old) old.remove();
        if (!said) {
          said = document.createElement("p");
          said.className = "hotspot-miss notice";
          said.setAttribute("role", "status");
          box.parentNode.insertBefore(said, box.nextSibling);
        }
        said.textContent = outside;
        return;
      }
      if (said) said.remove();
      var mark = box.querySelector(".hotspot-mark") || box.appendChild(document.createElement("span"));
      mark.className = "hotspot-mark";
      mark.style.left = (event.clientX - rect.left) + "px";
      mark.style.top = (event.clientY - rect.top) + "px";
    });
    document.addEventListener("change", function (event) {
      var input = event.target, form = input && input.form;
      if (!form || input.name !== "choice" || !form.elements.point_x) return;
      form.elements.point_x.value = "";
      form.elements.point_y.value = "";
      var mark = form.querySelector(".hotspot-mark");
      if (mark) mark.remove();
    });
  }

  scope.PortalHotspot = { pointIn: pointIn, shape: shape, overlay: overlay, strokeFor: strokeFor, outline: outline };
  if (typeof document !== "undefined") {
    Array.prototype.forEach.call(document.querySelectorAll(".hotspot-review[data-regions]"), outline);
  }
})(typeof self !== "undefined" ? self : this);
