(function () {
  'use strict';
  function drawCharts() {
    var blocks = document.querySelectorAll('script[type="application/json"][data-chart]');
    if (typeof Chart !== 'undefined') {
      Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
      Chart.defaults.color = '#1d1f23';
      // error bars, point labels, reference lines and tooltips (assets/chart-plugins.js, inlined before this script)
      if (typeof backpackChartPlugins !== 'undefined') backpackChartPlugins.install(Chart);
    }
    for (var i = 0; i < blocks.length; i++) {
      var block = blocks[i];
      // the block's selector asks for data-chart; it names the chart's canvas (src/report/html/charts-section.ts)
      var canvas = /** @type {HTMLCanvasElement | null} */ (document.getElementById(/** @type {string} */ (block.getAttribute('data-chart'))));
      if (!canvas) continue;
      try {
        if (typeof Chart === 'undefined') throw new Error('chart.js is not available');
        new Chart(canvas, JSON.parse(block.textContent));
      } catch (err) {
        var message = err && /** @type {Error} */ (err).message ? /** @type {Error} */ (err).message : String(err);
        console.error('chart ' + block.getAttribute('data-chart') + ' could not be drawn: ' + message);
        var note = document.createElement('p');
        note.className = 'chart-error';
        note.textContent = 'This chart could not be drawn: ' + message;
        /** @type {Node} */ (canvas.parentNode).insertBefore(note, canvas);
      }
    }
  }
  /**
   * A cell's sort key: its `data-v` number (numeric columns), else its text in lower case; null when empty.
   * @param {HTMLTableCellElement | undefined} cell
   * @param {boolean} numeric
   * @returns {number | string | null}
   */
  function keyOf(cell, numeric) {
    if (!cell) return null;
    if (numeric) {
      var v = cell.getAttribute('data-v');
      return v === null || v === '' ? null : Number(v);
    }
    return cell.textContent.trim().toLowerCase();
  }
  /**
   * @param {HTMLTableElement} table
   * @param {HTMLTableCellElement} th
   * @param {number} col
   */
  function sortBy(table, th, col) {
    var numeric = th.getAttribute('data-type') === 'num';
    var current = th.getAttribute('aria-sort');
    var first = th.getAttribute('data-first') === 'asc' || !numeric ? 'ascending' : 'descending';
    var dir = current === 'none' || current === null ? first : current === 'ascending' ? 'descending' : 'ascending';
    var sign = dir === 'ascending' ? 1 : -1;
    var body = table.tBodies[0];
    /** @type {HTMLTableRowElement[]} */
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var ka = keyOf(a.cells[col], numeric);
      var kb = keyOf(b.cells[col], numeric);
      if (ka === null && kb !== null) return 1;
      if (kb === null && ka !== null) return -1;
      if (ka !== null && kb !== null && ka !== kb) {
        // biome-ignore format: the formatter would move the first cast out of the parentheses, onto the difference
        if (numeric) return sign * (/** @type {number} */ (ka) - /** @type {number} */ (kb));
        return sign * (ka < kb ? -1 : 1);
      }
      return Number(a.getAttribute('data-i')) - Number(b.getAttribute('data-i'));
    });
    for (var i = 0; i < rows.length; i++) body.appendChild(rows[i]);
    var ths = /** @type {HTMLTableSectionElement} */ (table.tHead).rows[0].cells;
    for (var j = 0; j < ths.length; j++) ths[j].setAttribute('aria-sort', 'none');
    th.setAttribute('aria-sort', dir);
  }
  /** @param {HTMLTableElement} table a sortable table: a head row and one body (src/report/html/table.ts) */
  function makeSortable(table) {
    var rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) rows[i].setAttribute('data-i', String(i));
    var ths = /** @type {HTMLTableSectionElement} */ (table.tHead).rows[0].cells;
    for (var c = 0; c < ths.length; c++) {
      /**
       * @param {HTMLTableCellElement} th
       * @param {number} col
       */
      (function (th, col) {
        var button = th.querySelector('button');
        (button || th).addEventListener('click', function () {
          sortBy(table, th, col);
        });
      })(ths[c], c);
    }
  }
  var tables = /** @type {NodeListOf<HTMLTableElement>} */ (document.querySelectorAll('table.sortable'));
  for (var t = 0; t < tables.length; t++) makeSortable(tables[t]);
  drawCharts();
})();
