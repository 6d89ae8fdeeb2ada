/**
 * Minimal typing of `wink-bm25-text-search` (the package ships none), only what the peers
 * benchmark calls.
 */
declare module 'wink-bm25-text-search' {
  interface WinkBm25Config {
    /** Field name → weight; only these fields are indexed. */
    fldWeights: Record<string, number>;
    /** `k1` tf saturation, `b` length normalisation, `k` the idf smoothing constant (idf = ln((N - n + 0.5) / (n + 0.5) + k)). */
    bm25Params?: { k1?: number; b?: number; k?: number };
    /** Fields whose original value is retained (for search filters). */
    ovFldNames?: string[];
  }
  interface WinkBm25 {
    defineConfig(config: WinkBm25Config): boolean;
    /** Each task takes the previous task's output; the first gets the field's text, the last must return tokens. */
    definePrepTasks(tasks: Array<(input: any) => any>, field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    /** Computes idf and pre-multiplies the stored term weights; `fp` = decimal places kept (4..9). */
    consolidate(fp?: number): boolean;
    /** The top `limit` (default 10) documents as `[id, score]`, best first. */
    search(
      text: string,
      limit?: number,
      filter?: (fieldValues: Record<string, unknown>, params: unknown) => boolean,
      params?: unknown,
    ): Array<[string, number]>;
    reset(): boolean;
  }
  function bm25(): WinkBm25;
  export default bm25;
}
