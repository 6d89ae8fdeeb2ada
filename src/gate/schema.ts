/**
 * The regression file (`backpack gate --expect FILE`): its TypeScript type and its JSON Schema,
 * the one description that the loader validates with ajv and that docs/gate.md prints (a test
 * fails if the page and {@link REGRESSION_SCHEMA} differ).
 */

/** A tolerance around an expected figure: the larger of `abs` and `rel × |expected|`. */
export interface Tolerance {
  abs?: number;
  rel?: number;
}

export interface StrategyExpectation {
  /** Figure key (metric id or `tokens.<field>`) → expected value. */
  figures: Record<string, number>;
  /** Where a strategy that is not built in came from when it was blessed (a plugin's name, version and sha256, or a service's URL): the gate warns when it changed. */
  origin?: { plugin: string; version?: string; sha256: string } | { service: string };
  /** Per-figure tolerance, replacing the default for that figure. */
  tolerance?: Record<string, Tolerance>;
}

export interface SignificanceSpec {
  method?: 'randomization' | 'bootstrap';
  samples?: number;
  alpha?: number;
  require?: boolean;
}

export interface RegressionSpec {
  schemaVersion: 1;
  dataset: { name: string; catalogSha256: string; casesSha256?: string };
  defaults?: { tolerance?: Tolerance };
  significance?: SignificanceSpec;
  /** A results folder (relative to the regression file's folder) to test significance against. */
  baseline?: string;
  strategies: Record<string, StrategyExpectation>;
}

/** The schema version this Backpack reads and writes. */
export const REGRESSION_SCHEMA_VERSION = 1;

/** Tolerance when neither the strategy nor `defaults` gives one. */
export const DEFAULT_TOLERANCE: Readonly<Tolerance> = Object.freeze({ abs: 0.005 });

/** JSON Schema (draft-07) of the regression file. */
export const REGRESSION_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://backpack.dev/schemas/regression-v1.json',
  title: 'Backpack regression file',
  description: 'Expected figures per strategy for `backpack gate`; written by `backpack bless`.',
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'dataset', 'strategies'],
  properties: {
    schemaVersion: { const: 1, description: 'Version of this format.' },
    dataset: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'catalogSha256'],
      description:
        'The dataset the figures were blessed on; the gate warns when the results were run on another catalog, and refuses results scored on other cases (casesSha256).',
      properties: {
        name: { type: 'string', minLength: 1 },
        catalogSha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        casesSha256: {
          type: 'string',
          pattern: '^[0-9a-f]{64}$',
          description: 'sha256 of the cases the figures were blessed on (results.json dataset.casesSha256); written by bless.',
        },
      },
    },
    defaults: {
      type: 'object',
      additionalProperties: false,
      properties: { tolerance: { $ref: '#/definitions/tolerance' } },
      description: 'Tolerance of every figure without its own (built-in default: abs 0.005).',
    },
    significance: {
      type: 'object',
      additionalProperties: false,
      description: 'Paired test between the baseline run and the current run over per-case scores.',
      properties: {
        method: { enum: ['randomization', 'bootstrap'], description: 'Default randomization (sign-flip).' },
        samples: { type: 'integer', minimum: 100, maximum: 1000000, description: 'Default 10000.' },
        alpha: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, description: 'Default 0.05.' },
        require: {
          type: 'boolean',
          description:
            'A drop beyond the margin fails only if the change rule shared with report BASE HEAD says the figure changed against the baseline (p < alpha, or, with too few changed cases for a test, the named cases). Default true (false before issue 31).',
        },
      },
    },
    baseline: { type: 'string', minLength: 1, description: 'Results folder of the baseline run, relative to this file (overridden by --baseline).' },
    strategies: {
      type: 'object',
      minProperties: 1,
      description: 'Retriever or profile name → its expected figures.',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['figures'],
        properties: {
          figures: {
            type: 'object',
            minProperties: 1,
            description:
              "Metric id of the overall table (top1, recall@5, scopeLeakCount, cases, …), slices.<slice>.<metric id> of one slice's table, or tokens.<field> of a profile → expected value.",
            additionalProperties: { type: 'number' },
          },
          tolerance: {
            type: 'object',
            description: 'Figure → its tolerance (scopeLeakCount tolerates nothing whatever this says).',
            additionalProperties: { $ref: '#/definitions/tolerance' },
          },
          origin: {
            description:
              "Written by bless for a strategy that is not built in: the plugin it came from (name, version, sha256 of its module) or the retrieval service's URL, as results.json records it in the strategy's config.origin. The gate warns when the results' origin differs.",
            oneOf: [
              {
                type: 'object',
                additionalProperties: false,
                required: ['plugin', 'sha256'],
                properties: { plugin: { type: 'string' }, version: { type: 'string' }, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
              },
              { type: 'object', additionalProperties: false, required: ['service'], properties: { service: { type: 'string' } } },
            ],
          },
        },
      },
    },
  },
  definitions: {
    tolerance: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      description: 'The larger of abs and rel × |expected|.',
      properties: {
        abs: { type: 'number', minimum: 0 },
        rel: { type: 'number', minimum: 0 },
      },
    },
  },
} as const;

/** The JSON Schema as docs/gate.md prints it (a fenced block; a test compares the two). */
export function schemaBlock(): string {
  return `\`\`\`json\n${JSON.stringify(REGRESSION_SCHEMA, null, 2)}\n\`\`\``;
}
