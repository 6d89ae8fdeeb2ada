/*
 * Backpack's chart.js plugins, written once and used by both renderers: the HTML report inlines
 * this file before its page script (report.js calls `backpackChartPlugins.install(Chart)`), and the
 * PNG renderer (src/report/png.ts) evaluates it in a sandbox and installs it on its chart.js.
 *
 * The chart specs are JSON (no functions), so everything a plugin draws comes from the spec:
 * - `backpackErrorBars` (on unless `options.plugins.backpackErrorBars.display === false`): a
 *   whisker with caps from `low` to `high` at each element of a dataset with
 *   `errorBars: [[low, high] | null, …]` parallel to its `data` (colour: `errorBarColour`, moved
 *   `errorBarOffset` pixels sideways); an interval less than a pixel tall draws nothing;
 * - `backpackLabels` (only with `options.plugins.backpackLabels.display === true`): the text
 *   `pointLabels[j]` next to point j of a dataset, placed beside the point where it overlaps no
 *   other label, no point and stays inside the chart area (else at its first place that fits);
 * - `backpackLines`: dashed reference lines under the data, `options.plugins.backpackLines.x =
 *   [{ value, label }]` (vertical, at `value` on the x scale, labelled at the bottom) and `.y`
 *   (horizontal, labelled at the right);
 * - tooltips: `install` makes the tooltip's label the dataset's `tips[j]` where it has one (a
 *   string or an array of lines), chart.js's own label otherwise;
 * - legends: `install` leaves out of the legend a dataset with `hideInLegend: true` (a marker
 *   whose series is already in the legend, such as a calibrated floor).
 *
 * Text is drawn on the canvas with fillText (never inserted into the DOM), so strategy names need
 * no escaping here. ES5, no DOM, no globals but `backpackChartPlugins`. Deterministic.
 */
