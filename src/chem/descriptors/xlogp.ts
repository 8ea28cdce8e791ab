/**
 * CDK XLogPDescriptor (lazar's constitutional category): XLogP 2 (R. Wang, Y. Gao, L. Lai, Perspect.
 * Drug Discov. Des. 19 (2000) 47–66) as CDK implements it — ≈ 90 atom types on the molecule
 * with explicit hydrogens plus corrections: halogen pairs on one atom, 1,3-dicarbonyl,
 * hydrophobic carbon, internal hydrogen bonds, C-terminal amino acid, p-amino sulfonic acid,
 * optional salicylic acid, ortho O–O pair. Ported from CDK's class (the one of CDK 2.8 was read
 * for this port); where CDK checks a SMARTS, the same match is written out on the graph.
 *
 * Conventions taken over from CDK: bond counts include the bonds to hydrogens (our H counts),
 * bond orders are the Kekulé orders (RDKit's Kekulé form here), "in an aromatic ring" means an
 * aromatic atom in a ring (of a smallest set of smallest rings) of size ≥ 6. Aromaticity is
 * RDKit's, which corresponds to CDK with aromaticity perceived (`checkAromaticity` or aromatic
 * input); `aromatic: false` reproduces CDK on a Kekulé structure without perception (for the
 * CDK test that distinguishes the two). The SMARTS corrections always see the aromatic flags:
 * CDK's SMARTS matcher perceives (Daylight) aromaticity itself.
 */

import type { DescriptorContext } from "./descriptor-context.ts";
import { FAR, type HDepletedGraph } from "./graph.ts";
import { blocks } from "./alogp.ts";
import { bArom, bDouble, bSA, bSingle } from "./crippen.ts";

export interface XLogPOptions {
  /** Use the aromaticity flags (default true; false = CDK on a non-aromatic Kekulé structure). */
  readonly aromatic?: boolean;
  /** Apply the salicylic acid correction (+0.554; CDK parameter salicylFlag, default false). */
  readonly salicylFlag?: boolean;
}

/**
 * Smallest ring through each bond (0 for acyclic bonds): 1 + the shortest path between its
 * atoms that avoids the bond.
 */
export function smallestRingOfBonds(ctx: DescriptorContext): Uint16Array {
  const g = ctx.g;
  const rb = ctx.ringBond;
  const out = new Uint16Array(g.m);
  const dist = new Int32Array(g.n);
  const queue = new Int32Array(g.n);
  for (let b = 0; b < g.m; b++) {
    if (!rb[b]) continue;
    const s = g.bondA[b]!;
    const t = g.bondB[b]!;
    dist.fill(-1);
    dist[s] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    search: while (head < tail) {
      const v = queue[head++]!;
      for (let p = g.adjStart[v]!; p < g.adjStart[v + 1]!; p++) {
        if (g.adjBond[p] === b) continue;
        const w = g.adjAtom[p]!;
        if (dist[w] !== -1) continue;
        dist[w] = dist[v]! + 1;
        if (w === t) break search;
        queue[tail++] = w;
      }
    }
    out[b] = dist[t]! + 1;
  }
  return out;
}

/**
 * A smallest set of smallest rings (a minimum cycle basis, Horton's candidate cycles + GF(2)
 * elimination), as atom lists; computed per biconnected ring system. Where several bases
 * exist (rings of equal size), which one is returned depends on the atom order, as in CDK.
 */
