/** Shared helpers of the descriptor tests. */
import assert from "node:assert/strict";
import { loadRDKit } from "../../../../src/chem/rdkit.ts";
import { computeDescriptors, type Lib } from "../../../../src/chem/descriptors/index.ts";

/** All descriptors of one SMILES for one lib; fails the test when RDKit cannot parse it. */
export async function calc(smiles: string, lib: Lib = "cdk"): Promise<Map<string, number>> {
  const rdkit = await loadRDKit();
  const v = computeDescriptors(rdkit, smiles, { lib });
  assert.ok(v !== null, `RDKit could not parse ${smiles}`);
  return v;
}

/** Assert that `name` is present and within `tol` (absolute) of `expected`. */
export function near(values: Map<string, number>, name: string, expected: number, tol: number, what = ""): void {
  const got = values.get(name);
  assert.ok(got !== undefined, `${name} absent ${what}`);
  assert.ok(Math.abs(got - expected) <= tol, `${name} ${what}: got ${got}, expected ${expected} ± ${tol}`);
}

/** Assert several values (names[i] ↔ expected[i]) with one tolerance. */
export function nearAll(values: Map<string, number>, names: readonly string[], expected: readonly number[], tol: number, what = ""): void {
  assert.equal(names.length, expected.length);
  names.forEach((n, i) => near(values, n, expected[i]!, tol, what));
}
