// A question's text written in markdown, shown offline from the tree the bundle carries (the
// JSON of RichTextCoding): the same elements and attributes RichTextHTML writes on the server,
// built with createElement and textContent, never from an HTML string. Held to the server's
// markup by Tests/Fixtures/rich-text-rendering.json, run in Swift and in Chromium.
(function () {
  "use strict";

  var PICTURE = /^\/content-images\/[A-Za-z0-9._-]{1,200}$/;
  var LANGUAGE = /^[a-z0-9+#-]{1,20}$/;

  // RichTextRules.isAllowedLink: https, a host, no blank, control, quote or angle bracket.
  function allowedLink(href) {
    if (typeof href !== "string" || href.length > 2048 || href.indexOf("https://") !== 0 || href.length <= 8) return false;
    var host = href.slice(8).split(/[\/?#]/)[0];
    if (!host || host.indexOf("\\") >= 0) return false;
    for (var i = 0; i < href.length; i++) {
      var code = href.charCodeAt(i);
      if (code <= 0x20 || code === 0x7f || code === 34 || code === 60 || code === 62) return false;
    }
    return true;
  }

  function allowedPicture(source) { return typeof source === "string" && PICTURE.test(source) && source.indexOf("..") < 0; }

  /// A recording's element by its file's extension (RichTextRules.recordingElement), else null.
  function recordingElement(source) {
    var extension = source.split(".").pop();
    return { mp3: "audio", ogg: "audio", m4a: "audio", mp4: "video", webm: "video" }[extension] || null;
  }

  function node(tag, attributes) {
    var made = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    return made;
  }

  // ---- Highlighting: CodeHighlighter's rules, character for character ----------------------

  function words(text) { var set = {}; text.split(" ").forEach(function (word) { set[word] = true; }); return set; }
  var C_FAMILY = "break case char const continue default do double else enum extern float for goto if int long return short signed sizeof static struct switch typedef union unsigned void volatile while";
  function language(keywords, options) {
    var rules = { keywords: words(keywords), caseInsensitive: false, lineComments: [], blockComment: null, quotes: "\"'", spanningQuotes: "", backslashEscapes: true };
    Object.keys(options || {}).forEach(function (name) { rules[name] = options[name]; });
    return rules;
  }
  var PYTHON = language("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield", { lineComments: ["#"] });
  var JAVASCRIPT = language("async await break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof let new null of return static super switch this throw true try typeof undefined var void while yield interface type enum implements private public protected readonly abstract declare namespace",
    { lineComments: ["//"], blockComment: ["/*", "*/"], quotes: "\"'`", spanningQuotes: "`" });
  var JAVA = language("abstract boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long native new null package private protected public return short static super switch synchronized this throw throws transient true false try var void volatile while record",
    { lineComments: ["//"], blockComment: ["/*", "*/"] });
  var C = language(C_FAMILY + " bool true false NULL inline restrict", { lineComments: ["//"], blockComment: ["/*", "*/"] });
  var CPP = language(C_FAMILY + " auto bool catch class constexpr delete explicit false friend inline mutable namespace new noexcept nullptr operator override private protected public template this throw true try typename using virtual",
    { lineComments: ["//"], blockComment: ["/*", "*/"] });
  var CSHARP = language("abstract as async await base bool break byte case catch char class const continue decimal default delegate do double else enum event false finally float for foreach get if in int interface internal is lock long namespace new null object out override private protected public readonly ref return sealed set short static string struct switch this throw true try typeof using var virtual void while",
    { lineComments: ["//"], blockComment: ["/*", "*/"] });
  var GO = language("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil",
    { lineComments: ["//"], blockComment: ["/*", "*/"], quotes: "\"'`", spanningQuotes: "`" });
  var SQL = language("ADD ALL ALTER AND AS ASC BETWEEN BY CASE CREATE DELETE DESC DISTINCT DROP ELSE END EXISTS FALSE FROM FULL GRANT GROUP HAVING IN INDEX INNER INSERT INTO IS JOIN KEY LEFT LIKE LIMIT NOT NULL ON OR ORDER OUTER PRIMARY REFERENCES RIGHT SELECT SET TABLE THEN TRUE UNION UPDATE VALUES VIEW WHEN WHERE WITH COUNT SUM AVG MIN MAX",
    { caseInsensitive: true, lineComments: ["--"], blockComment: ["/*", "*/"], quotes: "'\"", backslashEscapes: false });
  var SHELL = language("if then else elif fi for while until do done case esac in function return export local readonly echo exit set unset", { lineComments: ["#"] });
  var YAML = language("true false null yes no on off", { lineComments: ["#"] });
  var JSON_RULES = language("true false null", { quotes: "\"" });
  var HCL = language("resource data variable output module provider locals terraform for in if true false null count each", { lineComments: ["#", "//"], blockComment: ["/*", "*/"], quotes: "\"" });
  var POWERSHELL = language("begin break catch class continue data do dynamicparam else elseif end exit filter finally for foreach from function if in param process return switch throw trap try until using var while",
    { caseInsensitive: true, lineComments: ["#"], blockComment: ["<#", "#>"], backslashEscapes: false });
  var LANGUAGES = {
    python: PYTHON, py: PYTHON, javascript: JAVASCRIPT, js: JAVASCRIPT, typescript: JAVASCRIPT, ts: JAVASCRIPT, java: JAVA, c: C, cpp: CPP, "c++": CPP,
    csharp: CSHARP, "c#": CSHARP, cs: CSHARP, go: GO, sql: SQL, shell: SHELL, bash: SHELL, sh: SHELL, yaml: YAML, yml: YAML, json: JSON_RULES,
    hcl: HCL, terraform: HCL, powershell: POWERSHELL, ps1: POWERSHELL
  };

  function isDigit(c) { return c >= "0" && c <= "9"; }
  function isIdentifier(c, first) { return c === "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (!first && isDigit(c)); }

  // The listing as [kind, text] tokens; null for a language without rules.
  function tokens(code, name) {
    var rules = Object.prototype.hasOwnProperty.call(LANGUAGES, name) ? LANGUAGES[name] : null;
    if (!rules) return null;
    var chars = Array.from(code), out = [], plain = "", index = 0;
    function text(from, to) { return chars.slice(from, to).join(""); }
    function emit(kind, from, to) { if (plain) { out.push(["plain", plain]); plain = ""; } out.push([kind, text(from, to)]); }
    function starts(mark, at) {
      var marks = Array.from(mark);
      for (var i = 0; i < marks.length; i++) if (chars[at + i] !== marks[i]) return false;
      return true;
    }
    while (index < chars.length) {
      var c = chars[index], previous = index > 0 ? chars[index - 1] : null, end;
      var afterBlank = previous === null || previous === " " || previous === "\t" || previous === "\n";
      var comment = null;
      for (var k = 0; k < rules.lineComments.length; k++) {
        if (starts(rules.lineComments[k], index) && (rules.lineComments[k] !== "#" || afterBlank)) { comment = rules.lineComments[k]; break; }
      }
      if (rules.blockComment && starts(rules.blockComment[0], index)) {
        end = index + Array.from(rules.blockComment[0]).length;
        while (end < chars.length && !starts(rules.blockComment[1], end)) end++;
        end = Math.min(chars.length, end + Array.from(rules.blockComment[1]).length);
        emit("comment", index, end); index = end;
      } else if (comment !== null) {
        end = index + Array.from(comment).length;
        while (end < chars.length && chars[end] !== "\n") end++;
        emit("comment", index, end); index = end;
      } else if (rules.quotes.indexOf(c) >= 0) {
        var spans = rules.spanningQuotes.indexOf(c) >= 0;
        end = index + 1;
        while (end < chars.length && chars[end] !== c && (spans || chars[end] !== "\n")) {
          end += rules.backslashEscapes && chars[end] === "\\" && end + 1 < chars.length && chars[end + 1] !== "\n" ? 2 : 1;
        }
        if (end < chars.length && chars[end] === c) end++;
        emit("string", index, end); index = end;
      } else if (isDigit(c) && !(previous !== null && isIdentifier(previous, false))) {
        end = index + 1;
        while (end < chars.length && (chars[end] === "." || isIdentifier(chars[end], false))) end++;
        emit("number", index, end); index = end;
      } else if (isIdentifier(c, true) && !(previous !== null && (isIdentifier(previous, false) || previous === "$" || previous === "-"))) {
        end = index + 1;
        while (end < chars.length && isIdentifier(chars[end], false)) end++;
        var word = text(index, end);
        // A word joined to a hyphen is a name (`ForEach-Object`, `-in`), never a keyword.
        var joined = end < chars.length && chars[end] === "-";
        var keyword = !joined && (rules.keywords[rules.caseInsensitive ? word.toUpperCase() : word] === true || (rules.caseInsensitive && rules.keywords[word.toLowerCase()] === true));
        if (keyword) emit("keyword", index, end); else plain += word;
        index = end;
      } else {
        plain += c; index++;
      }
    }
    if (plain) out.push(["plain", plain]);
    return out;
  }

  function appendCode(code, text, name) {
    var list = name ? tokens(text, name) : null;
    if (!list) { code.textContent = text; return; }
    list.forEach(function (token) {
      if (token[0] === "plain") { code.appendChild(document.createTextNode(token[1])); return; }
      var span = node("span", { "class": "tok-" + token[0] });
      span.textContent = token[1];
      code.appendChild(span);
    });
  }

  // ---- Formulas: MathNode's elements and attributes only, in MathML's namespace ------------

  var MATHML = "http://www.w3.org/1998/Math/MathML";
  var MATH_ELEMENTS = words("mrow mi mn mo mtext mspace msup msub msubsup mfrac msqrt mroot mover munder munderover mtable mtr mtd mstyle");
  var MATH_ATTRIBUTES = words("mathvariant stretchy fence largeop movablelimits accent accentunder linethickness width lspace rspace displaystyle scriptlevel");

  function mathNode(parent, value) {
    if (typeof value.text === "string") { parent.appendChild(document.createTextNode(value.text)); return; }
    if (MATH_ELEMENTS[value.name] !== true) return;
    var made = document.createElementNS(MATHML, value.name);
    Object.keys(value.attrs || {}).sort().forEach(function (name) { if (MATH_ATTRIBUTES[name] === true) made.setAttribute(name, value.attrs[name]); });
    (value.children || []).forEach(function (child) { mathNode(made, child); });
    parent.appendChild(made);
  }

  function formula(math, display) {
    var root = document.createElementNS(MATHML, "math");
    if (display) root.setAttribute("display", "block");
    var semantics = document.createElementNS(MATHML, "semantics");
    mathNode(semantics, math.mathml);
    var annotation = document.createElementNS(MATHML, "annotation");
    annotation.setAttribute("encoding", "application/x-tex");
    annotation.textContent = math.tex;
    semantics.appendChild(annotation);
    root.appendChild(semantics);
    return root;
  }

  function appendInlines(parent, inlines) {
    (inlines || []).forEach(function (inline) {
      var made;
      switch (inline.type) {
        case "text": parent.appendChild(document.createTextNode(inline.text)); return;
        case "emphasis": made = node("em"); break;
        case "strong": made = node("strong"); break;
        case "sub": made = node("sub"); break;
        case "sup": made = node("sup"); break;
        case "code": made = node("code"); made.textContent = inline.text; parent.appendChild(made); return;
        case "break": parent.appendChild(node("br")); return;
        case "math": parent.appendChild(formula(inline, false)); return;
        case "ruby":
          made = node("ruby");
          made.appendChild(document.createTextNode(inline.base));
          [["rp", "("], ["rt", inline.reading], ["rp", ")"]].forEach(function (part) {
            var child = node(part[0]);
            child.textContent = part[1];
            made.appendChild(child);
          });
          parent.appendChild(made);
          return;
        case "link":
          // A target outside the rules is no link at all: its words stay.
          if (!allowedLink(inline.href)) { appendInlines(parent, inline.inlines); return; }
          made = node("a", { href: inline.href, rel: "noopener noreferrer nofollow" });
          break;
        default: return;
      }
      appendInlines(made, inline.inlines);
      parent.appendChild(made);
    });
  }

  function alignment(table, column) {
    var value = table.align[column] || "none";
    return value === "none" ? {} : { "class": "align-" + value };
  }

  function appendBlocks(parent, blocks) {
    (blocks || []).forEach(function (block) {
      switch (block.type) {
        case "paragraph": {
          var paragraph = node("p");
          appendInlines(paragraph, block.inlines);
          parent.appendChild(paragraph);
          break;
        }
        case "code": {
          var pre = node("pre", { "class": "code", tabindex: "0" });
          var known = block.language && LANGUAGE.test(block.language);
          var code = node("code", known ? { "data-language": block.language } : {});
          appendCode(code, block.text, known ? block.language : null);
          pre.appendChild(code);
          parent.appendChild(pre);
          break;
        }
        case "list": {
          var start = block.start === undefined ? 1 : block.start;
          var list = node(block.ordered ? "ol" : "ul", block.ordered && start !== 1 ? { start: String(start) } : {});
          block.items.forEach(function (item) {
            var li = node("li");
            // An item's leading paragraph followed by nothing but lists is its text (a tight list).
            var tight = item.length > 0 && item[0].type === "paragraph" && item.slice(1).every(function (inner) { return inner.type === "list"; });
            if (tight) {
              appendInlines(li, item[0].inlines);
              appendBlocks(li, item.slice(1));
            } else {
              appendBlocks(li, item);
            }
            list.appendChild(li);
          });
          parent.appendChild(list);
          break;
        }
        case "table": {
          var scroll = node("div", { "class": "table-scroll", tabindex: "0" });
          var table = node("table");
          if (block.caption) { var caption = node("caption"); appendInlines(caption, block.caption); table.appendChild(caption); }
          var head = node("thead"), headRow = node("tr");
          block.header.forEach(function (cell, column) {
            var attributes = alignment(block, column);
            attributes.scope = "col";
            var th = node("th", attributes);
            appendInlines(th, cell);
            headRow.appendChild(th);
          });
          var body = node("tbody");
          // A table of a header alone has its row in the body (RichTextHTML.table).
          if (block.rows.length === 0) body.appendChild(headRow); else { head.appendChild(headRow); table.appendChild(head); }
          block.rows.forEach(function (row) {
            var tr = node("tr");
            row.forEach(function (cell, column) { var td = node("td", alignment(block, column)); appendInlines(td, cell); tr.appendChild(td); });
            body.appendChild(tr);
          });
          table.appendChild(body);
          scroll.appendChild(table);
          parent.appendChild(scroll);
          break;
        }
        case "math": {
          var box = node("div", { "class": "formula", tabindex: "0" });
          box.appendChild(formula(block, true));
          parent.appendChild(box);
          break;
        }
        case "quote": {
          var quote = node("blockquote");
          appendBlocks(quote, block.blocks);
          parent.appendChild(quote);
          break;
        }
        case "picture": {
          if (!allowedPicture(block.src)) return;
          var element = recordingElement(block.src);
          if (element) {
            // A recording plays with the browser's own controls; its words (a transcript) stand under it.
            var recording = node("figure", { "class": "recording" });
            recording.appendChild(node(element, { controls: "", preload: element === "video" ? "metadata" : "none", src: block.src }));
            var words = node("figcaption");
            if (block.caption) {
              var title = node("strong"); title.textContent = block.caption;
              words.appendChild(title); words.appendChild(node("br"));
            }
            var transcript = node("span", { "class": "transcript" }); transcript.textContent = block.alt;
            words.appendChild(transcript);
            recording.appendChild(words);
            parent.appendChild(recording);
            break;
          }
          var figure = node("figure", { "class": "exhibit" });
          var link = node("a", { href: block.src });
          link.appendChild(node("img", { src: block.src, alt: block.alt, loading: "lazy" }));
          figure.appendChild(link);
          if (block.caption) { var figcaption = node("figcaption"); figcaption.textContent = block.caption; figure.appendChild(figcaption); }
          parent.appendChild(figure);
          break;
        }
        default: break;
      }
    });
  }

  /// A tree's blocks into a fragment; an option's one paragraph as its inlines.
  window.PortalRichText = {
    blocks: function (blocks) { var fragment = document.createDocumentFragment(); appendBlocks(fragment, blocks); return fragment; },
    inlines: function (text) {
      var fragment = document.createDocumentFragment();
      if (text && text.length && text[0].type === "paragraph") appendInlines(fragment, text[0].inlines);
      return fragment;
    }
  };
})();