export function sssr(g: HDepletedGraph, ringBond: Uint8Array): number[][] {
  const out: number[][] = [];
  const inRing = new Uint8Array(g.m);
  for (let b = 0; b < g.m; b++) inRing[b] = ringBond[b]!;
  const { blockOf, size } = blocks(g, inRing);
  for (let id = 0; id < size.length; id++) {
    if (size[id]! < 3) continue;
    const edges: number[] = [];
    for (let b = 0; b < g.m; b++) if (blockOf[b] === id) edges.push(b);
    const verts = [...new Set(edges.flatMap((b) => [g.bondA[b]!, g.bondB[b]!]))];
    const mu = edges.length - verts.length + 1;
    if (mu === 1) {
      out.push(cycleAtoms(g, edges));
      continue;
    }
    const local = new Int32Array(g.m).fill(-1);
    edges.forEach((b, k) => (local[b] = k));
    const words = (edges.length + 31) >>> 5;
    // Horton candidates: for every vertex v and every non-tree edge (x, y) of v's BFS tree
    // whose tree paths to v meet only in v, the cycle P(v,x) + (x,y) + P(y,v).
    const cands: { len: number; bits: Uint32Array; edges: number[] }[] = [];
    const dist = new Int32Array(g.n);
    const parentEdge = new Int32Array(g.n);
    const mark = new Int32Array(g.n);
    let stamp = 0;
    for (const v of verts) {
      dist.fill(-1);
      dist[v] = 0;
      parentEdge[v] = -1;
      const queue = [v];
      for (let h = 0; h < queue.length; h++) {
        const u = queue[h]!;
        for (let p = g.adjStart[u]!; p < g.adjStart[u + 1]!; p++) {
          const b = g.adjBond[p]!;
          if (blockOf[b] !== id) continue;
          const w = g.adjAtom[p]!;
          if (dist[w] !== -1) continue;
          dist[w] = dist[u]! + 1;
          parentEdge[w] = b;
          queue.push(w);
        }
      }
      for (const e of edges) {
        const x = g.bondA[e]!;
        const y = g.bondB[e]!;
        if (parentEdge[x] === e || parentEdge[y] === e) continue;
        // the two tree paths must be disjoint except for v
        stamp++;
        const path: number[] = [e];
        let ok = true;
        for (let u = x; u !== v; ) {
          mark[u] = stamp;
          const pb = parentEdge[u]!;
          path.push(pb);
          u = g.bondA[pb] === u ? g.bondB[pb]! : g.bondA[pb]!;
        }
        for (let u = y; u !== v && ok; ) {
          if (mark[u] === stamp) ok = false;
          const pb = parentEdge[u]!;
          path.push(pb);
          u = g.bondA[pb] === u ? g.bondB[pb]! : g.bondA[pb]!;
        }
        if (!ok) continue;
        const bits = new Uint32Array(words);
        for (const b of path) bits[local[b]! >>> 5]! ^= 1 << (local[b]! & 31);
        cands.push({ len: path.length, bits, edges: path });
      }
    }
    cands.sort((a, b) => a.len - b.len);
    // GF(2) elimination: keep a candidate when it is independent of the ones kept so far
    const basis: { pivot: number; bits: Uint32Array }[] = [];
    for (const c of cands) {
      if (basis.length === mu) break;
      const r = c.bits.slice();
      for (const bv of basis) if ((r[bv.pivot >>> 5]! >>> (bv.pivot & 31)) & 1) for (let w = 0; w < words; w++) r[w]! ^= bv.bits[w]!;
      let pivot = -1;
      for (let w = 0; w < words && pivot < 0; w++) if (r[w] !== 0) pivot = (w << 5) + (31 - Math.clz32(r[w]! & -r[w]!));
      if (pivot < 0) continue;
      basis.push({ pivot, bits: r });
      out.push(cycleAtoms(g, c.edges));
    }
  }
  return out;
}

/** Atoms of a cycle given as a set of bonds. */
function cycleAtoms(g: HDepletedGraph, edges: readonly number[]): number[] {
  return [...new Set(edges.flatMap((b) => [g.bondA[b]!, g.bondB[b]!]))];
}

/** XLogP without the salicylic correction, and whether that correction applies, per context. */
const cache = new WeakMap<DescriptorContext, { base: number; salicylic: boolean }>();

/**
 * XLogP of the molecule (CDK XLogPDescriptor at the given parameters). With aromaticity (the
 * default) the result is kept per context, so XLogP and RuleOfFive compute it once.
 */
export function xlogp(ctx: DescriptorContext, options: XLogPOptions = {}): number {
  if (options.aromatic === false) return xlogpUncached(ctx, false) + (options.salicylFlag === true && salicylicAcid(ctx.g) ? 0.554 : 0);
  let c = cache.get(ctx);
  if (c === undefined) {
    c = { base: xlogpUncached(ctx, true), salicylic: salicylicAcid(ctx.g) };
    cache.set(ctx, c);
  }
  return c.base + (options.salicylFlag === true && c.salicylic ? 0.554 : 0);
}

