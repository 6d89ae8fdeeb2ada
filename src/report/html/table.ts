/**
 * The building blocks of the HTML report's sections: cells (escaped HTML, a sort key, a tooltip),
 * tables (sortable ones get buttons in their headers), the "not in this run" note and a section.
 */
import type { Results } from '../../eval/results.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { contextFit, fitMark, fitNote, type Figure, type StrategyView } from '../view.ts';
import { fmtRate, isNum } from './format.ts';

/** What an absent section says. */
export const NOT_IN_RUN = 'not in this run';

export interface Cell {
  /** Already-escaped HTML. */
  html: string;
  /** Sort key of a numeric column (absent: sorts last). */
  v?: number | undefined;
  num?: boolean;
  /** Plain text for the cell's `title` (escaped when written). */
  title?: string;
}

export interface Column {
  label: string;
  title?: string;
  num?: boolean;
  /** Sort ascending on the first click (lower is better). */
  lowFirst?: boolean;
  /** Hidden in the table's compact view (class `extra`), shown with "all columns". */
  extra?: boolean;
}

/** A text cell, a code cell, a numeric cell (sortable by its value). */
export const text = (s: string): Cell => ({ html: esc(s) });
export const code = (s: string): Cell => ({ html: `<code>${esc(s)}</code>` });
export const numCell = (v: number | null | undefined, f: (v: number | null | undefined) => string = fmtRate): Cell => ({
  html: f(v),
  v: isNum(v) ? v : undefined,
  num: true,
});

/** What a figure that does not apply shows. */
export const NA = 'n/a';

/** A figure's cell: its value (bold when it is the column's best), or "n/a" with the reason as its tooltip. */
export function figureCell(fig: Figure, f: (v: number | null | undefined) => string = fmtRate, best?: number): Cell {
  if (fig.value === undefined) return { html: `<span class="na">${NA}</span>`, num: true, title: `not applicable: ${fig.reason}` };
  const html = f(fig.value);
  return { html: best !== undefined && fig.value === best ? `<strong>${html}</strong>` : html, v: fig.value, num: true };
}

/** The mark of a thin figure or curve (built on fewer than 10 graded or no-tool cases), the reason in its title; empty when not thin. */
export function thinTag(reason: string | undefined): string {
  return reason ? ` <span class="tag thin" title="${esc(reason)}">thin</span>` : '';
}

/** The context-fit tag of a profile that does not fit every case (empty otherwise). */
export function fitTag(s: StrategyView, r: Results): string {
  const fit = contextFit(s, r);
  const note = fitNote(fit);
  return note ? ` <span class="tag fit" title="${esc(`${note}: never bolded nor named best`)}">${esc(fitMark(fit)!)}</span>` : '';
}

/** A header label, escaped, with a line-break opportunity inside camelCase (`namespace<wbr>Recall@5`): a header wraps between words, never inside one. */
function headerLabel(label: string): string {
  return esc(label).replace(/([a-z])([A-Z])/g, '$1<wbr>$2');
}

/** An HTML table: the first cell of each row is its header; `sortable` tables are sorted by the page script. */
export function table(columns: readonly Column[], rows: readonly Cell[][], opts: { sortable?: boolean; id?: string; className?: string } = {}): string {
  const head = columns
    .map((c) => {
      const cls = [c.num ? 'num' : '', c.extra ? 'extra' : ''].filter(Boolean).join(' ');
      const attrs = [cls ? ` class="${cls}"` : '', c.title ? ` title="${esc(c.title)}"` : ''].join('');
      if (!opts.sortable) return `<th scope="col"${attrs}>${headerLabel(c.label)}</th>`;
      return `<th scope="col"${attrs} data-type="${c.num ? 'num' : 'text'}"${c.lowFirst ? ' data-first="asc"' : ''} aria-sort="none"><button type="button">${headerLabel(c.label)}<span class="arrow" aria-hidden="true"></span></button></th>`;
    })
    .join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${r
          .map((c, i) => {
            const names = [(c.num ?? columns[i]?.num) ? 'num' : '', columns[i]?.extra ? 'extra' : ''].filter(Boolean).join(' ');
            const cls = names ? ` class="${names}"` : '';
            const v = c.v !== undefined ? ` data-v="${c.v}"` : '';
            const t = c.title ? ` title="${esc(c.title)}"` : '';
            return i === 0 ? `<th scope="row"${cls}${v}${t}>${c.html}</th>` : `<td${cls}${v}${t}>${c.html}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  const classes = ['data', opts.sortable ? 'sortable' : '', opts.className ?? ''].filter(Boolean).join(' ');
  return `<div class="table-wrap"><table class="${classes}"${opts.id ? ` id="${esc(opts.id)}"` : ''}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/**
 * A table's compact view: its `extra` columns hidden until the reader ticks "all columns" (a
 * checkbox before the table; CSS alone shows them, so it works without the page script).
 */
export function compactTable(id: string, columns: readonly Column[], tableHtml: string): string {
  const extra = columns.filter((c) => c.extra);
  if (!extra.length) return tableHtml;
  return `<input type="checkbox" class="show-all-columns" id="${esc(id)}-all"><label class="show-all-columns" for="${esc(id)}-all">all ${columns.length - 1} columns (also ${esc(extra.map((c) => c.label).join(', '))})</label>\n${tableHtml}`;
}

/** The note of a section the run has no figures for. */
export function absent(what = NOT_IN_RUN): string {
  return `<p class="absent">${esc(what)}</p>`;
}

/** A section of the page: its heading, an intro (already HTML) and its body. */
export function section(id: string, title: string, intro: string, body: string): string {
  return `<section id="${id}">\n<h2>${esc(title)}</h2>\n${intro ? `<p class="intro">${intro}</p>\n` : ''}${body}\n</section>`;
}
