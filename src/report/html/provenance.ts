/** The Provenance section: where the numbers come from (dataset, hashes, config, versions, timings). */
import type { Results } from '../../eval/results.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { floorOf, floorText, goldRemovedCases, originLines, reSignedText } from '../view.ts';
import { DASH, fmtInt, isNum } from './format.ts';
import { NOT_IN_RUN, section } from './table.ts';

/** The Provenance section. */
export function provenance(r: Results): string {
  const d = r.dataset;
  const c = r.config;
  const source =
    d.source.kind === 'dataset'
      ? `dataset ${d.source.ref}${d.source.split !== null ? ` (split ${d.source.split})` : ''}`
      : `files: catalog ${d.source.catalog}, cases ${d.source.cases}${d.source.format ? `, format ${d.source.format}` : ''}${d.source.skills ? `, skills ${d.source.skills}` : ''}`;
  const floors =
    Object.keys(c.floors ?? {})
      .map((n) => `${n}: ${floorText(floorOf(r, n))}`)
      .join('; ') || 'none';
  const cal = (c as { calibration?: { source?: unknown; cases?: unknown; noToolCases?: unknown } }).calibration;
  const rows: Array<[string, string]> = [
    ['Dataset', esc(d.name)],
    ['Source', esc(source)],
    ['Catalog sha256', `<code class="hash">${esc(d.catalogSha256)}</code>`],
    ...(typeof d.casesSha256 === 'string' ? ([['Cases sha256', `<code class="hash">${esc(d.casesSha256)}</code>`]] as Array<[string, string]>) : []),
    ...(d.reSigned ? ([['Re-signed', esc(reSignedText(d.reSigned))]] as Array<[string, string]>) : []),
    ...(d.goldRemoved
      ? ([
          [
            'Gold not in the catalog',
            `<ul class="warnings">${Object.entries(d.goldRemoved)
              .map(([id, cases]) => `<li><code>${esc(id)}</code>: ${esc(goldRemovedCases(cases))}</li>`)
              .join('')}</ul><p class="note">Removed or renamed by the registry change: these cases are scored as misses for it.</p>`,
          ],
        ] as Array<[string, string]>)
      : []),
    ...(d.goldRenamed
      ? ([
          [
            'Gold renamed (--renames)',
            `<ul class="warnings">${Object.entries(d.goldRenamed)
              .map(([from, a]) => `<li><code>${esc(from)}</code> → <code>${esc(a.to)}</code>: ${esc(goldRemovedCases(a.cases))}</li>`)
              .join('')}</ul>`,
          ],
        ] as Array<[string, string]>)
      : []),
    ...(r.warnings?.length
      ? ([[`Input warnings (${r.warnings.length})`, `<ul class="warnings">${r.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>`]] as Array<
          [string, string]
        >)
      : []),
    ['Cases', esc(fmtInt(d.cases))],
    ['Tools', esc(fmtInt(d.tools))],
    ['Shard', r.shard ? esc(`${r.shard.index} of ${r.shard.count}`) : 'all cases'],
    ['Retrievers', esc(c.retrievers.join(', ') || 'none')],
    ['Profiles', esc(c.profiles?.length ? c.profiles.join(', ') : 'none')],
    ...(originLines(r).length
      ? ([
          [
            'Not built in',
            `<ul class="warnings">${originLines(r)
              .map((l) => `<li>${esc(l)}</li>`)
              .join('')}</ul>`,
          ],
        ] as Array<[string, string]>)
      : []),
    ['Cut-offs (ks)', esc(c.ks.join(', '))],
    ['Depth', esc(String(c.depth))],
    ['Floors', esc(floors)],
    ...(cal && typeof cal.source === 'string'
      ? ([['Calibration cases', esc(`${cal.source}: ${fmtInt(cal.cases as number)} cases, ${fmtInt(cal.noToolCases as number)} no-tool`)]] as Array<
          [string, string]
        >)
      : []),
    ['Sticky retrieval', c.sticky ? 'yes (sticky per task)' : 'no (per turn)'],
    ['Cache prices', c.cache ? esc(`write ×${c.cache.writeRatio}, read ×${c.cache.readRatio}`) : esc(NOT_IN_RUN)],
    ...(c.contextWindow !== undefined ? ([['Context window', esc(fmtInt(c.contextWindow))]] as Array<[string, string]>) : []),
    ...(c.examples
      ? ([['Example augmentation', esc(`${c.examples.perTool} per tool from split ${c.examples.from} (${c.examples.added} added)`)]] as Array<[string, string]>)
      : []),
    ['Agent traces', c.traces ? `<code class="hash">${esc(c.traces)}</code>` : 'none'],
    ['Config hash', `<code class="hash">${esc(r.configHash)}</code>`],
    ['Backpack', esc(`${r.backpack.version}${r.backpack.gitSha ? ` (git ${r.backpack.gitSha})` : ''}`)],
    ['Started', esc(r.timings?.startedAt ?? DASH)],
    ['Duration', esc(isNum(r.timings?.durationMs) ? `${(r.timings.durationMs / 1000).toFixed(1)} s` : DASH)],
  ];
  return section(
    'provenance',
    'Provenance',
    'Where these numbers come from: the same dataset (same catalog sha256) and the same config hash give the same metrics.',
    `<dl class="facts">\n${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('\n')}\n</dl>`,
  );
}