function xlogpUncached(ctx: DescriptorContext, aromatic: boolean): number {
  const g0 = ctx.g;
  const g: HDepletedGraph = !aromatic ? { ...g0, arom: new Uint8Array(g0.n), bondArom: new Uint8Array(g0.m) } : g0;
  const n = g.n;
  const z = g.z;
  const ringAtom = ctx.ringAtom;
  const ringOfBond = smallestRingOfBonds(ctx);
  // smallest ring size per atom (exact: a minimum cycle basis has a ring through every atom
  // as short as its shortest cycle) and "in an aromatic ring": an aromatic atom in a ring of
  // size ≥ 6 of the smallest set of smallest rings
  const ringSize = new Uint16Array(n);
  const aromRing = new Uint8Array(n);
  let unsure = false;
  for (let b = 0; b < g.m; b++) {
    const r = ringOfBond[b]!;
    if (r === 0) continue;
    for (const a of [g.bondA[b]!, g.bondB[b]!]) {
      if (ringSize[a] === 0 || r < ringSize[a]!) ringSize[a] = r;
      if (r >= 6 && g.arom[a]) aromRing[a] = 1;
    }
  }
  // An aromatic atom whose bonds all lie on rings < 6 can still be on a larger SSSR ring of a
  // fused or bridged system (e.g. the macrocycle of a porphyrin): decide those from an SSSR.
  for (let i = 0; i < n; i++) if (g.arom[i] && ringSize[i]! > 0 && !aromRing[i]) unsure = true;
  if (unsure) {
    for (const ring of sssr(g, ctx.ringBond)) {
      if (ring.length < 6) continue;
      for (const a of ring) if (g.arom[a]) aromRing[a] = 1;
    }
  }
  const hs = (i: number): number => {
    let c = g.h[i]!;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) if (z[g.adjAtom[p]!] === 1) c++;
    return c;
  };
  const bondCount = (i: number): number => g.degree[i]! + g.h[i]!;
  const maxOrder = (i: number): number => {
    let m = g.h[i]! > 0 ? 1 : 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) m = Math.max(m, g.order[g.adjBond[p]!]!);
    return m;
  };
  const bondOrderSum = (i: number): number => {
    let s = g.h[i]!;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) s += g.order[g.adjBond[p]!]!;
    return s;
  };
  const countNbr = (i: number, f: (j: number, o: number) => boolean): number => {
    let c = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) if (f(g.adjAtom[p]!, g.order[g.adjBond[p]!]!)) c++;
    return c;
  };
  const halogenCount = (i: number): number => countNbr(i, (j) => z[j] === 9 || z[j] === 17 || z[j] === 35 || z[j] === 53);
  const xCount = (i: number): number => countNbr(i, (j, o) => (z[j] === 7 || z[j] === 8) && !aromRing[j] && o !== 2);
  const aromCarbons = (i: number): number => countNbr(i, (j) => z[j] === 6 && g.arom[j] === 1);
  const carbons = (i: number): number => countNbr(i, (j) => z[j] === 6 && g.arom[j] === 0);
  const oxygens = (i: number): number => countNbr(i, (j) => z[j] === 8 && g.arom[j] === 0);
  const dblCarbons = (i: number): number => countNbr(i, (j, o) => z[j] === 6 && o === 2);
  const dblOxygens = (i: number): number => {
    const charged = g.charge[i]! >= 1;
    let c = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      if (z[j] !== 8) continue;
      const o = g.order[g.adjBond[p]!]!;
      if (charged && g.charge[j] === -1 && o === 1) c++;
      if (!g.arom[j] && o === 2) c++;
    }
    return c;
  };
  const dblSulfurs = (i: number): number => {
    let c = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      if (z[j] !== 16) continue;
      if (g.charge[i] === 1 && g.charge[j] === -1) c++;
      if (!g.arom[j] && g.order[g.adjBond[p]!] === 2) c++;
    }
    return c;
  };
  const dblNitrogens = (i: number): number => countNbr(i, (j, o) => z[j] === 7 && !g.arom[j] && o === 2);
  const aromNitrogens = (i: number): number => countNbr(i, (j) => z[j] === 7 && aromRing[j] === 1);
  const piSystems = (i: number): number => {
    let c = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      if (z[j] === 15 || z[j] === 16) continue;
      for (let q = g.adjStart[j]!; q < g.adjStart[j + 1]!; q++) {
        if (g.adjAtom[q] !== i && g.order[g.adjBond[q]!] !== 1) c++;
      }
    }
    return c;
  };
  const presenceOfHydroxy = (i: number): boolean => {
    const c = g.adjStart[i]! < g.adjStart[i + 1]! ? g.adjAtom[g.adjStart[i]!]! : -1;
    if (c < 0 || z[c] !== 6) return false;
    for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
      const k = g.adjAtom[p]!;
      if (z[k] === 8 && g.order[g.adjBond[p]!] === 1) return bondCount(k) <= 1 || hs(k) !== 0;
    }
    return false;
  };
  const presenceOfNitro = (i: number): boolean => {
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      if (z[j] === 7 && countNbr(j, (k, o) => z[k] === 8 && o === 2) > 0) return true;
    }
    return false;
  };
  const presenceOfSulfat = (i: number): boolean => {
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      if (z[j] === 16 && oxygens(j) >= 2 && bondCount(j) === 4) return true;
    }
    return false;
  };
  const carbonyls = (i: number): number => {
    let c = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      if (z[j] === 6) c += countNbr(j, (k, o) => z[k] === 8 && o === 2);
    }
    return c;
  };
  const dist = ctx.dist;
  const hydrophobic = (i: number): boolean => {
    // every atom within three bonds is C or H (CDK walks neighbours three levels deep)
    if (bondCount(i) === 0) return false;
    for (let j = 0; j < n; j++) {
      const d = dist[i * n + j]!;
      if (d >= 1 && d <= 3 && z[j] !== 6 && z[j] !== 1) return false;
    }
    return true;
  };

  let x = 0;
  const donors: number[] = [];
  const acceptors: number[] = [];
  for (let i = 0; i < n; i++) {
    const zi = z[i]!;
    if (zi === 1) continue;
    const bc = bondCount(i);
    const h = hs(i);
    const mo = maxOrder(i);
    if (zi === 6) {
      if (bc === 2) {
        if (h >= 1) x += 0.209;
        else if (mo === 2) x += 2.073;
        else if (mo === 3) x += 0.33;
      }
      if (bc === 3) {
        if (aromRing[i]) {
          if (aromCarbons(i) >= 2 && aromNitrogens(i) === 0) {
            if (h === 0) x += xCount(i) === 0 ? 0.296 : -0.151;
            else x += 0.337;
          } else if (aromNitrogens(i) >= 1) {
            if (h === 0) x += xCount(i) === 0 ? 0.174 : 0.366;
            else if (h === 1) x += 0.126;
          }
        } else {
          const xc = xCount(i);
          const pi = piSystems(i);
          if (h === 0) {
            if (xc === 0) x += pi <= 1 ? 0.05 : 0.013;
            else if (xc === 1) x += pi === 0 ? -0.03 : -0.027;
            else if (xc === 2) x += pi === 0 ? 0.005 : -0.315;
          }
          if (h === 1) {
            if (xc === 0) {
              if (pi === 0) x += 0.466;
              if (pi === 1) x += 0.136;
            } else {
              if (pi === 0) x += 0.001;
              if (pi === 1) x -= 0.31;
            }
          }
          if (h === 2) x += 0.42;
          if (hydrophobic(i)) x += 0.211;
        }
      }
      if (bc === 4) {
        const xc = xCount(i);
        const pi = piSystems(i);
        if (h === 0) {
          if (xc === 0) {
            if (pi === 0) x -= 0.006;
            if (pi === 1) x -= 0.57;
            if (pi >= 2) x -= 0.317;
          } else x += pi === 0 ? -0.316 : -0.723;
        }
        if (h === 1) {
          if (xc === 0) {
            if (pi === 0) x += 0.127;
            if (pi === 1) x -= 0.243;
            if (pi >= 2) x -= 0.499;
          } else {
            if (pi === 0) x -= 0.205;
            if (pi === 1) x -= 0.305;
            if (pi >= 2) x -= 0.709;
          }
        }
        if (h === 2) {
          if (xc === 0) {
            if (pi === 0) x += 0.358;
            if (pi === 1) x -= 0.008;
            if (pi === 2) x -= 0.185;
          } else {
            if (pi === 0) x -= 0.137;
            if (pi === 1) x -= 0.303;
            if (pi === 2) x -= 0.815;
          }
        }
        if (h > 2) {
          if (xc === 0) {
            if (pi === 0) x += 0.528;
            if (pi === 1) x += 0.267;
          } else x -= 0.032;
        }
        if (hydrophobic(i)) x += 0.211;
      }
    } else if (zi === 7) {
      if (bondOrderSum(i) >= 3 && oxygens(i) >= 2 && mo === 2) x += 1.178;
      else if (carbonyls(i) >= 1) {
        const xc = xCount(i);
        if (h === 0) {
          if (xc === 0) x += 0.078;
          if (xc === 1) x -= 0.118;
        }
        if (h === 1) {
          x += xc === 0 ? -0.096 : -0.044;
          donors.push(i);
        }
        if (h === 2) {
          x -= 0.646;
          donors.push(i);
        }
      } else if (bc === 1) {
        if (carbons(i) === 1) x -= 0.566;
      } else if (bc === 2) {
        if (aromRing[i]) x -= 0.493;
        else if (dblCarbons(i) === 0) {
          if (dblNitrogens(i) === 0 && dblOxygens(i) === 1) x += 0.427;
          if (dblNitrogens(i) === 1) {
            if (xCount(i) === 0) x += 0.536;
            if (xCount(i) === 1) x -= 0.597;
          }
        } else if (dblCarbons(i) === 1) {
          const xc = xCount(i);
          const pi = piSystems(i);
          if (xc === 0) {
            if (pi === 0) x += 0.007;
            if (pi === 1) x -= 0.275;
          } else if (xc === 1) {
            if (pi === 0) x += 0.366;
            if (pi === 1) x += 0.251;
          }
        }
      } else if (bc === 3) {
        const xc = xCount(i);
        const pi = piSystems(i);
        const ringPi = (k: number): boolean => g.arom[i] === 1 || (ringAtom[i] === 1 && ringSize[i]! > 3 && pi >= k);
        if (h === 0) {
          if (ringPi(1)) x += xc === 0 ? 0.881 : -0.01;
          else if (xc === 0) {
            if (pi === 0) x += 0.159;
            if (pi > 0) x += 0.761;
          } else x -= 0.239;
        } else if (h === 1) {
          if (xc === 0) {
            if (ringPi(2)) {
              x += 0.545;
              donors.push(i);
            } else {
              if (pi === 0) {
                x -= 0.112;
                donors.push(i);
              }
              if (pi > 0) {
                x += 0.166;
                donors.push(i);
              }
            }
          } else {
            x += ringAtom[i] ? 0.153 : 0.324;
            donors.push(i);
          }
        } else if (h === 2) {
          if (xc === 0) {
            if (pi === 0) {
              x -= 0.534;
              donors.push(i);
            }
            if (pi === 1) {
              x -= 0.329;
              donors.push(i);
            }
          } else {
            x -= 1.082;
            donors.push(i);
          }
        }
      }
    } else if (zi === 8) {
      if (bc === 1 && mo === 2) {
        x -= 0.399;
        if (!presenceOfHydroxy(i)) acceptors.push(i);
      } else if ((bc === 1 && h === 0 && (presenceOfNitro(i) || carbonyls(i) === 1)) || presenceOfSulfat(i)) {
        x -= 0.399;
        if (!presenceOfHydroxy(i)) acceptors.push(i);
      } else if (bc >= 1) {
        const xc = xCount(i);
        const pi = piSystems(i);
        if (h === 0 && bc === 2) {
          if (xc === 0) {
            if (pi === 0) x += 0.084;
            if (pi > 0) x += 0.435;
          } else if (xc === 1) x += 0.105;
        } else if (xc === 0) {
          if (pi === 0) {
            x -= 0.467;
            donors.push(i);
            acceptors.push(i);
          }
          if (pi === 1) {
            x += 0.082;
            donors.push(i);
            acceptors.push(i);
          }
        } else if (xc === 1) {
          x -= 0.522;
          donors.push(i);
          acceptors.push(i);
        }
      }
    } else if (zi === 16) {
      if ((bc === 1 && mo === 2) || (bc === 1 && g.charge[i] === -1)) x -= 0.148;
      else if (bc === 2) x += h === 0 ? 0.255 : 0.419;
      else if (bc === 3) {
        if (oxygens(i) >= 1) x -= 1.375;
      } else if (bc === 4 && dblOxygens(i) >= 2) x -= 0.168;
    } else if (zi === 15) {
      if (dblSulfurs(i) >= 1 && bc >= 4) x += 1.253;
      else if (oxygens(i) >= 1 || (dblOxygens(i) === 1 && bc >= 4)) x -= 0.447;
    } else if (zi === 9) {
      const pi = piSystems(i);
      if (pi === 0) x += 0.375;
      else if (pi === 1) x += 0.202;
    } else if (zi === 17) {
      x += piSystems(i) === 0 ? 0.512 : 0.663;
    } else if (zi === 35) {
      const pi = piSystems(i);
      if (pi === 0) x += 0.85;
      else if (pi === 1) x += 0.839;
    } else if (zi === 53) {
      const pi = piSystems(i);
      if (pi === 0) x += 1.05;
      else if (pi === 1) x += 1.109;
    }
    const hal = halogenCount(i);
    if (hal === 2) x += 0.137;
    else if (hal === 3) x += 0.41100000000000003;
    else if (hal === 4) x += 0.8220000000000001;
    if (carbonyls(i) === 2 && !ringAtom[i]) x += 0.58;
  }

  // internal hydrogen bonds
  if (acceptors.length > 0 && donors.length > 0) {
    const ringLink = (i: number): boolean => {
      if (ringAtom[i]) return true;
      for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) if (ringAtom[g.adjAtom[p]!]) return true;
      return false;
    };
    const done = new Set<number>();
    for (const a of acceptors) {
      for (const d of donors) {
        const la = ringLink(a);
        const ld = ringLink(d);
        if (!la && !ld) continue;
        const dd = dist[a * n + d]!;
        if (dd === FAR) continue;
        const key = Math.min(a, d) * n + Math.max(a, d);
        if (done.has(key)) continue;
        if (dd === (la && ld ? 3 : 4)) {
          x += 0.429;
          done.add(key);
        }
      }
    }
  }
  if (cTerminalAminoAcid(g0, ctx.ringBond)) x -= 2.166;
  if (pAminoSulphonicAcid(g0)) x -= 0.501;
  if (orthoPair(g0)) x -= 0.268;
  return x;
}

