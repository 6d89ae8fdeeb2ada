/**
 * Deterministic L2-regularised logistic regression, for calibrating fused retrieval scores.
 *
 * Model: p(y = 1 | x) = σ(β₀ + Σ_j β_j x_j), σ(z) = 1 / (1 + e^(−z)).
 *
 * Fit: each feature column is first standardised over the rows (weighted mean μ_j and population
 * sd s_j, row weights w_i > 0, default 1; a column with s_j = 0 carries no information and gets
 * β_j = 0), then Newton's method (IRLS) minimises the penalised weighted mean log-loss
 *     L(γ) = (1 / W) Σ_i w_i [ −y_i log p_i − (1 − y_i) log(1 − p_i) ] + (λ / 2) Σ_{j ≥ 1} γ_j²,  W = Σ_i w_i
 * on the standardised features (the intercept is not penalised), from γ = 0, each step halved
 * until L does not increase (at most 30 halvings), until the largest step component is below
 * `tolerance` or `maxIterations` steps were taken. The coefficients are then mapped back onto the
 * raw features: β_j = γ_j / s_j, β₀ = γ₀ − Σ_j γ_j μ_j / s_j. Every sum runs in row order, then
 * column order; there is no randomness, so the same rows give the same coefficients bit for bit.
 * λ > 0 makes L strictly convex, so the minimum is unique even when the rows are separable.
 */

export interface LogisticOptions {
  /** λ, the L2 penalty on the standardised (non-intercept) coefficients; > 0. */
  l2: number;
  maxIterations: number;
  /** Stop when the largest |Newton step| (standardised scale) falls below this. */
  tolerance: number;
}

export const LOGISTIC_DEFAULTS: Readonly<LogisticOptions> = Object.freeze({ l2: 1e-3, maxIterations: 100, tolerance: 1e-10 });

export interface LogisticFit {
  /** [β₀, β₁ … β_d] on the raw features. */
  coefficients: number[];
  rows: number;
  positives: number;
  iterations: number;
  converged: boolean;
  /** The penalised mean log-loss at the solution (standardised scale). */
  loss: number;
}

/** σ(z), without overflow for large |z|. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** log(1 + e^z), without overflow. */
function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

/**
 * Fit the model on n rows of `d` features (`x`, row-major: row i is x[i·d … i·d + d − 1]) with
 * labels `y` (0 or 1) and optional row weights (finite, > 0). Throws a `RangeError` on malformed input.
 */
