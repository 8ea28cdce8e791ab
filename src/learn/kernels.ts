/**
 * Kernels of the default global model (docs/benchmarks.md "Quality"): Tanimoto on structural
 * fingerprints and a Gaussian (RBF) kernel on standardised descriptors, and their mean (a mean of
 * kernels is a kernel). Measured on the service's folds (bench/quality-explore.ts), an SVM on
 * the mean of four fingerprint Tanimoto kernels and the descriptor RBF beat every single kernel,
 * random forests and k-nearest neighbours on Kazius and EPAFHM.
 *
 * - Fingerprints come as CSR lists of on-bit indices (chem/fingerprints.ts) and are packed into
 *   bit rows of 32-bit words, so that a Tanimoto value is |a ∧ b| / (|a| + |b| − |a ∧ b|) by
 *   popcounts over ⌈bits / 32⌉ words. Two empty fingerprints are 0 apart from the diagonal
 *   (nothing in common is known), a compound with itself 1.
 * - Descriptors are standardised with the training rows' mean and standard deviation, a missing
 *   value taking the mean (0 after standardising), clipped at ±5 sd (a few extreme values would
 *   otherwise put every kernel value near 0); a constant column is left out. The RBF is
 *   exp(−γ‖a − b‖²), γ = 1 / the number of columns used.
 * Matrices are Float32Array, row-major (a Kazius Gram matrix: 4069² entries, 66 MB).
 */

/** Fingerprints as packed bit rows: row i is `data[i·words … (i+1)·words)`, `ones[i]` its bits set. */
export interface BitRows {
  readonly n: number;
  readonly words: number;
  readonly data: Uint32Array;
  readonly ones: Int32Array;
}

/** Pack CSR fingerprints (row i's on bits: `idx[offsets[i] … offsets[i+1])`, each < `bits`). */
export function packBits(offsets: Int32Array, idx: Int32Array, bits: number): BitRows {
  const n = offsets.length - 1;
  const words = Math.ceil(bits / 32);
  const data = new Uint32Array(n * words);
  const ones = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
      const b = idx[k]!;
      if (b < 0 || b >= bits) throw new RangeError(`bit ${b} of row ${i} outside 0..${bits - 1}`);
      const w = i * words + (b >>> 5);
      const mask = 1 << (b & 31);
      if ((data[w]! & mask) === 0) {
        data[w] = data[w]! | mask;
        ones[i]!++;
      }
    }
  }
  return { n, words, data, ones };
}

/** Rows `rows` of `r` as bit rows of their own (a training subset, a query block). */
export function selectRows(r: BitRows, rows: ArrayLike<number>): BitRows {
  const data = new Uint32Array(rows.length * r.words);
  const ones = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const from = rows[i]! * r.words;
    data.set(r.data.subarray(from, from + r.words), i * r.words);
    ones[i] = r.ones[rows[i]!]!;
  }
  return { n: rows.length, words: r.words, data, ones };
}

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function tanimotoOf(a: BitRows, i: number, b: BitRows, j: number): number {
  const W = a.words;
  const ai = i * W;
  const bj = j * W;
  let c = 0;
  for (let w = 0; w < W; w++) c += popcount(a.data[ai + w]! & b.data[bj + w]!);
  const u = a.ones[i]! + b.ones[j]! - c;
  return u > 0 ? c / u : 0;
}

/** Tanimoto of every pair of rows (n × n, symmetric, 1 on the diagonal). */
export function tanimotoGram(r: BitRows): Float32Array {
  const n = r.n;
  const out = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    out[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const t = tanimotoOf(r, i, r, j);
      out[i * n + j] = t;
      out[j * n + i] = t;
    }
  }
  return out;
}

