(function () {
  'use strict';
  // The case explorer: every scored case, searched and filtered in the page, rendered a page of
  // matches at a time; a case opens in a dialog with every strategy's ranking in every run. All
  // text comes from the page's JSON block and is set with textContent (never parsed as markup),
  // each invisible character shown as [U+XXXX] as the static tables show it (show below).
  var block = document.getElementById('x-data');
  if (!block) return;
  /** @type {ExplorerData} */
  var data = JSON.parse(block.textContent);
  var PAGE = 100;
  var invisible = new RegExp(data.invisible, 'g');
  /**
   * Text as the static tables show it: every bidirectional control, zero-width or control
   * character as [U+XXXX] (showInvisible in src/util/escape.ts; the class comes with the data).
   * @param {string} s
   */
  function show(s) {
    return String(s).replace(invisible, function (c) {
      var hex = c.charCodeAt(0).toString(16).toUpperCase();
      return '[U+' + '0000'.slice(hex.length) + hex + ']';
    });
  }
  /** @param {string} id */
  var $ = function (id) {
    return document.getElementById(id);
  };
  // the explorer's markup (explorerHtml in src/report/explorer.ts) is on the page with its data
  var search = /** @type {HTMLInputElement} */ ($('x-search')),
    strategy = /** @type {HTMLSelectElement} */ ($('x-strategy')),
    outcome = /** @type {HTMLSelectElement} */ ($('x-outcome')),
    slice = /** @type {HTMLSelectElement} */ ($('x-slice')),
    namespace = /** @type {HTMLSelectElement} */ ($('x-namespace'));
  var count = /** @type {HTMLElement} */ ($('x-count')),
    body = /** @type {HTMLTableElement} */ ($('x-table')).tBodies[0],
    more = /** @type {HTMLButtonElement} */ ($('x-more')),
    dialog = /** @type {HTMLDialogElement} */ ($('x-dialog'));
  var last = data.runs.length - 1;
  /** @type {string[] | null} */
  var texts = null;
  /** @type {number[]} */
  var matches = [];
  var shown = 0;
  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string | null} [text]
   * @param {string} [cls]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = show(text);
    if (cls) e.className = cls;
    return e;
  }
  /**
   * @param {number} run
   * @param {number} s
   */
  function runOf(run, s) {
    return data.perRun[run][s];
  }
  /**
   * @param {number} run
   * @param {number} s
   * @param {number} i
   */
  function outcomeAt(run, s, i) {
    var r = runOf(run, s);
    return r ? data.outcomes[Number(r[0].charAt(i))] : 'na';
  }
  /** @param {number} i */
  function searchText(i) {
    if (!texts) {
      texts = data.cases.map(function (c, j) {
        var parts = [c[0], c[1]];
        (c[3] || []).forEach(function (t) {
          parts.push(data.tools[t]);
        });
        for (var run = 0; run < data.runs.length; run++)
          for (var s = 0; s < data.strategies.length; s++) {
            var r = runOf(run, s);
            if (!r) continue;
            var ranked = r[1][j];
            for (var k = 0; k < ranked.length; k += 2) parts.push(data.tools[ranked[k]]);
          }
        // searched as shown: what a reader can type is what the page shows
        return show(parts.join(' ')).toLowerCase();
      });
    }
    return texts[i];
  }
  /**
   * The index of the name an option stands for: the option's value is the name as shown (the
   * markup escapes it as the static tables do), which differs from the name when it has an invisible character.
   * @param {string[]} list
   * @param {string} value
   */
  function indexOfShown(list, value) {
    for (var j = 0; j < list.length; j++) if (list[j] === value || show(list[j]) === value) return j;
    return -1;
  }
  function apply() {
    var q = search.value.trim().toLowerCase();
    var s = strategy.selectedIndex;
    var o = outcome.value;
    var sl = slice.value === '' ? -1 : indexOfShown(data.slices, slice.value);
    var ns = namespace.value === '' ? -1 : indexOfShown(data.namespaces, namespace.value);
    matches = [];
    for (var i = 0; i < data.cases.length; i++) {
      var c = data.cases[i];
      if (sl >= 0 && c[2].indexOf(sl) < 0) continue;
      if (ns >= 0 && c[4].indexOf(ns) < 0) continue;
      if (o === 'changed') {
        if (outcomeAt(0, s, i) === outcomeAt(last, s, i)) continue;
      } else if (o && outcomeAt(last, s, i) !== o) continue;
      if (q && searchText(i).indexOf(q) < 0) continue;
      matches.push(i);
    }
    body.textContent = '';
    shown = 0;
    render();
  }
  function render() {
    var s = strategy.selectedIndex;
    var end = Math.min(matches.length, shown + PAGE);
    for (; shown < end; shown++) {
      var i = matches[shown];
      var c = data.cases[i];
      var tr = el('tr');
      var th = el('th');
      var button = el('button', c[0], 'open-case');
      button.type = 'button';
      button.setAttribute('data-i', String(i));
      th.appendChild(button);
      tr.appendChild(th);
      tr.appendChild(el('td', c[1].length > 200 ? c[1].slice(0, 200) + '…' : c[1], 'request'));
      tr.appendChild(
        el(
          'td',
          c[3] === null
            ? 'skill-only'
            : c[3].length
              ? c[3]
                  .map(function (t) {
                    return data.tools[t];
                  })
                  .join(', ')
              : 'none (no-tool)',
          'gold',
        ),
      );
      var outcomes = [];
      for (var run = 0; run < data.runs.length; run++) outcomes.push(outcomeAt(run, s, i));
      tr.appendChild(el('td', outcomes.join(' → '), 'outcome'));
      var r = runOf(last, s);
      var top = [];
      if (r) for (var k = 0; k < r[1][i].length && k < 6; k += 2) top.push(data.tools[r[1][i][k]]);
      tr.appendChild(el('td', top.join(', '), 'top'));
      body.appendChild(tr);
    }
    count.textContent = matches.length + ' of ' + data.cases.length + ' cases match' + (matches.length > shown ? ' (' + shown + ' shown)' : '');
    more.hidden = shown >= matches.length;
  }
  /**
   * @param {number[] | null} ranked
   * @param {number[]} gold
   */
  function rankingList(ranked, gold) {
    if (!ranked || !ranked.length) return el('span', 'nothing', 'absent');
    var ol = el('ol', null, 'ranking');
    for (var k = 0; k < ranked.length; k += 2) {
      var li = el('li', null, gold.indexOf(ranked[k]) >= 0 ? 'gold' : '');
      li.appendChild(el('code', data.tools[ranked[k]]));
      li.appendChild(document.createTextNode(' '));
      li.appendChild(el('span', String(ranked[k + 1]), 'score'));
      ol.appendChild(li);
    }
    return ol;
  }
  /** @param {number} i */
  function open(i) {
    var c = data.cases[i];
    var gold = c[3] || [];
    /** @type {HTMLElement} */ ($('x-dialog-title')).textContent = show(c[0]);
    var box = /** @type {HTMLElement} */ ($('x-dialog-body'));
    box.textContent = '';
    box.appendChild(el('p', c[1], 'request'));
    box.appendChild(el('h3', c[3] === null ? 'A skill-only case: no tool is labelled' : gold.length ? 'Gold tools' : 'No tool is needed (a no-tool case)'));
    if (gold.length) {
      var ul = el('ul', null, 'gold-tools');
      gold.forEach(function (t) {
        var li = el('li');
        li.appendChild(el('code', data.tools[t]));
        if (data.summaries[t]) li.appendChild(document.createTextNode(' — ' + show(data.summaries[t])));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    box.appendChild(el('h3', 'Every strategy\u2019s top ' + data.depth + ' (' + data.metric + ' outcome)'));
    var table = el('table', null, 'data rankings');
    var head = el('tr');
    head.appendChild(el('th', 'strategy'));
    data.runs.forEach(function (label) {
      head.appendChild(el('th', label));
    });
    var thead = el('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    var tbody = el('tbody');
    data.strategies.forEach(function (name, s) {
      var tr = el('tr');
      var th = el('th');
      th.appendChild(el('code', name));
      tr.appendChild(th);
      for (var run = 0; run < data.runs.length; run++) {
        var td = el('td');
        var r = runOf(run, s);
        td.appendChild(el('div', outcomeAt(run, s, i), 'outcome'));
        td.appendChild(rankingList(r ? r[1][i] : null, gold));
        tr.appendChild(td);
      }
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    var wrap = el('div', null, 'table-wrap');
    wrap.appendChild(table);
    box.appendChild(wrap);
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }
  body.addEventListener('click', function (e) {
    // the target of a click in the table body is an element
    var t = /** @type {Element} */ (e.target).closest ? /** @type {Element} */ (e.target).closest('button.open-case') : null;
    if (t) open(Number(t.getAttribute('data-i')));
  });
  more.addEventListener('click', render);
  [search, strategy, outcome, slice, namespace].forEach(function (x) {
    x.addEventListener('input', apply);
  });
  // open a case by its id (the comparison's changed-case rows use this; their attribute holds the id
  // as the static tables show it, so an id with an invisible character is matched in that form too)
  /** @param {string | null} id */
  function openId(id) {
    for (var i = 0; i < data.cases.length; i++) if (data.cases[i][0] === id || show(data.cases[i][0]) === id) return open(i);
  }
  window.backpackExplorer = { open: open, openId: openId, apply: apply };
  apply();
})();
