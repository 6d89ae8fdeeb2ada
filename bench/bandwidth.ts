/**
 * Single-thread memory read bandwidth of this machine, measured the way the dense top-k kernel
 * reads its index: a streaming pass over a buffer far larger than any cache, in a WebAssembly
 * module using 128-bit SIMD (written as bytes, like `src/retrievers/embed/kernel.ts`). Methods:
 *
 * - `wasm-simd f32x4 sum`: eight independent f32x4 add chains over the buffer (the kernel's loads
 *   with less arithmetic per byte);
 * - `wasm-simd v128 or`: eight v128.or chains (the cheapest possible use of every loaded byte);
 * - `native copy` (`Uint8Array.prototype.copyWithin`, memmove): reported for reference; its bytes
 *   are those read (the same number are written), so it is not counted in the maximum.
 *
 * Each method runs a few passes and keeps its fastest; `bandwidthGBps` is the maximum over the read
 * methods. Used by `dense.bench.ts`; never asserted in tests.
 */

import { name, section, simd, uleb, vec } from '../src/retrievers/embed/kernel-wasm.ts';

const I32 = 0x7f,
  F32 = 0x7d,
  V128 = 0x7b;
const BLOCK = 0x02,
  LOOP = 0x03,
  END = 0x0b,
  BR_IF = 0x0d,
  VOID = 0x40;
const GET = 0x20,
  SET = 0x21,
  TEE = 0x22,
  I32_CONST = 0x41,
  I32_ADD = 0x6a,
  I32_LT_U = 0x49,
  I32_GE_U = 0x4f,
  F32_ADD = 0x92;
const V128_LOAD = (offset: number) => [...simd(0x00), 4, ...uleb(offset)];
const V128_CONST0 = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const F32X4_ADD = simd(0xe4);
const V128_OR = simd(0x50);
const F32X4_EXTRACT = (lane: number) => [...simd(0x1f), lane];

const CHAINS = 8;
const P = 0,
  END_ = 1; // params: ptr, end (bytes; end - ptr a multiple of 16 · CHAINS)
const ACC = Array.from({ length: CHAINS }, (_, u) => 2 + u);

/** `op` folds each loaded v128 into its chain; the result folds the chains and returns lane sums as f32. */
function reduceBody(op: number[]): number[] {
  const code = [
    ...ACC.flatMap((a) => [...V128_CONST0, SET, a]),
    BLOCK,
    VOID,
    GET,
    P,
    GET,
    END_,
    I32_GE_U,
    BR_IF,
    0,
    LOOP,
    VOID,
    ...ACC.flatMap((a, u) => [GET, a, GET, P, ...V128_LOAD(16 * u), ...op, SET, a]),
    GET,
    P,
    I32_CONST,
    ...uleb(16 * CHAINS),
    I32_ADD,
    TEE,
    P,
    GET,
    END_,
    I32_LT_U,
    BR_IF,
    0,
    END,
    END,
    ...ACC.slice(1).flatMap((a) => [GET, ACC[0]!, GET, a, ...op, SET, ACC[0]!]),
    GET,
    ACC[0]!,
    ...F32X4_EXTRACT(0),
    GET,
    ACC[0]!,
    ...F32X4_EXTRACT(1),
    F32_ADD,
    GET,
    ACC[0]!,
    ...F32X4_EXTRACT(2),
    F32_ADD,
    GET,
    ACC[0]!,
    ...F32X4_EXTRACT(3),
    F32_ADD,
  ];
  const body = [...vec([[CHAINS, V128]]), ...code, END];
  return [...uleb(body.length), ...body];
}

function bandwidthWasm(): Uint8Array<ArrayBuffer> {
  const type = [0x60, ...vec([[I32], [I32]]), ...vec([[F32]])];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec([type])),
    ...section(3, vec([[0], [0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([
        [...name('mem'), 0x02, 0],
        [...name('sum'), 0x00, 0],
        [...name('or'), 0x00, 1],
      ]),
    ),
    ...section(10, vec([reduceBody(F32X4_ADD), reduceBody(V128_OR)])),
  ]);
}

export interface BandwidthMethod {
  method: string;
  gbps: number;
  /** Counted in the maximum (a pure read). */
  read: boolean;
}

export interface Bandwidth {
  gbps: number;
  method: string;
  bytes: number;
  passes: number;
  methods: BandwidthMethod[];
}

/** Measure read bandwidth over `bytes` (default 512 MiB) with `passes` passes per method, keeping the fastest. */
export function measureBandwidth(bytes = 512 * 2 ** 20, passes = 5): Bandwidth {
  bytes -= bytes % (16 * CHAINS);
  const mod = new WebAssembly.Module(bandwidthWasm());
  const ex = new WebAssembly.Instance(mod, {}).exports as unknown as {
    mem: WebAssembly.Memory;
    sum(p: number, e: number): number;
    or(p: number, e: number): number;
  };
  ex.mem.grow(Math.ceil(bytes / 65536) + 1);
  const base = 65536;
  const f32 = new Float32Array(ex.mem.buffer, base, bytes / 4);
  for (let i = 0; i < f32.length; i += 1024) f32.fill((i % 7) / 8, i, i + 1024); // touch every page; small exact values
  const time = (run: () => void): number => {
    let best = Infinity;
    for (let p = 0; p < passes; p++) {
      const t0 = performance.now();
      run();
      best = Math.min(best, performance.now() - t0);
    }
    return bytes / (best / 1000) / 1e9;
  };
  let sink = 0;
  // warm up the functions (tier-up) on a small range
  for (let i = 0; i < 20; i++) sink += ex.sum(base, base + (1 << 16)) + ex.or(base, base + (1 << 16));
  const methods: BandwidthMethod[] = [
    { method: 'wasm-simd f32x4 sum (8 chains)', gbps: time(() => (sink += ex.sum(base, base + bytes))), read: true },
    { method: 'wasm-simd v128 or (8 chains)', gbps: time(() => (sink += ex.or(base, base + bytes))), read: true },
  ];
  {
    const u8 = new Uint8Array(ex.mem.buffer, base, bytes);
    const half = Math.floor(bytes / 2);
    const t = time(() => u8.copyWithin(0, half, 2 * half));
    methods.push({ method: 'native copy (copyWithin, bytes read)', gbps: (t * half) / bytes, read: false });
  }
  if (!Number.isFinite(sink)) throw new Error('unreachable');
  const best = methods.filter((m) => m.read).reduce((a, b) => (b.gbps > a.gbps ? b : a));
  return { gbps: best.gbps, method: best.method, bytes, passes, methods };
}
