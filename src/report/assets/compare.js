(function () {
  'use strict';
  // The changed-case explorer of a comparison report: every row of table.cases carries its
  // strategy, outcome and searchable text in data attributes; the controls hide the rows that do
  // not match. Text is compared with textContent and attributes, never parsed as markup.
  var search = document.getElementById('case-search');
  var strategy = document.getElementById('case-strategy');
  var outcome = document.getElementById('case-outcome');
  var count = document.getElementById('case-count');
  var rows = document.querySelectorAll('table.cases tbody tr');
  function apply() {
    var q = search ? search.value.trim().toLowerCase() : '';
    var s = strategy ? strategy.value : '';
    var o = outcome ? outcome.value : '';
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var ok =
        (!q || (row.getAttribute('data-text') || '').indexOf(q) >= 0) &&
        (!s || row.getAttribute('data-strategy') === s) &&
        (!o || row.getAttribute('data-outcome') === o);
      row.hidden = !ok;
      if (ok) shown++;
    }
    if (count) count.textContent = shown + ' of ' + rows.length + ' changed cases shown';
  }
  // Opening a case: its request, gold tools (with summaries) and every strategy's top k in both
  // runs, built with DOM calls and textContent from the page's JSON data (never as markup).
  var dataBlock = document.getElementById('case-data');
  var data = dataBlock ? JSON.parse(dataBlock.textContent) : [];
  var dialog = document.getElementById('case-dialog');
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function rankingList(list, gold) {
    if (!list.length) return el('p', 'nothing', 'absent');
    var ol = el('ol', null, 'ranking');
    for (var i = 0; i < list.length; i++) {
      var li = el('li', null, gold[list[i][0]] ? 'gold' : '');
      li.appendChild(el('code', list[i][0]));
      li.appendChild(document.createTextNode(' '));
      li.appendChild(el('span', Number(list[i][1]).toPrecision(4), 'score'));
      ol.appendChild(li);
    }
    return ol;
  }
  function openCase(pairIndex, id) {
    var pair = data[pairIndex];
    var c = pair && pair.cases[id];
    if (!c || !dialog) return;
    document.getElementById('case-dialog-title').textContent = id;
    var body = document.getElementById('case-dialog-body');
    body.textContent = '';
    body.appendChild(el('p', c.request, 'request'));
    var gold = {};
    var goldList = el('ul', null, 'gold-tools');
    for (var g = 0; g < c.gold.length; g++) {
      gold[c.gold[g].id] = true;
      var item = el('li');
      item.appendChild(el('code', c.gold[g].id));
      if (c.gold[g].summary) item.appendChild(document.createTextNode(' — ' + c.gold[g].summary));
      goldList.appendChild(item);
    }
    body.appendChild(el('h3', c.gold.length ? 'Gold tools' : 'No tool is needed (a no-tool case)'));
    if (c.gold.length) body.appendChild(goldList);
    var table = el('table', null, 'data rankings');
    var head = el('tr');
    head.appendChild(el('th', 'strategy'));
    head.appendChild(el('th', pair.base));
    head.appendChild(el('th', pair.head));
    var thead = el('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    var tbody = el('tbody');
    for (var r = 0; r < c.rankings.length; r++) {
      var row = el('tr');
      var name = el('th');
      name.appendChild(el('code', c.rankings[r].strategy));
      row.appendChild(name);
      var b = el('td');
      b.appendChild(rankingList(c.rankings[r].base, gold));
      row.appendChild(b);
      var h = el('td');
      h.appendChild(rankingList(c.rankings[r].head, gold));
      row.appendChild(h);
      tbody.appendChild(row);
    }
    table.appendChild(tbody);
    var wrap = el('div', null, 'table-wrap');
    wrap.appendChild(table);
    body.appendChild(el('h3', 'Every strategy\u2019s top ' + (c.rankings[0] ? Math.max(c.rankings[0].base.length, c.rankings[0].head.length) : 0) + ' in both runs'));
    body.appendChild(wrap);
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }
  var buttons = document.querySelectorAll('button.open-case');
  for (var k = 0; k < buttons.length; k++) {
    (function (button) {
      button.addEventListener('click', function () {
        openCase(Number(button.getAttribute('data-pair')), button.getAttribute('data-case'));
      });
    })(buttons[k]);
  }
  var controls = [search, strategy, outcome];
  for (var c = 0; c < controls.length; c++) if (controls[c]) controls[c].addEventListener('input', apply);
  apply();
})();