// biome-ignore lint/correctness/noUnusedVariables: the script's one global, read by report.js and the PNG renderer
var backpackChartPlugins = (function () {
  'use strict';
  var INK = '#1d1f23';
  var HALO = 'rgba(255, 255, 255, 0.9)';

  /**
   * @param {unknown} v
   * @returns {v is unknown[]}
   */
  function isArray(v) {
    return Object.prototype.toString.call(v) === '[object Array]';
  }
  /**
   * @param {unknown} v
   * @returns {v is number}
   */
  function finite(v) {
    return typeof v === 'number' && isFinite(v);
  }
  /** @param {BackpackChart} chart */
  function family(chart) {
    var f = chart.options && chart.options.font;
    return (f && f.family) || 'sans-serif';
  }
  /**
   * @param {BackpackChart} chart
   * @param {{ font?: BackpackFont } | undefined} opts
   * @param {number} fallbackSize
   */
  function font(chart, opts, fallbackSize) {
    var f = (opts && opts.font) || {};
    var size = finite(f.size) ? f.size : fallbackSize;
    return { css: (f.weight ? f.weight + ' ' : '') + size + 'px ' + (f.family || family(chart)), size: size };
  }
  /**
   * @param {BackpackChart} chart
   * @param {import('chart.js').ChartMeta} meta
   * @param {'x' | 'y'} axis
   * @returns {import('chart.js').Scale | undefined}
   */
  function scaleOf(chart, meta, axis) {
    // chart.js sets both axis ids of a dataset's meta before it draws (an unset one would find no scale)
    return chart.scales[/** @type {string} */ (axis === 'x' ? meta.xAxisID : meta.yAxisID)];
  }
  /** @typedef {{ x: number, y: number, w: number, h: number }} Rect */
  /**
   * @param {Rect} a
   * @param {Rect} b
   */
  function overlaps(a, b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  }
  /**
   * @param {Rect} a
   * @param {import('chart.js').ChartArea} area
   */
  function inside(a, area) {
    return a.x >= area.left && a.x + a.w <= area.right && a.y >= area.top && a.y + a.h <= area.bottom;
  }

  /** @type {BackpackPlugin<{ display?: unknown }>} */
  var errorBars = {
    id: 'backpackErrorBars',
    afterDatasetsDraw: function (chart, _args, opts) {
      if (opts && opts.display === false) return;
      var ctx = chart.ctx;
      var datasets = chart.data.datasets || [];
      ctx.save();
      for (var i = 0; i < datasets.length; i++) {
        var ds = /** @type {BackpackDataset} */ (datasets[i]);
        if (!isArray(ds.errorBars) || !chart.isDatasetVisible(i)) continue;
        var meta = chart.getDatasetMeta(i);
        var y = scaleOf(chart, meta, 'y');
        if (!y) continue;
        ctx.strokeStyle = typeof ds.errorBarColour === 'string' ? ds.errorBarColour : INK;
        ctx.lineWidth = finite(ds.errorBarWidth) ? ds.errorBarWidth : 2;
        ctx.setLineDash([]);
        // series that share an x (lines of one category axis) dodge sideways so their whiskers do not cover one another
        var offset = finite(ds.errorBarOffset) ? ds.errorBarOffset : 0;
        for (var j = 0; j < ds.errorBars.length; j++) {
          var bar = ds.errorBars[j];
          var el = /** @type {BackpackElement} */ (meta.data[j]);
          if (!isArray(bar) || !finite(bar[0]) || !finite(bar[1]) || !el || el.skip || !finite(el.x)) continue;
          var lo = y.getPixelForValue(bar[0]);
          var hi = y.getPixelForValue(bar[1]);
          // an interval of no width (every resample gave the same figure) draws nothing
          if (!(Math.abs(hi - lo) >= 1)) continue;
          var cx = el.x + offset;
          var cap = finite(el.width) ? Math.max(4, Math.min(12, el.width / 4)) : 6;
          ctx.beginPath();
          ctx.moveTo(cx, lo);
          ctx.lineTo(cx, hi);
          ctx.moveTo(cx - cap, lo);
          ctx.lineTo(cx + cap, lo);
          ctx.moveTo(cx - cap, hi);
          ctx.lineTo(cx + cap, hi);
          ctx.stroke();
        }
      }
      ctx.restore();
    },
  };

  /** @type {BackpackPlugin<{ display?: unknown, font?: BackpackFont, gap?: unknown, colour?: unknown }>} */
  var labels = {
    id: 'backpackLabels',
    afterDatasetsDraw: function (chart, _args, opts) {
      if (!opts || opts.display !== true) return;
      var ctx = chart.ctx;
      var area = chart.chartArea;
      var f = font(chart, opts, 14);
      var h = Math.round(f.size * 1.25);
      var gap = finite(opts.gap) ? opts.gap : 6;
      var datasets = chart.data.datasets || [];
      var obstacles = [];
      var items = [];
      for (var i = 0; i < datasets.length; i++) {
        if (!chart.isDatasetVisible(i)) continue;
        var ds = /** @type {BackpackDataset} */ (datasets[i]);
        var meta = chart.getDatasetMeta(i);
        for (var j = 0; j < meta.data.length; j++) {
          var el = /** @type {BackpackElement} */ (meta.data[j]);
          if (!el || el.skip || !finite(el.x) || !finite(el.y)) continue;
          var r = el.options && finite(el.options.radius) ? el.options.radius : 3;
          obstacles.push({ x: el.x - r, y: el.y - r, w: 2 * r, h: 2 * r });
          var text = isArray(ds.pointLabels) ? ds.pointLabels[j] : undefined;
          if (typeof text === 'string' && text !== '') items.push({ x: el.x, y: el.y, r: r, text: text });
        }
      }
      ctx.save();
      ctx.font = f.css;
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'left';
      var placed = [];
      for (var k = 0; k < items.length; k++) {
        var it = items[k];
        var w = ctx.measureText(it.text).width;
        var d = it.r + gap;
        var candidates = [
          { x: it.x + d, y: it.y - h / 2 },
          { x: it.x - d - w, y: it.y - h / 2 },
          { x: it.x - w / 2, y: it.y - d - h },
          { x: it.x - w / 2, y: it.y + d },
          { x: it.x + d, y: it.y - d - h },
          { x: it.x + d, y: it.y + d },
          { x: it.x - d - w, y: it.y - d - h },
          { x: it.x - d - w, y: it.y + d },
        ];
        for (var step = 2; step <= 6; step++) {
          candidates.push({ x: it.x + d, y: it.y - h / 2 - step * h });
          candidates.push({ x: it.x + d, y: it.y - h / 2 + step * h });
          candidates.push({ x: it.x - d - w, y: it.y - h / 2 - step * h });
          candidates.push({ x: it.x - d - w, y: it.y - h / 2 + step * h });
        }
        var chosen = null;
        var firstInside = null;
        for (var c = 0; c < candidates.length && !chosen; c++) {
          var rect = { x: candidates[c].x, y: candidates[c].y, w: w, h: h };
          if (!inside(rect, area)) continue;
          if (!firstInside) firstInside = rect;
          var free = true;
          for (var p = 0; p < placed.length && free; p++) if (overlaps(rect, placed[p])) free = false;
          for (var o = 0; o < obstacles.length && free; o++) if (overlaps(rect, obstacles[o])) free = false;
          if (free) chosen = rect;
        }
        if (!chosen) chosen = firstInside || { x: candidates[0].x, y: candidates[0].y, w: w, h: h };
        placed.push(chosen);
        var far = Math.abs(chosen.x + w / 2 - it.x) > d + w / 2 + 1 || Math.abs(chosen.y + h / 2 - it.y) > d + h / 2 + 1;
        if (far) {
          // a leader line from the point to a label pushed away from it
          ctx.strokeStyle = 'rgba(29, 31, 35, 0.5)';
          ctx.lineWidth = 1;
          ctx.beginPath();
          ctx.moveTo(it.x, it.y);
          ctx.lineTo(chosen.x < it.x ? chosen.x + w : chosen.x, chosen.y + h / 2);
          ctx.stroke();
        }
        ctx.lineJoin = 'round';
        ctx.lineWidth = 4;
        ctx.strokeStyle = HALO;
        ctx.strokeText(it.text, chosen.x, chosen.y + h / 2);
        ctx.fillStyle = typeof opts.colour === 'string' ? opts.colour : INK;
        ctx.fillText(it.text, chosen.x, chosen.y + h / 2);
      }
      ctx.restore();
    },
  };

  /** @type {BackpackPlugin<{ font?: BackpackFont, x?: unknown, y?: unknown }>} */
  var lines = {
    id: 'backpackLines',
    beforeDatasetsDraw: function (chart, _args, opts) {
      if (!opts) return;
      var ctx = chart.ctx;
      var area = chart.chartArea;
      var f = font(chart, opts, 14);
      var scales = chart.scales;
      ctx.save();
      ctx.font = f.css;
      ctx.textBaseline = 'top';
      var xs = isArray(opts.x) ? opts.x : [];
      var ys = isArray(opts.y) ? opts.y : [];
      for (var i = 0; i < xs.length + ys.length; i++) {
        var vertical = i < xs.length;
        var line = /** @type {{ value?: unknown, label?: unknown, colour?: unknown } | null | undefined} */ (vertical ? xs[i] : ys[i - xs.length]);
        var scale = vertical ? scales.x : scales.y;
        if (!line || !scale || !finite(line.value)) continue;
        var at = scale.getPixelForValue(line.value);
        if (!finite(at)) continue;
        if (vertical ? at < area.left || at > area.right : at < area.top || at > area.bottom) continue;
        var colour = typeof line.colour === 'string' ? line.colour : '#6b7280';
        ctx.strokeStyle = colour;
        ctx.lineWidth = 2;
        ctx.setLineDash([8, 5]);
        ctx.beginPath();
        if (vertical) {
          ctx.moveTo(at, area.top);
          ctx.lineTo(at, area.bottom);
        } else {
          ctx.moveTo(area.left, at);
          ctx.lineTo(area.right, at);
        }
        ctx.stroke();
        ctx.setLineDash([]);
        if (typeof line.label !== 'string' || line.label === '') continue;
        var w = ctx.measureText(line.label).width;
        var x;
        var y;
        if (vertical) {
          // left of the line when it fits there, else right of it; at the bottom of the chart area
          x = at - 8 - w >= area.left ? at - 8 - w : at + 8;
          y = area.bottom - f.size - 8;
        } else {
          x = area.right - 8 - w;
          y = at - f.size - 8 >= area.top ? at - f.size - 8 : at + 6;
        }
        ctx.lineJoin = 'round';
        ctx.lineWidth = 4;
        ctx.strokeStyle = HALO;
        ctx.textAlign = 'left';
        ctx.strokeText(line.label, x, y);
        ctx.fillStyle = colour;
        ctx.fillText(line.label, x, y);
      }
      ctx.restore();
    },
  };

  /**
   * The tooltip text of an item: its dataset's `tips[j]`, or undefined (chart.js's own then).
   * @param {{ dataset?: BackpackDataset, dataIndex: number }} item
   * @returns {string | string[] | undefined}
   */
  function tipOf(item) {
    var ds = item && item.dataset;
    if (!ds || !isArray(ds.tips)) return undefined;
    var t = ds.tips[item.dataIndex];
    // the specs' tips are strings, or arrays of strings (lines)
    return typeof t === 'string' || isArray(t) ? /** @type {string | string[]} */ (t) : undefined;
  }

  /**
   * Registers the plugins on a chart.js `Chart` and routes tooltip labels through `tips` (once per Chart).
   * @param {BackpackChartClass} Chart
   */
  function install(Chart) {
    if (!Chart || Chart.__backpackPlugins) return;
    Chart.register(errorBars, labels, lines);
    var legend = Chart.defaults && Chart.defaults.plugins && Chart.defaults.plugins.legend;
    if (legend && legend.labels) {
      legend.labels.filter = function (item, data) {
        // a legend of data points (a pie's) has no datasetIndex: then no dataset, and the item stays
        var ds = /** @type {BackpackDataset | undefined} */ (data && data.datasets && data.datasets[/** @type {number} */ (item.datasetIndex)]);
        return !(ds && ds.hideInLegend === true);
      };
    }
    var callbacks = Chart.defaults && Chart.defaults.plugins && Chart.defaults.plugins.tooltip && Chart.defaults.plugins.tooltip.callbacks;
    if (callbacks && typeof callbacks.label === 'function') {
      var base = callbacks.label;
      callbacks.label = function (item) {
        var t = tipOf(item);
        return t !== undefined ? t : base.call(this, item);
      };
    }
    Chart.__backpackPlugins = true;
  }

  return { plugins: [errorBars, labels, lines], install: install, tipOf: tipOf };
})();
