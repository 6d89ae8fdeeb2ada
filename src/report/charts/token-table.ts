/**
 * The `token-table` chart: tokens of the serialized tool block by tool count, for the Anthropic and
 * OpenAI tool formats against the seed article's assumed 150 tokens per tool (the article's table,
 * measured).
 */
import type { Results } from '../../eval/results.ts';
import { type ChartSpec, int, options, OTHER } from './shared.ts';

export function tokenTableChart(r: Results): ChartSpec | undefined {
  const rows = r.tokenTable?.rows;
  if (!rows?.length) return undefined;
  const line = (label: string, colour: string, ys: number[], extra: Record<string, unknown>) => ({
    label,
    data: rows.map((x, i) => ({ x: x.tools, y: ys[i]! })),
    borderColor: colour,
    backgroundColor: colour,
    tips: rows.map((x, i) => `${label} — ${int(x.tools)} tools: ${int(ys[i]!)} tokens`),
    ...extra,
  });
  return {
    id: 'token-table',
    title: 'Tool block tokens by tool count',
    caption: `Tokens of the serialized tool block for n tools sampled evenly from this catalog (o200k), against the seed article's assumed 150 per tool; a 12-turn conversation pays it 12 times uncached.`,
    config: {
      type: 'line',
      data: {
        datasets: [
          line(
            'Anthropic tools JSON',
            OTHER.blue,
            rows.map((x) => x.blockTokens.anthropic),
            { borderWidth: 3, pointRadius: 5 },
          ),
          line(
            'OpenAI function tools',
            OTHER.red,
            rows.map((x) => x.blockTokens.openai),
            { borderWidth: 3, pointRadius: 5, pointStyle: 'rectRot' },
          ),
          line(
            'assumed 150 / tool',
            OTHER.grey,
            rows.map((x) => 150 * x.tools),
            { borderWidth: 2, borderDash: [6, 4], pointRadius: 0 },
          ),
        ],
      },
      options: options(
        `Tool block tokens by tool count — ${r.dataset.name}`,
        { title: 'tools in the block', type: 'linear', min: 0 },
        { title: 'tokens of the tool block (o200k)', min: 0 },
      ),
    },
  };
}