/** The on bits of every row (CSR: row i's bits are `idx[offsets[i] … offsets[i+1])`, ascending). */
function onBits(r: BitRows): { offsets: Int32Array; idx: Int32Array } {
  const offsets = new Int32Array(r.n + 1);
  for (let i = 0; i < r.n; i++) offsets[i + 1] = offsets[i]! + r.ones[i]!;
  const idx = new Int32Array(offsets[r.n]!);
  let k = 0;
  for (let i = 0; i < r.n; i++) {
    for (let w = 0; w < r.words; w++) {
      let x = r.data[i * r.words + w]!;
      while (x !== 0) {
        idx[k++] = w * 32 + (31 - Math.clz32(x & -x));
        x &= x - 1;
      }
    }
  }
  return { offsets, idx };
}

/**
 * Tanimoto of each query row with each training row (queries × training, row-major). A query's
 * bits are marked once and each training row's on bits looked up (sparse fingerprints such as
 * Morgan's ≈ 45 of 2048 bits: a tenth of the work of a popcount over every word); the counts,
 * hence the values, are those of `tanimotoGram`.
 */
export function tanimotoCross(query: BitRows, train: BitRows): Float32Array {
  if (query.words !== train.words) throw new RangeError("tanimotoCross: fingerprints of different lengths");
  const out = new Float32Array(query.n * train.n);
  const t = onBits(train);
  const q = onBits(query);
  const mark = new Uint8Array(query.words * 32);
  for (let i = 0; i < query.n; i++) {
    for (let k = q.offsets[i]!; k < q.offsets[i + 1]!; k++) mark[q.idx[k]!] = 1;
    const a = query.ones[i]!;
    for (let j = 0; j < train.n; j++) {
      let c = 0;
      for (let k = t.offsets[j]!; k < t.offsets[j + 1]!; k++) c += mark[t.idx[k]!]!;
      const u = a + train.ones[j]! - c;
      out[i * train.n + j] = u > 0 ? c / u : 0;
    }
    for (let k = q.offsets[i]!; k < q.offsets[i + 1]!; k++) mark[q.idx[k]!] = 0;
  }
  return out;
}

/**
 * Each row's largest Tanimoto with another row (−Infinity for a single row), from one triangle of
 * the pairs and without the n × n matrix (Kazius's 4069 Morgan rows: ≈ 0.5 s).
 */
export function nearestTanimoto(r: BitRows): Float64Array {
  const n = r.n;
  const nearest = new Float64Array(n).fill(-Infinity);
  const b = onBits(r);
  const mark = new Uint8Array(r.words * 32);
  for (let i = 0; i < n; i++) {
    for (let k = b.offsets[i]!; k < b.offsets[i + 1]!; k++) mark[b.idx[k]!] = 1;
    const a = r.ones[i]!;
    let best = nearest[i]!;
    for (let j = i + 1; j < n; j++) {
      let c = 0;
      for (let k = b.offsets[j]!; k < b.offsets[j + 1]!; k++) c += mark[b.idx[k]!]!;
      const u = a + r.ones[j]! - c;
      const t = Math.fround(u > 0 ? c / u : 0);
      if (t > best) best = t;
      if (t > nearest[j]!) nearest[j] = t;
    }
    nearest[i] = best;
    for (let k = b.offsets[i]!; k < b.offsets[i + 1]!; k++) mark[b.idx[k]!] = 0;
  }
  return nearest;
}

/** Column means and standard deviations of the training rows, and which columns vary. */
export interface Standardiser {
  readonly columns: number;
  readonly mean: Float64Array;
  readonly sd: Float64Array;
  /** Columns used (sd > 0). */
  readonly used: Int32Array;
}

/** Fit on row-major `x` (n × p); NaN = missing, left out of the column's mean and sd. */
export function fitStandardiser(x: Float64Array, n: number, p: number): Standardiser {
  const mean = new Float64Array(p);
  const sd = new Float64Array(p);
  const used: number[] = [];
  for (let j = 0; j < p; j++) {
    let s = 0;
    let c = 0;
    for (let i = 0; i < n; i++) {
      const v = x[i * p + j]!;
      if (Number.isFinite(v)) {
        s += v;
        c++;
      }
    }
    const m = c > 0 ? s / c : 0;
    let ss = 0;
    for (let i = 0; i < n; i++) {
      const v = x[i * p + j]!;
      if (Number.isFinite(v)) ss += (v - m) ** 2;
    }
    mean[j] = m;
    sd[j] = c > 0 ? Math.sqrt(ss / c) : 0;
    if (sd[j]! > 0) used.push(j);
  }
  return { columns: p, mean, sd, used: Int32Array.from(used) };
}

