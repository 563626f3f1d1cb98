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

  function node(tag, attributes) {
    var made = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    return made;
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
          var code = node("code", block.language && LANGUAGE.test(block.language) ? { "data-language": block.language } : {});
          code.textContent = block.text;
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
          head.appendChild(headRow);
          table.appendChild(head);
          var body = node("tbody");
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
        case "quote": {
          var quote = node("blockquote");
          appendBlocks(quote, block.blocks);
          parent.appendChild(quote);
          break;
        }
        case "picture": {
          if (!allowedPicture(block.src)) return;
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
