/**
 * The `skills` chart: each harness's skill listing, and a searched skill index, as skill
 * discoverability against listing tokens (log scale), at each skill count compared (one when the
 * catalog is smaller than every size).
 */
import type { Results } from '../../eval/results.ts';
import { type ChartSpec, int, LABELS, logBounds, options, OTHER, rate, type Styles } from './shared.ts';

/** Point styles of the skill sizes, in order. */
const SIZE_STYLES = ['circle', 'rectRot', 'triangle', 'rect'] as const;
const SIZE_SHAPES = ['circle', 'diamond', 'triangle', 'square'] as const;

/** A skill listing's name in the legend. */
function listingName(n: string): string {
  return n === 'searched-index' ? 'searched skill index (after one search)' : `${n} listing`;
}

export function skillsChart(r: Results, style: Styles): ChartSpec | undefined {
  const all = r.skills?.sizes;
  if (!all?.length) return undefined;
  // Sizes over the catalog take all of it: a size equal to one before adds nothing, so it is drawn once.
  const sizes = all.filter((z, i) => all.findIndex((o) => o.skills === z.skills) === i);
  const collapsed = sizes.length < all.length;
  const names = Object.keys(sizes[0]!.listings);
  const searchK = Math.max(1, ...(r.skills!.ks ?? []));
  const count = (n: number) => n.toLocaleString('en-US');
  const datasets: Array<Record<string, unknown>> = names.map((n) => {
    const st = style(n);
    const points = sizes.map((z) => z.listings[n as keyof typeof z.listings]);
    const ys = points.map((m) => m.discoverability.withDescription ?? 0);
    return {
      label: listingName(n),
      strategy: n,
      data: sizes.map((z, j) => ({ x: Math.max(1, points[j]!.tokens), y: ys[j]!, skills: z.skills })),
      showLine: sizes.length > 1,
      borderColor: st.colour,
      backgroundColor: st.colour,
      ...(st.dash.length ? { borderDash: st.dash } : {}),
      borderWidth: 2,
      pointStyle: sizes.map((_, j) => SIZE_STYLES[j % SIZE_STYLES.length]),
      pointRadius: sizes.map((_, j) => (j === 0 ? 8 : 11)),
      clip: false,
      pointLabels: sizes.map((_, j) => (j === sizes.length - 1 ? n.replace(/^searched-index$/, 'searched index') : '')),
      tips: sizes.map(
        (z, j) =>
          `${listingName(n)} — ${count(z.skills)} skills: discoverability ${rate(ys[j]!)} (share of skill requests whose skill is visible with its description), ${int(points[j]!.tokens)} listing tokens`,
      ),
    };
  });
  // With more than one size, the legend says which shape is which (entries with no data).
  if (sizes.length > 1)
    sizes.forEach((z, j) =>
      datasets.push({
        label: `${SIZE_SHAPES[j % SIZE_SHAPES.length]}: ${count(z.skills)} skills`,
        data: [],
        pointStyle: SIZE_STYLES[j % SIZE_STYLES.length],
        borderColor: OTHER.grey,
        backgroundColor: OTHER.grey,
      }),
    );
  const tokens = sizes.flatMap((z) => names.map((n) => Math.max(1, z.listings[n as keyof typeof z.listings].tokens)));
  const shapes =
    sizes.length > 1
      ? ` Shapes: ${sizes.map((z, j) => `${SIZE_SHAPES[j % SIZE_SHAPES.length]} = ${count(z.skills)} skills`).join(', ')}; a line joins one listing's sizes.`
      : '';
  const collapseNote = collapsed
    ? ` The catalog has only ${count(sizes[sizes.length - 1]!.skills)} skills, so the sizes compared (${all.map((z) => count(z.n)).join(' and ')}) take the whole catalog and give the same listing: ${sizes.length === 1 ? 'one size is drawn' : 'each distinct size is drawn once'}.`
    : '';
  const sizeText = sizes.map((z) => count(z.skills)).join(' and ');
  return {
    id: 'skills',
    title: 'Skill discoverability vs listing tokens',
    caption: `Each harness's skill listing, and a searched skill index after one search (top ${searchK}): the share of skill requests whose gold skill the model sees with its description (up is better) against the tokens the listing puts in front of the model (left is better; o200k, log scale).${shapes}${collapseNote}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `Skill discoverability vs listing tokens — ${r.dataset.name}, ${sizeText} skills, index k = ${searchK}`,
        { title: 'tokens of the skill listing in front of the model (o200k, log scale)', type: 'logarithmic', ...logBounds(tokens) },
        { title: 'discoverability (share of skill requests whose skill is visible with its description)', min: 0, max: 1 },
        LABELS,
      ),
    },
  };
}
