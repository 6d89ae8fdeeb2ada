/**
 * Failpoints: named places where a test kills the process outright (SIGKILL, as a power cut or an
 * out-of-memory kill would), to check that what is on disk is still whole afterwards
 * (`test/kill.test.ts`). `BACKPACK_FAILPOINT=NAME` kills at the first time the point NAME is
 * reached, `NAME@N` at the N-th. Unset, as always outside those tests, a point costs one comparison.
 */
const wanted = parse(process.env.BACKPACK_FAILPOINT);
let reached = 0;

function parse(value: string | undefined): { name: string; at: number } | null {
  if (value === undefined || value === '') return null;
  const m = /^([a-z-]+)(?:@(\d+))?$/.exec(value);
  return m ? { name: m[1]!, at: m[2] === undefined ? 1 : Number(m[2]) } : null;
}

/** Kill this process here when the failpoint `name` is the one asked for (see the module comment). */
export function failpoint(name: string): void {
  if (wanted === null || wanted.name !== name || ++reached !== wanted.at) return;
  process.kill(process.pid, 'SIGKILL');
}
