/**
 * The global kernel model with conformal calibration (src/learn/kernel-model.ts) on synthetic
 * data whose truth is known: its prediction sets and intervals must cover as often as promised
 * (within a binomial bound computed here), and carry information (not every class, not every
 * number). Kernel: RBF on the raw coordinates (learn/kernels.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rbfCross } from "../../../src/learn/kernels.ts";
import { difficulty, predictKernelModel, trainKernelModel } from "../../../src/learn/kernel-model.ts";
import { predictionSet } from "../../../src/learn/conformal.ts";
import { loadLibsvm } from "../../../src/learn/svm.ts";
import { mulberry32Unit } from "../../../src/numeric/random.ts";

function normal(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** Binomial bound: the error rate over m test points, calibrated on ≈ nc per class, is within 3 sd of ε above. */
function upperBound(eps: number, m: number, nc: number): number {
  return eps + 3 * Math.sqrt((eps * (1 - eps)) / m + (eps * (1 - eps)) / (nc + 2));
}

test("classification: Mondrian p-values from out-of-fold decision values cover as promised, and the sets are informative", async () => {
  const lib = await loadLibsvm();
  const rand = mulberry32Unit(4);
  // two overlapping Gaussian classes in 2-D, centres (±0.8, 0), sd 1
  const make = (m: number) => {
    const x = new Float64Array(2 * m);
    const y = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      y[i] = rand() < 0.5 ? 1 : 0;
      x[2 * i] = (y[i] ? 0.8 : -0.8) + normal(rand);
      x[2 * i + 1] = normal(rand);
    }
    return { x, y, m };
  };
  const train = make(600);
  const tst = make(4000);
  const gram = rbfCross(train.x, train.m, train.x, train.m, 2, 0.5);
  const rows = Int32Array.from({ length: train.m }, (_, i) => i);
  const model = trainKernelModel(lib, gram, train.m, rows, train.y, { kind: "classification", cost: 1, seed: 2 });
  assert.equal(model.classCalibration!.counts[0]! + model.classCalibration!.counts[1]!, 600, "every training row calibrates");
  const cross = rbfCross(tst.x, tst.m, train.x, train.m, 2, 0.5);
  const nc = Math.min(model.classCalibration!.counts[0]!, model.classCalibration!.counts[1]!);
  for (const eps of [0.1, 0.2]) {
    let errors = 0;
    let size = 0;
    let correct = 0;
    let truthP = 0;
    let otherP = 0;
    for (let t = 0; t < tst.m; t++) {
      const p = predictKernelModel(model, (j) => cross[t * train.m + j]!, rows, 0.8);
      const set = predictionSet(p.pValues!, eps);
      if (!set.includes(tst.y[t]!)) errors++;
      size += set.length;
      if (p.value === tst.y[t]) correct++;
      truthP += p.pValues![tst.y[t]!]!;
      otherP += p.pValues![1 - tst.y[t]!]!;
    }
    assert.ok(truthP > 2 * otherP, `mean p-value of the true class ${truthP / tst.m}, of the other ${otherP / tst.m}`);
    const rate = errors / tst.m;
    assert.ok(rate <= upperBound(eps, tst.m, nc), `ε ${eps}: error rate ${rate}`);
    assert.ok(rate >= eps - 0.06, `ε ${eps}: error rate ${rate} far below ε: the sets say less than they could`);
    // Bayes accuracy here is Φ(0.8) ≈ 0.79; the sets must be smaller than "both classes" on average
    assert.ok(correct / tst.m > 0.74, `accuracy ${correct / tst.m}`);
    assert.ok(size / tst.m < 2, `mean set size ${size / tst.m}`);
  }
});

test("three classes, one SVM per class against the rest: the p-values cover as promised, the class is the largest decision, accuracy near the Bayes rule's", async () => {
  const lib = await loadLibsvm();
  const rand = mulberry32Unit(5);
  // three Gaussian classes in 2-D, sd 1, centres on a circle of radius 1.2 (120° apart)
  const centre = [0, 1, 2].map((c) => [1.2 * Math.cos((2 * Math.PI * c) / 3), 1.2 * Math.sin((2 * Math.PI * c) / 3)] as const);
  const make = (m: number) => {
    const x = new Float64Array(2 * m);
    const y = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      y[i] = Math.floor(3 * rand());
      x[2 * i] = centre[y[i]!]![0] + normal(rand);
      x[2 * i + 1] = centre[y[i]!]![1] + normal(rand);
    }
    return { x, y, m };
  };
  const train = make(600);
  const tst = make(3000);
  const gram = rbfCross(train.x, train.m, train.x, train.m, 2, 0.5);
  const rows = Int32Array.from({ length: train.m }, (_, i) => i);
  const model = trainKernelModel(lib, gram, train.m, rows, train.y, { kind: "classification", nClasses: 3, cost: 1, seed: 2 });
  assert.equal(model.oneVsRest?.length, 3, "one SVM per class");
  assert.equal(model.classCalibration!.nClasses, 3);
  const cross = rbfCross(tst.x, tst.m, train.x, train.m, 2, 0.5);
  const nc = Math.min(...model.classCalibration!.counts);
  // the Bayes rule for equal priors and equal spherical covariances: the nearest centre (computed here, independently of the model)
  let bayes = 0;
  for (let t = 0; t < tst.m; t++) {
    const d = centre.map(([a, b]) => (tst.x[2 * t]! - a) ** 2 + (tst.x[2 * t + 1]! - b) ** 2);
    if (d.indexOf(Math.min(...d)) === tst.y[t]) bayes++;
  }
  let correct = 0;
  const errors = { 0.1: 0, 0.2: 0 };
  for (let t = 0; t < tst.m; t++) {
    const p = predictKernelModel(model, (j) => cross[t * train.m + j]!, rows, 0.8);
    assert.equal(p.pValues!.length, 3);
    if (p.value === tst.y[t]) correct++;
    for (const eps of [0.1, 0.2] as const) if (!predictionSet(p.pValues!, eps).includes(tst.y[t]!)) errors[eps]++;
  }
  assert.ok(correct / tst.m > bayes / tst.m - 0.05, `accuracy ${correct / tst.m}, Bayes rule ${bayes / tst.m}`);
  for (const eps of [0.1, 0.2] as const) {
    const rate = errors[eps] / tst.m;
    assert.ok(rate <= upperBound(eps, tst.m, nc) && rate >= eps - 0.06, `ε ${eps}: error rate ${rate}`);
  }
});