/** Rows of `x` (n × st.columns) standardised, clipped at ±5, missing → 0, on the used columns only (n × used). */
export function standardise(st: Standardiser, x: Float64Array, n: number): Float64Array {
  const p = st.columns;
  const q = st.used.length;
  const out = new Float64Array(n * q);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < q; k++) {
      const j = st.used[k]!;
      const v = x[i * p + j]!;
      out[i * q + k] = Number.isFinite(v) ? Math.max(-5, Math.min(5, (v - st.mean[j]!) / st.sd[j]!)) : 0;
    }
  }
  return out;
}

/** exp(−γ‖a_i − b_j‖²) for standardised rows (a: na × q, b: nb × q), γ = 1/q by default. */
export function rbfCross(a: Float64Array, na: number, b: Float64Array, nb: number, q: number, gamma = q > 0 ? 1 / q : 1): Float32Array {
  const out = new Float32Array(na * nb);
  for (let i = 0; i < na; i++) {
    for (let j = 0; j < nb; j++) {
      let d = 0;
      for (let k = 0; k < q; k++) d += (a[i * q + k]! - b[j * q + k]!) ** 2;
      out[i * nb + j] = Math.exp(-gamma * d);
    }
  }
  return out;
}

/** The element-wise mean of kernel matrices of the same shape (written into a new array). */
export function meanKernel(parts: readonly Float32Array[]): Float32Array {
  if (parts.length === 0) throw new RangeError("meanKernel: no kernels");
  const out = new Float32Array(parts[0]!.length);
  for (const p of parts) {
    if (p.length !== out.length) throw new RangeError("meanKernel: kernels of different shapes");
    for (let i = 0; i < out.length; i++) out[i] += p[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i] /= parts.length;
  return out;
}

/**
 * Add `weight` × Tanimoto(a_i, b_j) into `out` (a.n × b.n, row-major): a mean of kernels built in
 * one array, without a matrix per kernel. With `a === b` only one triangle is computed.
 */
export function addTanimoto(out: Float32Array, a: BitRows, b: BitRows, weight: number): void {
  if (a.words !== b.words) throw new RangeError("addTanimoto: fingerprints of different lengths");
  if (out.length !== a.n * b.n) throw new RangeError("addTanimoto: output of the wrong size");
  const nb = b.n;
  if (a === b) {
    for (let i = 0; i < a.n; i++) {
      out[i * nb + i] += weight;
      for (let j = i + 1; j < nb; j++) {
        const t = weight * tanimotoOf(a, i, a, j);
        out[i * nb + j] += t;
        out[j * nb + i] += t;
      }
    }
    return;
  }
  for (let i = 0; i < a.n; i++) for (let j = 0; j < nb; j++) out[i * nb + j] += weight * tanimotoOf(a, i, b, j);
}

/** Add `weight` × exp(−γ‖a_i − b_j‖²) into `out` (na × nb), standardised rows of q columns, γ = 1/q. */
export function addRbf(out: Float32Array, a: Float64Array, na: number, b: Float64Array, nb: number, q: number, weight: number): void {
  if (out.length !== na * nb) throw new RangeError("addRbf: output of the wrong size");
  const gamma = q > 0 ? 1 / q : 1;
  for (let i = 0; i < na; i++) {
    for (let j = 0; j < nb; j++) {
      let d = 0;
      for (let k = 0; k < q; k++) d += (a[i * q + k]! - b[j * q + k]!) ** 2;
      out[i * nb + j] += weight * Math.exp(-gamma * d);
    }
  }
}