const aliph = (g: HDepletedGraph, j: number, zz: number): boolean => g.z[j] === zz && g.arom[j] === 0;

/** `C(=O)` with `=O` aliphatic and double bonded; returns whether c carries such an O other than `not`. */
function hasCarbonylO(g: HDepletedGraph, c: number, not = -1): boolean {
  for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
    const o = g.adjAtom[p]!;
    if (o !== not && aliph(g, o, 8) && bDouble(g, g.adjBond[p]!)) return true;
  }
  return false;
}

/** SMARTS N!@C-C(=O)-[O;X2H1+0,X1H0-] (CDK XLogP C_TERMINAL_AMINO_ACID). */
export function cTerminalAminoAcid(g: HDepletedGraph, ringBond: Uint8Array): boolean {
  for (let nI = 0; nI < g.n; nI++) {
    if (!aliph(g, nI, 7)) continue;
    for (let p = g.adjStart[nI]!; p < g.adjStart[nI + 1]!; p++) {
      const ca = g.adjAtom[p]!;
      if (ringBond[g.adjBond[p]!] || !aliph(g, ca, 6)) continue;
      for (let q = g.adjStart[ca]!; q < g.adjStart[ca + 1]!; q++) {
        const c = g.adjAtom[q]!;
        if (c === nI || !aliph(g, c, 6) || !bSingle(g, g.adjBond[q]!)) continue;
        // C(=O)-O: a double-bonded O and a different single-bonded acid O
        for (let r = g.adjStart[c]!; r < g.adjStart[c + 1]!; r++) {
          const o = g.adjAtom[r]!;
          if (o === ca || o === nI || !aliph(g, o, 8) || !bSingle(g, g.adjBond[r]!)) continue;
          const x = g.degree[o]! + g.h[o]!;
          const acid = (x === 2 && g.h[o] === 1 && g.charge[o] === 0) || (x === 1 && g.h[o] === 0 && g.charge[o] === -1);
          if (acid && hasCarbonylO(g, c, o)) return true;
        }
      }
    }
  }
  return false;
}