test("three classes: a class with no training row has no SVM, p-value 0 and is never predicted", async () => {
  const lib = await loadLibsvm();
  const x = Float64Array.from({ length: 40 }, (_, i) => (i < 20 ? -1 : 1) + (i % 5) * 0.1);
  const y = Int32Array.from({ length: 40 }, (_, i) => (i < 20 ? 0 : 2));
  const gram = rbfCross(x, 40, x, 40, 1, 0.5);
  const rows = Int32Array.from({ length: 40 }, (_, i) => i);
  const model = trainKernelModel(lib, gram, 40, rows, y, { kind: "classification", nClasses: 3, cost: 1, seed: 1 });
  assert.equal(model.oneVsRest![1], null);
  for (const q of [-1, 0, 1]) {
    const k = rbfCross(Float64Array.of(q), 1, x, 40, 1, 0.5);
    const p = predictKernelModel(model, (j) => k[j]!, rows, 0.8);
    assert.equal(p.pValues![1], 0);
    assert.notEqual(p.value, 1);
    if (q !== 0) assert.equal(p.value, q < 0 ? 0 : 2, `x = ${q}`);
  }
});

test("regression: normalised intervals cover as promised, and are wider far from the training data", async () => {
  const lib = await loadLibsvm();
  const rand = mulberry32Unit(8);
  // y = sin(3x) + noise 0.3 on x ∈ [−1, 1]
  const make = (m: number, lo = -1, hi = 1) => {
    const x = new Float64Array(m);
    const y = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      x[i] = lo + (hi - lo) * rand();
      y[i] = Math.sin(3 * x[i]!) + 0.3 * normal(rand);
    }
    return { x, y, m };
  };
  const train = make(500);
  const tst = make(3000);
  const gram = rbfCross(train.x, train.m, train.x, train.m, 1, 2);
  const rows = Int32Array.from({ length: train.m }, (_, i) => i);
  const model = trainKernelModel(lib, gram, train.m, rows, train.y, { kind: "regression", cost: 10, epsilon: 0.1, seed: 3 });
  const cross = rbfCross(tst.x, tst.m, train.x, train.m, 1, 2);
  let outside = 0;
  let width = 0;
  for (let t = 0; t < tst.m; t++) {
    const p = predictKernelModel(model, (j) => cross[t * train.m + j]!, rows, 0.8);
    const [lo, hi] = p.interval!;
    if (tst.y[t]! < lo || tst.y[t]! > hi) outside++;
    width += hi - lo;
  }
  const rate = outside / tst.m;
  assert.ok(rate <= upperBound(0.2, tst.m, 500) && rate >= 0.2 - 0.06, `error rate at 0.8 confidence: ${rate}`);
  // the noise alone needs ±1.28·0.3 = 0.77 wide for 80 %: the mean width is of that order, not the whole range
  assert.ok(width / tst.m > 0.6 && width / tst.m < 1.4, `mean width ${width / tst.m}`);
  // a point outside the training range: larger difficulty, wider interval
  const far = rbfCross(Float64Array.from([3]), 1, train.x, train.m, 1, 2);
  const near = rbfCross(Float64Array.from([0]), 1, train.x, train.m, 1, 2);
  const pf = predictKernelModel(model, (j) => far[j]!, rows, 0.8);
  const pn = predictKernelModel(model, (j) => near[j]!, rows, 0.8);
  assert.ok(pf.difficulty! > pn.difficulty! + 0.5, `difficulty far ${pf.difficulty} near ${pn.difficulty}`);
  assert.ok(pf.interval![1] - pf.interval![0] > 2 * (pn.interval![1] - pn.interval![0]));
});

test("difficulty: 1 − the mean of the k largest kernel values, the row itself left out", () => {
  const k = [0.9, 0.1, 0.5, 1, 0.7];
  // k = 2 without row 3: the two largest of 0.9, 0.1, 0.5, 0.7 are 0.9 and 0.7 → 1 − 0.8 = 0.2
  assert.ok(Math.abs(difficulty((j) => k[j]!, [0, 1, 2, 3, 4], 2, 3) - 0.2) < 1e-12);
  assert.equal(difficulty((j) => k[j]!, [0, 1, 2, 3, 4], 1), 0, "with itself among the rows: 1 − 1");
});
