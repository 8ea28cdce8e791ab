/**
 * Every read of the in-memory store that the service makes outside the store, by name: the
 * functions run where the store lives (GraphStore `read`), and only their plain-data results
 * come back (store/plain-data.ts). Each entry takes the store and the vocabulary of the
 * service's base URL, then its own arguments; callers use `read(store, vocab, name, …args)`,
 * which TypeScript checks against the entry.
 *
 * The functions themselves stay where they belong (dataset-read.ts, model.ts, …) and stay
 * synchronous functions of an `ox.Store`: their unit tests call them directly.
 */
import type * as ox from "oxigraph";
import type { GraphStore } from "../store/graph-store.ts";
import { Vocab } from "../store/vocab.ts";
import { moduleUrl } from "../threads/spawn.ts";
import { readDatasetTitle } from "./dataset-read.ts";

const READS = {
  datasetTitles: (s: ox.Store, _v: Vocab, uris: readonly string[]) => uris.map((uri) => readDatasetTitle(s, uri)),
} satisfies Record<string, (s: ox.Store, v: Vocab, ...args: never[]) => unknown>;

type Reads = typeof READS;
export type ReadName = keyof Reads;
type ArgsOf<F> = F extends (s: ox.Store, v: Vocab, ...args: infer A) => unknown ? A : never;

const MODULE = moduleUrl("./reads.ts", import.meta.url);

/** Read `name` with `args` from the store (see the module comment). */
export function read<K extends ReadName>(store: GraphStore, vocab: Vocab, name: K, ...args: ArgsOf<Reads[K]>): Promise<ReturnType<Reads[K]>> {
  return store.read(MODULE, name, [vocab.base, ...args]);
}

const vocabs = new Map<string, Vocab>();

/** The reads module's entry (GraphStore `ReadsModule`): args = [base URL, …the read's own]. */
export function run(store: ox.Store, name: string, args: readonly unknown[]): unknown {
  const fn = (READS as Record<string, (s: ox.Store, v: Vocab, ...a: unknown[]) => unknown>)[name];
  if (!fn) throw new Error(`no store read named ${name}`);
  const [base, ...rest] = args as [string, ...unknown[]];
  let v = vocabs.get(base);
  if (!v) vocabs.set(base, (v = new Vocab(base)));
  return fn(store, v, ...rest);
}

