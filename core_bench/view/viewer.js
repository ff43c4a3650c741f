(function () {
  "use strict";
  var INDEX = JSON.parse(document.getElementById("cb-index").textContent);
  var FACETS = ["model", "task", "strategy", "verdict", "family", "probe_kind"];
  var LABELS = {model: "model", task: "task kind", strategy: "strategy", verdict: "verdict",
                family: "family",
                probe_kind: "probe kind"};
  var pages = {};
  var current = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) { for (var key in attrs) { node.setAttribute(key, attrs[key]); } }
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function text(tag, value, cls) {
    var node = document.createElement(tag);
    node.textContent = value === null || value === undefined ? "" : String(value);
    if (cls) { node.className = cls; }
    return node;
  }

  function readHash() {
    var state = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      if (!part) { return; }
      var kv = part.split("=");
      state[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
    });
    return state;
  }
  function writeHash(state) {
    var parts = [];
    Object.keys(state).forEach(function (key) {
      if (state[key]) { parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(state[key])); }
    });
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (location.hash !== hash) { history.replaceState(null, "", location.pathname + hash); }
  }

  function buildFilters() {
    var box = document.getElementById("filters");
    var state = readHash();
    FACETS.forEach(function (facet) {
      var values = INDEX.facets[facet] || [];
      var select = el("select", {id: "filter-" + facet, "data-facet": facet});
      select.appendChild(text("option", "any"));
      select.options[0].value = "";
      values.forEach(function (value) {
        var option = text("option", value);
        option.value = value;
        select.appendChild(option);
      });
      if (state[facet]) { select.value = state[facet]; }
      select.addEventListener("change", function () { applyFilters(true); });
      box.appendChild(el("label", {}, [LABELS[facet], select]));
    });
  }

  function filterState() {
    var state = {};
    FACETS.forEach(function (facet) {
      var value = document.getElementById("filter-" + facet).value;
      if (value) { state[facet] = value; }
    });
    return state;
  }

  function matches(entry, state) {
    if (!Object.keys(state).length) { return true; }
    return entry.signature.some(function (sig) {
      return FACETS.every(function (facet, i) { return !state[facet] || sig[i] === state[facet]; });
    });
  }

  function applyFilters(remember) {
    var state = filterState();
    var list = document.getElementById("list");
    list.textContent = "";
    var shown = INDEX.problems.filter(function (entry) { return matches(entry, state); });
    list.appendChild(text("div", shown.length + " of " + INDEX.problems.length + " problems", "count"));
    shown.forEach(function (entry) {
      var button = el("button", {"data-problem": entry.id}, [
        text("span", entry.id),
        text("span", entry.correct + "/" + entry.samples + " right", "score")
      ]);
      if (entry.id === current) { button.className = "active"; }
      button.addEventListener("click", function () { open(entry.id); });
      list.appendChild(button);
    });
    var hash = Object.assign({}, state);
    if (current) { hash.problem = current; }
    if (remember) { writeHash(hash); }
    document.body.setAttribute("data-shown", String(shown.length));
  }

  window.coreBenchLoad = function (id, page) { pages[id] = page; if (id === current) { render(); } };

  function open(id) {
    current = id;
    var hash = filterState();
    hash.problem = id;
    writeHash(hash);
    Array.prototype.forEach.call(document.querySelectorAll("#list button"), function (b) {
      b.className = b.getAttribute("data-problem") === id ? "active" : "";
    });
    if (pages[id]) { render(); return; }
    var entry = INDEX.problems.filter(function (e) { return e.id === id; })[0];
    if (!entry) { return; }
    var detail = document.getElementById("detail");
    detail.textContent = "";
    detail.appendChild(text("div", "loading " + id + " ...", "empty"));
    document.body.appendChild(el("script", {src: "data/" + entry.file}));
  }

  function codeBlock(code, marked, cls, highlight) {
    var box = el("pre", {"class": "code"});
    code.split("\n").forEach(function (line, i) {
      var row = el("div", {}, [text("span", i + 1, "num"), line]);
      if (marked && marked.indexOf(i) >= 0) { row.className = cls; }
      if (highlight === i) { row.className = "diverge"; }
      box.appendChild(row);
    });
    return box;
  }

  function sampleTable(rows, columns) {
    var table = el("table");
    table.appendChild(el("tr", {}, columns.map(function (c) { return text("th", c[0]); })));
    rows.forEach(function (row) {
      table.appendChild(el("tr", {}, columns.map(function (c) {
        var cell = text("td", c[1](row), c[2] || "");
        if (c[0] === "verdict") { cell.className = "verdict-" + row.verdict; }
        return cell;
      })));
    });
    return table;
  }


  // One row per question, one answer and verdict column pair per model: models side by side.
  function byModel(rows, keyOf, columns, monoColumn) {
    var models = INDEX.models.filter(function (m) {
      return rows.some(function (r) { return r.model === m; });
    });
    var groups = [], seen = {};
    rows.forEach(function (r) {
      var key = JSON.stringify(keyOf(r));
      if (!(key in seen)) { seen[key] = groups.length; groups.push({key: keyOf(r), by: {}}); }
      groups[seen[key]].by[r.model] = r;
    });
    var table = el("table", {"class": "answers"});
    var head = columns.map(function (c) { return text("th", c[0]); });
    models.forEach(function (m) { head.push(text("th", m)); head.push(text("th", "verdict")); });
    table.appendChild(el("tr", {}, head));
    groups.forEach(function (group) {
      var cells = columns.map(function (c) {
        return text("td", group.key[c[1]], c[1] === monoColumn ? "mono" : "");
      });
      models.forEach(function (m) {
        var r = group.by[m];
        var answer = text("td", r ? r.answer : "", "mono");
        if (r && r.reason) { answer.title = r.reason; }
        cells.push(answer);
        var verdict = text("td", r ? r.verdict : "");
        if (r) { verdict.className = "verdict-" + r.verdict; }
        cells.push(verdict);
      });
      table.appendChild(el("tr", {}, cells));
    });
    return table;
  }

  function render() {
    var page = pages[current];
    var state = filterState();
    var detail = document.getElementById("detail");
    detail.textContent = "";
    detail.appendChild(text("h2", page.id + "  (" + page.dataset + ")"));
    detail.appendChild(text("h3", "Calls"));
    detail.appendChild(sampleTable(page.calls.map(function (c, i) {
      return {i: i, call: c.call, output: c.output};
    }), [["#", function (r) { return r.i; }], ["call", function (r) { return r.call; }, "mono"],
         ["output", function (r) { return r.output; }, "mono"]]));
    var original = page.variants.filter(function (v) { return v.kind === "original"; })[0];
    page.variants.forEach(function (variant) {
      var rows = page.samples.filter(function (s) {
        return s.variant === variant.id && FACETS.every(function (facet) {
          return !state[facet] || s[facet] === state[facet];
        });
      });
      var section = el("section", {"class": "variant", "data-variant": variant.id});
      section.appendChild(text("h3", variant.id + " - " + variant.kind +
        (variant.kind === "original" ? "" : " (" + variant.family + (variant.single ? ", single" : "") + ")")));
      if (variant.chain.length) {
        section.appendChild(text("div", "chain: " + variant.chain.join(" -> ") +
          "   jaccard " + variant.jaccard, "meta"));
      }
      if (variant.kind === "original" || !original) {
        section.appendChild(codeBlock(variant.code, [], "", null));
      } else {
        section.appendChild(el("div", {"class": "pair"}, [
          codeBlock(original.code, variant.changed.before, "del", null),
          codeBlock(variant.code, variant.changed.after, "add", null)
        ]));
      }
      var answers = rows.filter(function (r) { return r.task === "output" || r.task === "input"; });
      if (answers.length) {
        section.appendChild(byModel(answers, function (r) {
          return [r.task, r.strategy, r.call, r.sample];
        }, [["task", 0], ["strategy", 1], ["call", 2]], null));
      }
      var probes = rows.filter(function (r) { return r.task === "probe" || r.task === "full_trace"; });
      if (probes.length) {
        section.appendChild(byModel(probes, function (r) {
          return [r.probe_kind, r.strategy, r.call, r.question, r.expected, r.probe, r.sample];
        }, [["kind", 0], ["strategy", 1], ["call", 2], ["question", 3], ["expected", 4]], 4));
      }
      rows.filter(function (r) { return r.trace; }).forEach(function (r) {
        section.appendChild(text("div", r.model + " - " + r.task + " call " + r.call +
          ": the model's trace (left) and the real one (right)" +
          (r.trace.diverge[0] === null && r.trace.diverge[1] === null ? ", the same" : ", first divergence marked"), "meta"));
        section.appendChild(el("div", {"class": "pair trace"}, [
          codeBlock(r.trace.claimed.join("\n"), [], "", r.trace.diverge[0]),
          codeBlock(r.trace.real.join("\n"), [], "", r.trace.diverge[1])
        ]));
      });
      if (rows.length) {
        var responses = el("details", {}, [text("summary", rows.length + " responses")]);
        rows.forEach(function (r) {
          responses.appendChild(text("div", r.model + " " + r.task + " " + r.strategy +
            " call " + r.call + (r.probe ? " " + r.probe : "") + ": " + r.verdict, "meta"));
          responses.appendChild(text("pre", r.response, "code"));
        });
        section.appendChild(responses);
      }
      detail.appendChild(section);
    });
    document.body.setAttribute("data-rendered", current);
  }

  buildFilters();
  applyFilters(false);
  var start = readHash().problem;
  if (start) { open(start); }
})();
