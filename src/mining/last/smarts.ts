/**
 * Latent structure → LAST-SMARTS, as last-utils' `LUGraph#to_smarts` does it (docs/miners.md
 * "LAST-SMARTS"), in lazar's mode `nls` (default) or `msa` / `nop`.
 *
 * Depth-first from node 0 over the stored (lower → higher id) edges, in target-id order;
 * deleted edges (SVD filter) and everything behind them are skipped. Atoms are OR-lists of their
 * labels (`[#8&A,#6&a]`), bonds OR-lists of their bond symbols. The "level" of a node is the
 * weight of the edge that led to it (node 0: the weight of its first edge); an out-edge whose
 * weight is ≥ the level is mandatory, the others are optional. A single optional branch is
 * written like a mandatory one; with two or more, the atom becomes
 * `[atom;$(env_1),$(env_2),…]` followed by `(~*)` once per optional branch of the highest
 * optional weight (`nls`; `msa`: the largest number of optional branches sharing one weight),
 * where env_i is the atom, the optional branch (recursively converted) in parentheses, then the
 * predecessor atom and the mandatory successor atoms (all but the last in parentheses).
 * Duplicate `$()` alternatives are kept, as last-utils emits them.
 */

import type { Walk, WalkEdge } from "./walk.ts";

export type LastSmartsMode = "nls" | "msa" | "nop";

export interface LastSmartsOptions {
  mode?: LastSmartsMode;
  /** last-utils `nna`: no aromaticity flags on atoms (`#6` instead of `#6&A`). */
  noAromaticFlags?: boolean;
  /** last-utils `wcb`: append `,:` to non-aromatic bond lists. */
  wildcardBonds?: boolean;
}

const BOND = ["", "-", "=", "#", ":"];

export function lastSmarts(w: Walk, options: LastSmartsOptions = {}): string {
  const mode = options.mode ?? "nls";
  const atom = (i: number): string =>
    (w.nodes.get(i) ?? [])
      .map((l) => (options.noAromaticFlags ? `#${l > 150 ? l - 150 : l}` : l > 150 ? `#${l - 150}&a` : `#${l}&A`))
      .join(",");
  const bond = (e: WalkEdge): string => {
    const s = e.labels.map((b) => BOND[b] ?? "~");
    if (options.wildcardBonds && !e.labels.includes(4)) s.push(":");
    return s.join(",");
  };
  /** Out-edges (to higher ids) that are not deleted, in target order. */
  const children = (i: number): [number, WalkEdge][] => {
    const m = w.edges.get(i);
    if (!m) return [];
    return [...m.entries()].filter(([, e]) => !e.deleted).sort((a, b) => a[0] - b[0]);
  };
  const branchList = (items: string[]): string => items.map((s, k) => (k < items.length - 1 ? `(${s})` : s)).join("");

  const node = (i: number, level: number, pred: number, predEdge: WalkEdge | null): string => {
    const kids = children(i);
    const mandatory: [number, WalkEdge][] = [];
    const optional: [number, WalkEdge][] = [];
    for (const k of kids) (mode === "nop" || k[1].weight >= level ? mandatory : optional).push(k);
    if (optional.length === 1) {
      mandatory.push(optional[0]!);
      mandatory.sort((a, b) => a[0] - b[0]);
      optional.length = 0;
    }
    const sub = (k: [number, WalkEdge]): string => bond(k[1]) + node(k[0], k[1].weight, i, k[1]);
    let text: string;
    if (optional.length >= 2) {
      const context: string[] = [];
      if (pred >= 0 && predEdge) context.push(bond(predEdge) + `[${atom(pred)}]`);
      for (const [k, e] of mandatory) context.push(bond(e) + `[${atom(k)}]`);
      const envs = optional.map((o) => `$(${`[${atom(i)}]`}${branchList([sub(o), ...context])})`);
      text = `[${atom(i)};${envs.join(",")}]`;
      let nrB: number;
      if (mode === "msa") {
        const byWeight = new Map<number, number>();
        for (const [, e] of optional) byWeight.set(e.weight, (byWeight.get(e.weight) ?? 0) + 1);
        nrB = Math.max(...byWeight.values());
      } else {
        const top = Math.max(...optional.map(([, e]) => e.weight));
        nrB = optional.filter(([, e]) => e.weight === top).length;
      }
      text += "(~*)".repeat(nrB);
    } else text = `[${atom(i)}]`;
    return text + branchList(mandatory.map(sub));
  };

  const level = w.edge(0, 1)?.weight ?? children(0)[0]?.[1].weight ?? 0;
  return node(0, level, -1, null);
}
