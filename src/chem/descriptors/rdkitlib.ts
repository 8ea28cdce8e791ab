/**
 * Library `rdkit`: RDKit MinimalLib's own `get_descriptors()` values (its 43 keys),
 * computed on the H-suppressed molecule, one registry entry per value with the pc_type that
 * matches its CDK counterpart (counts → constitutional, H-bond counts → electronic, TPSA/chi/
 * kappa/ASA → topological).
 *
 * Notes: kappa1..3 are Hall–Kier α-modified (unlike CDK Kier1..3); chi0n..chi4n are not CDK's
 * simple chi; `chi2v`/`chi2n` were wrong (= chi3) in @rdkit/rdkit < 2026.9.1, which a unit test
 * guards against (hexane chi2v = 1.7071).
 */

import type { RDKitMol } from "../rdkit.ts";
import type { DescriptorDef, DescriptorValues, PcType } from "./types.ts";

const GROUPS: [PcType, string[], string][] = [
  [
    "constitutional",
    [
      "exactmw", "amw", "NumRotatableBonds", "NumHeavyAtoms", "NumAtoms", "NumHeteroatoms", "NumAmideBonds",
      "FractionCSP3", "NumRings", "NumAromaticRings", "NumAliphaticRings", "NumSaturatedRings", "NumHeterocycles",
      "NumAromaticHeterocycles", "NumSaturatedHeterocycles", "NumAliphaticHeterocycles", "NumSpiroAtoms",
      "NumBridgeheadAtoms", "NumAtomStereoCenters", "NumUnspecifiedAtomStereoCenters", "CrippenClogP", "CrippenMR",
    ],
    "RDKit constitutional descriptor",
  ],
  ["electronic", ["lipinskiHBA", "lipinskiHBD", "NumHBD", "NumHBA"], "RDKit hydrogen-bond count"],
  [
    "topological",
    [
      "labuteASA", "tpsa", "chi0v", "chi1v", "chi2v", "chi3v", "chi4v", "chi0n", "chi1n", "chi2n", "chi3n", "chi4n",
      "hallKierAlpha", "kappa1", "kappa2", "kappa3", "Phi",
    ],
    "RDKit topological descriptor",
  ],
];

/** One entry per RDKit value; `id` = the RDKit key. */
export const RDKIT_DESCRIPTORS: readonly DescriptorDef[] = GROUPS.flatMap(([pcType, keys, title]) =>
  keys.map((k): DescriptorDef => ({ id: k, title: `${title} ${k}`, pcType, lib: "rdkit", values: [k] })),
);

const PC_OF = new Map(RDKIT_DESCRIPTORS.map((d) => [d.id, d.pcType]));

/** RDKit values of the requested pc_types into `out` (finite numbers only). */
export function rdkitDescriptors(mol: RDKitMol, pcTypes: ReadonlySet<PcType>, out: DescriptorValues): void {
  const all = JSON.parse(mol.get_descriptors()) as Record<string, unknown>;
  for (const [k, v] of Object.entries(all)) {
    const pc = PC_OF.get(k);
    if (pc !== undefined && pcTypes.has(pc) && typeof v === "number" && Number.isFinite(v)) out.set(k, v);
  }
}
