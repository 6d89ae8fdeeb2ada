/** Generator presets and the parameters a run is made from. */

export interface GenerateParams {
  preset: PresetName;
  seed: number;
  /** MCP tools in all servers. */
  mcpTools: number;
  servers: number;
  plugins: number;
  coreTools: number;
  skills: number;
  cases: number;
}

/** The generator's size presets: MCP tools, servers, plugins, core tools, skills and cases of each. */
export const PRESETS = {
  /** For tests: a few hundred tools, generated in well under a second. */
  tiny: { mcpTools: 360, servers: 12, plugins: 8, coreTools: 14, skills: 40, cases: 400 },
  /** A mid-size company: 5,000 MCP tools and the seed's 250 skills. */
  small: { mcpTools: 5_000, servers: 40, plugins: 40, coreTools: 50, skills: 250, cases: 2_000 },
  /** The seed article's monster company: 100 MCP servers with 50,000 tools, 150 plugins, 2,500 skills. */
  monster: { mcpTools: 50_000, servers: 100, plugins: 150, coreTools: 50, skills: 2_500, cases: 6_000 },
} as const;

export type PresetName = keyof typeof PRESETS;

export interface Overrides {
  /** Total tools (core + plugin + MCP); MCP tools get what is left after core and plugin tools. */
  tools?: number;
  skills?: number;
  cases?: number;
}
