(function () {
  'use strict';
  // The changed cases of a comparison report: every row of table.cases carries its strategy,
  // outcome and searchable text in data attributes; the controls hide the rows that do not match.
  // Text is compared with textContent and attributes, never parsed as markup. A case id opens the
  // case explorer's dialog (explorer.js): every strategy's ranking in both runs.
  // the controls src/report/compare/html.ts writes above the table (none when no case changed)
  var search = /** @type {HTMLInputElement | null} */ (document.getElementById('case-search'));
  var strategy = /** @type {HTMLSelectElement | null} */ (document.getElementById('case-strategy'));
  var outcome = /** @type {HTMLSelectElement | null} */ (document.getElementById('case-outcome'));
  var count = document.getElementById('case-count');
  var rows = /** @type {NodeListOf<HTMLTableRowElement>} */ (document.querySelectorAll('table.cases tbody tr'));
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
  var buttons = document.querySelectorAll('table.cases button.open-case');
  for (var k = 0; k < buttons.length; k++) {
    /** @param {Element} button */
    (function (button) {
      button.addEventListener('click', function () {
        if (window.backpackExplorer) window.backpackExplorer.openId(button.getAttribute('data-case'));
      });
    })(buttons[k]);
  }
  var controls = [search, strategy, outcome];
  for (var c = 0; c < controls.length; c++) if (controls[c]) /** @type {HTMLElement} */ (controls[c]).addEventListener('input', apply);
  apply();
})();
