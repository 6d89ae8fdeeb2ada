/** The Charts section: a canvas per chart, and its configuration as a JSON block the page script draws. */
import { escapeHtml as esc } from '../../util/escape.ts';
import type { ChartSpec } from '../charts.ts';
import { jsonForScript } from './inline.ts';
import { absent, section } from './table.ts';

/** The Charts section (`html`) and the JSON blocks of its charts (`data`, written at the end of the page). */
export function chartsSection(
  specs: readonly ChartSpec[],
  where: { id: string; title: string; intro?: string } = { id: 'charts', title: 'Charts' },
): { html: string; data: string } {
  if (!specs.length) return { html: section(where.id, where.title, '', absent()), data: '' };
  const figures = specs
    .map((c) => {
      const id = `chart-${c.id}`;
      return `<figure class="chart" id="figure-${esc(c.id)}">\n<h3>${esc(c.title)}</h3>\n<canvas id="${esc(id)}" width="1200" height="620" role="img" aria-label="${esc(c.title)}"></canvas>\n<figcaption>${esc(c.caption)}</figcaption>\n</figure>`;
    })
    .join('\n');
  const data = specs
    .map((c) => `<script type="application/json" data-chart="${esc(`chart-${c.id}`)}" id="${esc(`chart-data-${c.id}`)}">${jsonForScript(c.config)}</script>`)
    .join('\n');
  return { html: section(where.id, where.title, where.intro ?? '', figures), data };
}