export function fitLogistic(x: Float64Array, y: Uint8Array, d: number, options: Partial<LogisticOptions> = {}, weights?: Float64Array): LogisticFit {
  const o: LogisticOptions = { ...LOGISTIC_DEFAULTS, ...options };
  const n = y.length;
  if (!Number.isInteger(d) || d < 0) throw new RangeError(`feature count must be an integer ≥ 0 (got ${d})`);
  if (x.length !== n * d) throw new RangeError(`expected ${n * d} feature values for ${n} rows of ${d}, got ${x.length}`);
  if (!(o.l2 > 0) || !Number.isFinite(o.l2)) throw new RangeError(`l2 must be a finite number > 0 (got ${o.l2})`);
  if (n === 0) throw new RangeError('no rows to fit');
  let positives = 0;
  for (let i = 0; i < n; i++) {
    if (y[i] !== 0 && y[i] !== 1) throw new RangeError(`labels must be 0 or 1 (row ${i}: ${y[i]})`);
    positives += y[i]!;
  }
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i]!)) throw new RangeError(`feature value ${i} is not finite`);
  if (weights !== undefined && weights.length !== n) throw new RangeError(`expected ${n} row weights, got ${weights.length}`);
  const w = weights ?? new Float64Array(n).fill(1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (!(w[i]! > 0) || !Number.isFinite(w[i]!)) throw new RangeError(`row weights must be finite and > 0 (row ${i}: ${w[i]})`);
    total += w[i]!;
  }

  // Standardise the columns.
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] = mean[j]! + w[i]! * x[i * d + j]!;
  for (let j = 0; j < d; j++) mean[j] = mean[j]! / total;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < d; j++) {
      const v = x[i * d + j]! - mean[j]!;
      sd[j] = sd[j]! + w[i]! * v * v;
    }
  // A column whose spread is at rounding level of its mean is constant.
  for (let j = 0; j < d; j++) {
    const s = Math.sqrt(sd[j]! / total);
    sd[j] = s > 1e-12 * Math.max(1, Math.abs(mean[j]!)) ? s : 0;
  }
  // Columns that vary (the others are left out of the fit) and the design with an intercept column.
  const used: number[] = [];
  for (let j = 0; j < d; j++) if (sd[j]! > 0) used.push(j);
  const q = used.length + 1;
  const z = new Float64Array(n * q);
  for (let i = 0; i < n; i++) {
    z[i * q] = 1;
    used.forEach((j, u) => (z[i * q + u + 1] = (x[i * d + j]! - mean[j]!) / sd[j]!));
  }

  const loss = (g: Float64Array): number => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      let t = 0;
      for (let u = 0; u < q; u++) t += g[u]! * z[i * q + u]!;
      s += w[i]! * (y[i] === 1 ? softplus(-t) : softplus(t));
    }
    let pen = 0;
    for (let u = 1; u < q; u++) pen += g[u]! * g[u]!;
    return s / total + (o.l2 / 2) * pen;
  };

  let gamma = new Float64Array(q);
  let current = loss(gamma);
  let iterations = 0;
  let converged = false;
  const grad = new Float64Array(q);
  const hess = new Float64Array(q * q);
  while (iterations < o.maxIterations) {
    grad.fill(0);
    hess.fill(0);
    for (let i = 0; i < n; i++) {
      let t = 0;
      for (let u = 0; u < q; u++) t += gamma[u]! * z[i * q + u]!;
      const p = sigmoid(t);
      const r = w[i]! * (p - y[i]!);
      const h = w[i]! * p * (1 - p);
      for (let u = 0; u < q; u++) {
        const zu = z[i * q + u]!;
        grad[u] = grad[u]! + r * zu;
        for (let v = 0; v <= u; v++) hess[u * q + v] = hess[u * q + v]! + h * zu * z[i * q + v]!;
      }
    }
    for (let u = 0; u < q; u++) {
      grad[u] = grad[u]! / total + (u > 0 ? o.l2 * gamma[u]! : 0);
      for (let v = 0; v <= u; v++) {
        const h = hess[u * q + v]! / total + (u === v && u > 0 ? o.l2 : 0);
        hess[u * q + v] = h;
        hess[v * q + u] = h;
      }
      // A tiny ridge on the intercept keeps the system solvable when every p saturates.
      if (u === 0) hess[0] = hess[0]! + 1e-12;
    }
    const step = solve(hess, grad, q);
    iterations++;
    let scale = 1;
    let next = gamma;
    let nextLoss = current;
    for (let halving = 0; halving <= 30; halving++) {
      const candidate = new Float64Array(q);
      for (let u = 0; u < q; u++) candidate[u] = gamma[u]! - scale * step[u]!;
      const l = loss(candidate);
      if (l <= current) {
        next = candidate;
        nextLoss = l;
        break;
      }
      scale /= 2;
    }
    let largest = 0;
    for (let u = 0; u < q; u++) largest = Math.max(largest, Math.abs(next[u]! - gamma[u]!));
    gamma = next;
    current = nextLoss;
    if (largest < o.tolerance) {
      converged = true;
      break;
    }
  }

  // Back onto the raw features.
  const coefficients = new Array<number>(d + 1).fill(0);
  let intercept = gamma[0]!;
  used.forEach((j, u) => {
    const b = gamma[u + 1]! / sd[j]!;
    coefficients[j + 1] = b;
    intercept -= b * mean[j]!;
  });
  coefficients[0] = intercept;
  return { coefficients, rows: n, positives, iterations, converged, loss: current };
}

/** Solve H s = g for a symmetric positive definite H (q × q, row-major) by Gaussian elimination with partial pivoting. */
function solve(h: Float64Array, g: Float64Array, q: number): Float64Array {
  const a = Float64Array.from(h);
  const b = Float64Array.from(g);
  for (let c = 0; c < q; c++) {
    let pivot = c;
    for (let r = c + 1; r < q; r++) if (Math.abs(a[r * q + c]!) > Math.abs(a[pivot * q + c]!)) pivot = r;
    if (pivot !== c) {
      for (let k = 0; k < q; k++) {
        const t = a[c * q + k]!;
        a[c * q + k] = a[pivot * q + k]!;
        a[pivot * q + k] = t;
      }
      const t = b[c]!;
      b[c] = b[pivot]!;
      b[pivot] = t;
    }
    const diag = a[c * q + c]!;
    if (diag === 0) continue;
    for (let r = c + 1; r < q; r++) {
      const f = a[r * q + c]! / diag;
      if (f === 0) continue;
      for (let k = c; k < q; k++) a[r * q + k] = a[r * q + k]! - f * a[c * q + k]!;
      b[r] = b[r]! - f * b[c]!;
    }
  }
  const s = new Float64Array(q);
  for (let c = q - 1; c >= 0; c--) {
    let t = b[c]!;
    for (let k = c + 1; k < q; k++) t -= a[c * q + k]! * s[k]!;
    const diag = a[c * q + c]!;
    s[c] = diag === 0 ? 0 : t / diag;
  }
  return s;
}
