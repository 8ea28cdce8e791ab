/**
 * WHIMDescriptor (Todeschini's weighted holistic invariant molecular descriptors) at CDK's
 * default weighting `unity`, as lazar used it (pc_type `hybrid`, needs 3D): 17 values
 * Wlambda1..3, Wnu1..2, Wgamma1..3, Weta1..3, WT, WA, WV, WK, WG, WD, suffixed `.unity`.
 *
 * CDK specifics reproduced: centring on the unweighted mean; covariance Σ w x xᵀ / Σ w;
 * eigenvalues ascending (Wlambda1 is the smallest); scores t = X·V; ν_k = λ_k/Σλ;
 * η_k = λ_k² n / Σ t_ik⁴; γ_k = 1/(1 + H_k) with H_k = −[(n_s/n) log₂(n_s/n) + (n_a/n) log₂(1/n)],
 * n_s = atoms whose score has an exactly negated partner, n_a = n − n_s — with floating-point
 * coordinates n_s is almost always 0, 0·log 0 is NaN in CDK, so Wgamma1–3 and WG are then absent;
 * T = Σλ, A = λ1λ2 + λ1λ3 + λ2λ3, V = T + A + λ1λ2λ3, K = (λ3/Σλ − 1/3)/(4/3) (CDK keeps only the
 * last term of its loop), G = (γ1γ2γ3)^(1/3), D = Ση.
 */

import { eigenSym3, type Mol3D } from "./geometry3d.ts";
import { put, type DescriptorValues } from "./types.ts";

export function whim(mol: Mol3D, out: DescriptorValues): void {
  const n = mol.n;
  if (n === 0) return;
  const xyz = mol.xyz;
  const mean = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) mean[a]! += xyz[3 * i + a]!;
  for (let a = 0; a < 3; a++) mean[a]! /= n;
  const X = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) X[3 * i + a] = xyz[3 * i + a]! - mean[a]!;
  // CDK recomputes the (now ≈ 0) column means inside the covariance; unity weights, Σw = n.
  const m2 = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) m2[a]! += X[3 * i + a]!;
  for (let a = 0; a < 3; a++) m2[a]! /= n;
  const cov = new Float64Array(9);
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += (X[3 * i + a]! - m2[a]!) * (X[3 * i + b]! - m2[b]!);
      cov[3 * a + b] = s / n;
    }
  }
  const { values: lambda, vectors: V } = eigenSym3(cov);
  const t = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) t[3 * i + k] = X[3 * i]! * V[k]! + X[3 * i + 1]! * V[3 + k]! + X[3 * i + 2]! * V[6 + k]!;
  }
  const sum = lambda[0] + lambda[1] + lambda[2];
  if (sum === 0) return; // CDK: "Lambda sum was 0" → all values undefined
  const nu = lambda.map((l) => l / sum);
  const eta = [0, 0, 0];
  const gamma = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    let t4 = 0;
    for (let i = 0; i < n; i++) t4 += t[3 * i + k]! ** 4;
    eta[k] = (lambda[k]! * lambda[k]! * n) / t4;
    let ns = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (j !== i && t[3 * j + k] === -1 * t[3 * i + k]!) {
          ns++;
          break;
        }
      }
    }
    const na = n - ns;
    // 0·log(0) = NaN as in CDK when ns = 0
    const h = -((ns / n) * (Math.log(ns / n) / Math.log(2)) + (na / n) * (Math.log(1 / n) / Math.log(2)));
    gamma[k] = 1 / (1 + h);
  }
  const [l1, l2, l3] = lambda;
  const T = sum;
  const A = l1 * l2 + l1 * l3 + l2 * l3;
  const Vv = T + A + l1 * l2 * l3;
  const K = (l3 / sum - 1 / 3) / (4 / 3);
  const G = Math.pow(gamma[0]! * gamma[1]! * gamma[2]!, 1 / 3);
  const D = eta[0]! + eta[1]! + eta[2]!;
  const vals: [string, number][] = [
    ["Wlambda1", l1], ["Wlambda2", l2], ["Wlambda3", l3], ["Wnu1", nu[0]!], ["Wnu2", nu[1]!],
    ["Wgamma1", gamma[0]!], ["Wgamma2", gamma[1]!], ["Wgamma3", gamma[2]!],
    ["Weta1", eta[0]!], ["Weta2", eta[1]!], ["Weta3", eta[2]!],
    ["WT", T], ["WA", A], ["WV", Vv], ["WK", K], ["WG", G], ["WD", D],
  ];
  for (const [k, v] of vals) put(out, `${k}.unity`, v);
}