/**
 * Six-membered rings of aromatic carbons through atom a (bonds single or aromatic), as atom
 * sequences starting at a.
 */
function aromaticCarbonSixRings(g: HDepletedGraph, a: number): number[][] {
  const out: number[][] = [];
  const path = [a];
  const ok = (j: number, b: number): boolean => g.z[j] === 6 && g.arom[j] === 1 && bSA(g, b);
  const dfs = (v: number): void => {
    if (path.length === 6) {
      for (let p = g.adjStart[v]!; p < g.adjStart[v + 1]!; p++) {
        if (g.adjAtom[p] === a && ok(a, g.adjBond[p]!)) {
          out.push([...path]);
          return;
        }
      }
      return;
    }
    for (let p = g.adjStart[v]!; p < g.adjStart[v + 1]!; p++) {
      const w = g.adjAtom[p]!;
      if (path.includes(w) || !ok(w, g.adjBond[p]!)) continue;
      path.push(w);
      dfs(w);
      path.pop();
    }
  };
  if (g.z[a] === 6 && g.arom[a] === 1) dfs(a);
  return out;
}

/** SMARTS CS(=O)(=O)c1ccc(N)cc1 (CDK XLogP P_AMINO_SULPHONIC_ACID). */
export function pAminoSulphonicAcid(g: HDepletedGraph): boolean {
  for (let s = 0; s < g.n; s++) {
    if (!aliph(g, s, 16)) continue;
    let c = 0;
    let dblO = 0;
    const ar: number[] = [];
    for (let p = g.adjStart[s]!; p < g.adjStart[s + 1]!; p++) {
      const j = g.adjAtom[p]!;
      const b = g.adjBond[p]!;
      if (aliph(g, j, 6) && bSA(g, b)) c++;
      if (aliph(g, j, 8) && bDouble(g, b)) dblO++;
      if (g.z[j] === 6 && g.arom[j] === 1 && bSA(g, b)) ar.push(j);
    }
    if (c < 1 || dblO < 2) continue;
    for (const a1 of ar) {
      for (const ring of aromaticCarbonSixRings(g, a1)) {
        const para = ring[3]!;
        for (let p = g.adjStart[para]!; p < g.adjStart[para + 1]!; p++) {
          if (aliph(g, g.adjAtom[p]!, 7) && bSA(g, g.adjBond[p]!)) return true;
        }
      }
    }
  }
  return false;
}

