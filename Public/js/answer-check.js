// Answer checking for offline study: the rules of QuestionEngine's AnswerChecker, line for
// line. The verdict shown offline is only feedback — the server checks every uploaded answer
// again — but it must agree with what the server will record, so both implementations (and the
// database's) run the shared cases in Tests/Fixtures/answer-checking.json.
(function (scope) {
  "use strict";

  /// A response that is not an answer at all (as opposed to a wrong answer). `code` is one of
  /// "empty", "outOfRange", "duplicate", "wrongCount", "wrongShape" or "tooLong".
  function AnswerError(code, detail) {
    this.name = "AnswerError";
    this.code = code;
    this.detail = detail;
    this.message = code;
  }
  AnswerError.prototype = Object.create(Error.prototype);

  // The blanks a typed answer is trimmed of and whose inner runs become one space
  // (FillInRule.blanks): ASCII blanks, no-break, typographic and ideographic spaces.
  var BLANKS = "[ \\t\\n\\r\\v\\f\\u00a0\\u2000-\\u200a\\u202f\\u205f\\u3000]";
  var EDGES = new RegExp("^" + BLANKS + "+|" + BLANKS + "+$", "g"), RUNS = new RegExp(BLANKS + "+", "g");
  var MAXIMUM_LENGTH = 200;

  /// A typed answer in NFC, trimmed, each inner run of blanks one space.
  function normalized(text) {
    return String(text).normalize("NFC").replace(EDGES, "").replace(RUNS, " ");
  }

  /// The number a normalised answer states, or null: full-width digits and signs read as
  /// ASCII, one decimal separator (a point or a comma).
  function number(text) {
    var ascii = Array.from(text).map(function (c) {
      var code = c.codePointAt(0);
      if (code >= 0xff10 && code <= 0xff19) return String.fromCharCode(code - 0xff10 + 0x30);
      return { "．": ".", "，": ",", "＋": "+", "－": "-", "−": "-" }[c] || c;
    }).join("");
    if (ascii.indexOf(",") >= 0) {
      if (ascii.indexOf(".") >= 0) return null;
      ascii = ascii.replace(/,/g, ".");
    }
    if (!/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/.test(ascii)) return null;
    return parseFloat(ascii);
  }

  // Whether a region's coordinates make its shape, and whether a point lies in it (edges of
  // rectangles and circles included, polygons by the even-odd rule).
  function wellFormed(region) {
    var c = region && region.coords;
    if (!Array.isArray(c) || !c.every(function (v) { return typeof v === "number" && isFinite(v) && v >= 0 && v <= 100000; })) return false;
    if (region.shape === "rect") return c.length === 4 && c[0] < c[2] && c[1] < c[3];
    if (region.shape === "circle") return c.length === 3 && c[2] > 0;
    if (region.shape === "polygon") return c.length % 2 === 0 && c.length >= 6 && c.length <= 100;
    return false;
  }

  function contains(region, x, y) {
    if (!wellFormed(region)) return false;
    var c = region.coords;
    if (region.shape === "rect") return x >= c[0] && x <= c[2] && y >= c[1] && y <= c[3];
    if (region.shape === "circle") {
      var dx = x - c[0], dy = y - c[1];
      return dx * dx + dy * dy <= c[2] * c[2];
    }
    var inside = false, count = c.length / 2, j = count - 1;
    for (var i = 0; i < count; i += 1) {
      var xi = c[2 * i], yi = c[2 * i + 1], xj = c[2 * j], yj = c[2 * j + 1];
      if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
      j = i;
    }
    return inside;
  }

  /// The first region a point lies in, or -1.
  function regionAt(options, x, y) {
    for (var i = 0; i < options.length; i += 1) if (contains(options[i].region, x, y)) return i;
    return -1;
  }

  // The longest subsequence of `response` in the key's relative order (patience sorting).
  function longestCorrectlyOrdered(response, key) {
    var position = new Map();
    key.forEach(function (option, index) { position.set(option, index); });
    var tails = [];
    response.forEach(function (option) {
      if (!position.has(option)) return;
      var value = position.get(option), low = 0, high = tails.length;
      while (low < high) {
        var middle = (low + high) >> 1;
        if (tails[middle] < value) low = middle + 1; else high = middle;
      }
      tails[low] = value;
    });
    return tails.length;
  }

  /// The shape of a stored response: {shape, value}, or throws wrongShape / outOfRange.
  function shapeOf(response) {
    function integers(items) {
      items.forEach(function (item) { if (typeof item !== "number") throw new AnswerError("wrongShape"); });
      items.forEach(function (item) { if (!Number.isInteger(item)) throw new AnswerError("outOfRange", item); });
      return items;
    }
    if (Array.isArray(response)) return { shape: "indexes", value: integers(response) };
    if (response && typeof response === "object" && Object.keys(response).length === 1) {
      if (Array.isArray(response.pairs)) return { shape: "pairs", value: integers(response.pairs) };
      if (typeof response.text === "string") return { shape: "text", value: response.text };
      if (Array.isArray(response.gaps)) {
        if (!response.gaps.every(function (v) { return typeof v === "string"; })) throw new AnswerError("wrongShape");
        return { shape: "gaps", value: response.gaps };
      }
      var point = response.point;
      if (Array.isArray(point) && point.length === 2 && point.every(function (v) { return typeof v === "number" && isFinite(v); })) {
        return { shape: "point", value: point };
      }
    }
    throw new AnswerError("wrongShape");
  }

  // Option indexes: present, in range, each once.
  function indexes(given, bound) {
    if (given.shape !== "indexes") throw new AnswerError("wrongShape");
    if (given.value.length === 0) throw new AnswerError("empty");
    var seen = new Set();
    given.value.forEach(function (index) {
      if (index < 0 || index >= bound) throw new AnswerError("outOfRange", index);
      if (seen.has(index)) throw new AnswerError("duplicate", index);
      seen.add(index);
    });
    return given.value;
  }

  function verdict(right) { return { isCorrect: right, score: right ? 1 : 0 }; }

  /// The verdict on a typed answer (normalised, not empty) by a fill-in question's rule or a
  /// cloze gap's ({accepted, match, tolerance, partial}): right when it is an accepted answer,
  /// else the best share of the partly right answers it is.
  function typedOutcome(rule, answer) {
    var accepted = rule.accepted || [], match = rule.match || "exact", tolerance = rule.tolerance || 0;
    var value = match === "numeric" ? number(answer) : null;
    var matches = function (expected, within) {
      if (match === "exact") return normalized(expected) === answer;
      if (match === "case-insensitive") return normalized(expected).toLowerCase() === answer.toLowerCase();
      var n = number(normalized(expected));
      return value !== null && n !== null && Math.abs(value - n) <= within;
    };
    if (accepted.some(function (a) { return matches(a, tolerance); })) return verdict(true);
    var share = 0;
    (rule.partial || []).forEach(function (p) {
      if (matches(p.answer, p.tolerance === undefined ? tolerance : p.tolerance)) share = Math.max(share, p.share);
    });
    return { isCorrect: false, score: share };
  }

  /// Checks `response` (in its stored shape) against `question` ({type, options, correct,
  /// details}). Returns {isCorrect, score} with score from 0 to 1, or throws AnswerError.
  function check(question, response) {
    var given = shapeOf(response), key = question.correct || [], options = question.options || [], details = question.details || {};
    switch (question.type) {
      case "single-choice":
      case "code-snippet": {
        var picks = indexes(given, options.length);
        if (picks.length !== 1) throw new AnswerError("wrongCount", { expected: 1, got: picks.length });
        return verdict(key.indexOf(picks[0]) !== -1);
      }
      case "multi-choice": {
        var chosen = indexes(given, options.length), keySet = new Set(key);
        var rightPicks = chosen.filter(function (index) { return keySet.has(index); }).length;
        var wrongPicks = chosen.length - rightPicks;
        // Right picks minus wrong picks, floored at zero, as a share of the key.
        return { isCorrect: rightPicks === keySet.size && wrongPicks === 0, score: Math.max(0, rightPicks - wrongPicks) / keySet.size };
      }
      case "ordering": {
        var order = indexes(given, key.length);
        if (order.length !== key.length) throw new AnswerError("wrongCount", { expected: key.length, got: order.length });
        var same = order.every(function (option, index) { return option === key[index]; });
        return { isCorrect: same, score: longestCorrectlyOrdered(order, key) / key.length };
      }
      case "matching": {
        if (given.shape !== "pairs") throw new AnswerError("wrongShape");
        var pairs = given.value, targets = (details.targets || []).length;
        if (pairs.length === 0) throw new AnswerError("empty");
        if (pairs.length !== key.length) throw new AnswerError("wrongCount", { expected: key.length, got: pairs.length });
        pairs.forEach(function (target) { if (target < 0 || target >= targets) throw new AnswerError("outOfRange", target); });
        var right = pairs.filter(function (target, index) { return target === key[index]; }).length;
        return { isCorrect: right === key.length, score: right / key.length };
      }
      case "fill-in": {
        if (given.shape !== "text") throw new AnswerError("wrongShape");
        var answer = normalized(given.value);
        if (answer === "") throw new AnswerError("empty");
        if (Array.from(answer).length > MAXIMUM_LENGTH) throw new AnswerError("tooLong");
        return typedOutcome(details, answer);
      }
      case "cloze": {
        if (given.shape !== "gaps") throw new AnswerError("wrongShape");
        var gaps = details.gaps || [], typed = given.value.map(normalized);
        if (typed.length !== gaps.length) throw new AnswerError("wrongCount", { expected: gaps.length, got: typed.length });
        if (typed.every(function (t) { return t === ""; })) throw new AnswerError("empty");
        var marks = 0, total = 0, all = true;
        gaps.forEach(function (gap, index) {
          var text = typed[index], weight = gap.weight || 1;
          if (Array.from(text).length > MAXIMUM_LENGTH) throw new AnswerError("tooLong");
          // A choice gap takes only one of its choices (or nothing).
          if (gap.choices && text !== "" && !gap.choices.some(function (c) { return normalized(c) === text; })) throw new AnswerError("outOfRange", index);
          var outcome = text === "" ? verdict(false) : typedOutcome(gap, text);
          marks += outcome.score * weight;
          total += weight;
          all = all && outcome.isCorrect;
        });
        return { isCorrect: all, score: total > 0 ? marks / total : 0 };
      }
      case "hotspot": {
        if (given.shape === "point") {
          // The first region the point lies in is the one picked; outside them all is a miss.
          var picked = regionAt(options, given.value[0], given.value[1]);
          return verdict(picked >= 0 && key.indexOf(picked) >= 0);
        }
        var regions = indexes(given, options.length);
        if (regions.length !== 1) throw new AnswerError("wrongCount", { expected: 1, got: regions.length });
        return verdict(key.indexOf(regions[0]) >= 0);
      }
      default:
        throw new AnswerError("wrongShape", question.type);
    }
  }

  scope.PortalAnswerCheck = { check: check, AnswerError: AnswerError, normalized: normalized, regionAt: regionAt };
})(self);
