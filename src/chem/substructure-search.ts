/**
 * Substructure search over many compounds with the service's SMARTS matcher (chem/smarts: the
 * miners' subset of SMARTS on the miners' molecule encoding): the job `chem.substructure`, run in
 * the request-time chem pool for GET /compound?substructure=… (never on the main thread).
 *
 * Bounded three ways: the pattern (at most MAX_PATTERN_CHARS characters and MAX_PATTERN_ATOMS
 * atoms, checked before it is compiled), the matches (the search stops at `maxMatches`), and the
 * time (checked between compounds: past `budgetMs` the search stops and says how far it came).
 * One compound's match is bounded by the pool's own budget for the job (the worker is ended).
 *
 * Molecules are encoded once per worker and kept (at most TARGET_CACHE): a second search of the
 * same compounds only matches.
 */
import { LIMITS } from "./limits.ts";
import { compileSmarts, countEmbeddings, moleculeFromSmiles, SmartsSyntaxError, type MolTarget } from "./smarts/index.ts";
import { readSmilesGuarded } from "./structure.ts";

/** Longest pattern accepted (characters). */
export const MAX_PATTERN_CHARS = 200;
/** Most atoms of a pattern (atom tokens: bracket atoms, organic-subset symbols, `*`, `a`, `A`). */
export const MAX_PATTERN_ATOMS = 40;
/** Prepared molecules a worker keeps between searches. */
export const TARGET_CACHE = 20_000;

export interface SubstructureInput {
  readonly pattern: string;
  /** The SMILES to search, in order. */
  readonly smiles: readonly string[];
  readonly maxMatches: number;
  readonly budgetMs: number;
}

export type SubstructureOutput =
  | {
      readonly ok: true;
      /** Indices into `smiles` of the compounds that contain the pattern, in order. */
      readonly matched: number[];
      /** Compounds searched (all of them unless the search stopped). */
      readonly searched: number;
      /** Why the search stopped before the end: the match cap or the time budget. */
      readonly stopped?: "matches" | "time";
      /** Compounds whose SMILES could not be read (left out). */
      readonly unreadable: number;
    }
  | { readonly ok: false; readonly error: string; readonly position?: number };

const ATOM_TOKEN = /\[[^\]]*\]|Cl|Br|[BCNOPSFI]|[bcnops]|\*|[aA]/g;

/** Atom tokens of a pattern (brackets counted as one atom each; recursive `$(…)` parts count too). */
export function patternAtoms(pattern: string): number {
  return pattern.match(ATOM_TOKEN)?.length ?? 0;
}

/** The pattern's bounds (characters, atoms); a message naming the bound, or null when within. */
export function checkPattern(pattern: string): string | null {
  if (pattern.length === 0) return "the pattern is empty";
  if (pattern.length > MAX_PATTERN_CHARS) return `the pattern has ${pattern.length} characters; at most ${MAX_PATTERN_CHARS} are searched`;
  const atoms = patternAtoms(pattern);
  if (atoms > MAX_PATTERN_ATOMS) return `the pattern has ${atoms} atoms; at most ${MAX_PATTERN_ATOMS} are searched`;
  return null;
}

const targets = new Map<string, MolTarget | null>();

async function target(smiles: string): Promise<MolTarget | null> {
  const known = targets.get(smiles);
  if (known !== undefined) return known;
  const t = smiles.length > LIMITS.smilesChars ? null : await readSmilesGuarded(smiles, moleculeFromSmiles);
  if (targets.size >= TARGET_CACHE) targets.clear();
  targets.set(smiles, t);
  return t;
}

export async function substructureJob(input: SubstructureInput): Promise<SubstructureOutput> {
  const bad = checkPattern(input.pattern);
  if (bad !== null) return { ok: false, error: bad };
  let query;
  try {
    query = compileSmarts(input.pattern);
  } catch (e) {
    if (e instanceof SmartsSyntaxError) return { ok: false, error: e.message, position: e.position };
    throw e;
  }
  const deadline = performance.now() + input.budgetMs;
  const matched: number[] = [];
  let unreadable = 0;
  for (let i = 0; i < input.smiles.length; i++) {
    if (performance.now() > deadline) return { ok: true, matched, searched: i, stopped: "time", unreadable };
    const t = await target(input.smiles[i]!);
    if (t === null) {
      unreadable++;
      continue;
    }
    if (countEmbeddings(query, t, 1) > 0) {
      matched.push(i);
      if (matched.length >= input.maxMatches) return { ok: true, matched, searched: i + 1, ...(i + 1 < input.smiles.length ? { stopped: "matches" as const } : {}), unreadable };
    }
  }
  return { ok: true, matched, searched: input.smiles.length, unreadable };
}