/** SMARTS O=C(O)c1ccccc1O (CDK XLogP SALICYLIC_ACID_PTRN). */
export function salicylicAcid(g: HDepletedGraph): boolean {
  for (let c = 0; c < g.n; c++) {
    if (!aliph(g, c, 6)) continue;
    let dblO = -1;
    for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
      if (aliph(g, g.adjAtom[p]!, 8) && bDouble(g, g.adjBond[p]!)) dblO = g.adjAtom[p]!;
    }
    if (dblO < 0) continue;
    let singleO = false;
    const ar: number[] = [];
    for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
      const j = g.adjAtom[p]!;
      const b = g.adjBond[p]!;
      if (j !== dblO && aliph(g, j, 8) && bSA(g, b)) singleO = true;
      if (g.z[j] === 6 && g.arom[j] === 1 && bSA(g, b)) ar.push(j);
    }
    if (!singleO) continue;
    for (const a1 of ar) {
      for (const ring of aromaticCarbonSixRings(g, a1)) {
        for (const ortho of [ring[1]!, ring[5]!]) {
          for (let p = g.adjStart[ortho]!; p < g.adjStart[ortho + 1]!; p++) {
            if (aliph(g, g.adjAtom[p]!, 8) && bSA(g, g.adjBond[p]!)) return true;
          }
        }
      }
    }
  }
  return false;
}

