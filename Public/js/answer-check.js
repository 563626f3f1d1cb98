// Answer checking for offline study: the rules of QuestionEngine's AnswerChecker, line for
// line. The verdict shown offline is only feedback — the server checks every uploaded answer
// again — but it must agree with what the server will record, so both implementations run the
// shared cases in Tests/Fixtures/answer-checking.json.
(function (scope) {
  "use strict";

  /// A response that is not an answer at all (as opposed to a wrong answer). `code` is one of
  /// "empty", "outOfRange", "duplicate", "wrongCount" or "kind".
  function AnswerError(code, detail) {
    this.name = "AnswerError";
    this.code = code;
    this.detail = detail;
    this.message = code;
  }
  AnswerError.prototype = Object.create(Error.prototype);

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

  /// Checks `response` (chosen option indexes; for ordering, the options in the order given)
  /// against `key`. Returns {isCorrect, score} with score from 0 to 1, or throws AnswerError.
  function check(kind, key, optionCount, response) {
    if (!Array.isArray(response) || response.length === 0) throw new AnswerError("empty");
    var seen = new Set();
    response.forEach(function (index) {
      if (!Number.isInteger(index) || index < 0 || index >= optionCount) throw new AnswerError("outOfRange", index);
      if (seen.has(index)) throw new AnswerError("duplicate", index);
      seen.add(index);
    });
    switch (kind) {
      case "single-choice":
      case "code-snippet": {
        if (response.length !== 1) throw new AnswerError("wrongCount", { expected: 1, got: response.length });
        var right = response[0] === key[0];
        return { isCorrect: right, score: right ? 1 : 0 };
      }
      case "multi-choice": {
        var keySet = new Set(key);
        var rightPicks = response.filter(function (index) { return keySet.has(index); }).length;
        var wrongPicks = response.length - rightPicks;
        var exact = rightPicks === keySet.size && wrongPicks === 0;
        // Right picks minus wrong picks, floored at zero, as a share of the key.
        return { isCorrect: exact, score: Math.max(0, rightPicks - wrongPicks) / keySet.size };
      }
      case "ordering": {
        if (response.length !== optionCount) throw new AnswerError("wrongCount", { expected: optionCount, got: response.length });
        var same = response.length === key.length && response.every(function (option, index) { return option === key[index]; });
        return { isCorrect: same, score: longestCorrectlyOrdered(response, key) / key.length };
      }
      default:
        throw new AnswerError("kind", kind);
    }
  }

  scope.PortalAnswerCheck = { check: check, AnswerError: AnswerError };
})(self);
