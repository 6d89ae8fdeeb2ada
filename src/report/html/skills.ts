/** The Skills section: how each harness lists skills to the model, against a searched skill index. */
import type { Results } from '../../eval/results.ts';

/** The skill comparison a results file holds. */
type SkillComparison = NonNullable<Results['skills']>;
import { escapeHtml as esc } from '../../util/escape.ts';
import { DASH, fmtInt, fmtRate } from './format.ts';
import { absent, NOT_IN_RUN, numCell, section, table, text, type Column } from './table.ts';

/** The Skills section. */
export function skillsSection(skills: SkillComparison | undefined): string {
  const title = 'Skill listings vs the searched index';
  if (!skills?.sizes?.length) return section('skills', title, '', absent(`${NOT_IN_RUN}: the dataset has no skill cases.`));
  // Sizes over the catalog take all of it: a size equal to the one before adds nothing, so it is named there instead.
  const groups: Array<{ z: SkillComparison['sizes'][number]; asked: number[] }> = [];
  for (const z of skills.sizes) {
    const last = groups[groups.length - 1];
    if (last && last.z.skills === z.skills && last.z.skillCases === z.skillCases) last.asked.push(z.n);
    else groups.push({ z, asked: [z.n] });
  }
  const parts = groups.map(({ z, asked }) => {
    const columns: Column[] = [
      { label: 'listing' },
      { label: 'budget' },
      { label: 'tokens', num: true },
      { label: 'listed', num: true },
      { label: 'with description', num: true },
      { label: 'dropped', num: true },
      {
        label: 'discoverable',
        title: 'share of skill requests whose gold skill is visible with its description (searched index: after one search)',
        num: true,
      },
      { label: 'name only', num: true },
      { label: 'recall', title: 'searched index: recall of skill_search' },
      { label: 'tokens / search', num: true },
    ];
    const rows = Object.entries(z.listings).map(([name, l]) => [
      text(name),
      text(l.budget.value === null ? l.budget.unit : `${fmtInt(l.budget.value)} ${l.budget.unit}`),
      numCell(l.tokens, fmtInt),
      numCell(l.listed, fmtInt),
      numCell(l.withDescription, fmtInt),
      numCell(l.dropped, fmtInt),
      numCell(l.discoverability.withDescription),
      numCell(l.discoverability.nameOnly),
      text(
        l.recall
          ? Object.entries(l.recall)
              .map(([m, v]) => `${m} ${fmtRate(v)}`)
              .join(', ')
          : DASH,
      ),
      numCell(l.meanSearchTokens ?? undefined, fmtInt),
    ]);
    const sizes = asked.some((n) => n !== z.skills)
      ? ` <span class="note">(size${asked.length > 1 ? 's' : ''} asked: ${esc(asked.map(fmtInt).join(', '))}; the catalog has ${esc(fmtInt(z.skills))})</span>`
      : '';
    return `<h3>${esc(fmtInt(z.skills))} skills (${esc(fmtInt(z.skillCases))} skill requests)${sizes}</h3>\n${table(columns, rows)}`;
  });
  const intro = `How each harness lists skills to the model, against a searched skill index (${esc(skills.retrieval ?? 'search')}), on the first n skills of the catalog; tokens counted with ${esc(skills.counter)}.`;
  return section('skills', title, intro, parts.join('\n'));
}