/** SMARTS OccO (CDK XLogP ORTHOPAIR): two aliphatic O on adjacent aromatic carbons. */
export function orthoPair(g: HDepletedGraph): boolean {
  const hasO = (c: number): number => {
    let k = 0;
    for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) if (aliph(g, g.adjAtom[p]!, 8) && bSA(g, g.adjBond[p]!)) k++;
    return k;
  };
  for (let b = 0; b < g.m; b++) {
    const a = g.bondA[b]!;
    const c = g.bondB[b]!;
    if (!(g.z[a] === 6 && g.arom[a] && g.z[c] === 6 && g.arom[c])) continue;
    if (!bSA(g, b) && !bArom(g, b)) continue;
    // distinct O atoms: an O bridging a and c would be counted on both sides
    if (hasO(a) > 0 && hasO(c) > 0) {
      if (distinctO(g, a, c)) return true;
    }
  }
  return false;
}

function distinctO(g: HDepletedGraph, a: number, c: number): boolean {
  const os = (x: number): number[] => {
    const r: number[] = [];
    for (let p = g.adjStart[x]!; p < g.adjStart[x + 1]!; p++) if (aliph(g, g.adjAtom[p]!, 8) && bSA(g, g.adjBond[p]!)) r.push(g.adjAtom[p]!);
    return r;
  };
  const oa = os(a);
  const oc = os(c);
  return oa.some((o1) => oc.some((o2) => o1 !== o2));
}
