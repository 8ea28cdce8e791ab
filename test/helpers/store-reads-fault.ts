/**
 * A reads module (GraphStore `read`) for tests of the store's thread: `quads` counts what the
 * store holds; `exit` ends the thread that runs it, as a crash would.
 */
import type * as ox from "oxigraph";

export function run(store: ox.Store, name: string): unknown {
  if (name === "quads") return store.size;
  if (name === "exit") process.exit(3);
  if (name === "term") return store.match(null, null, null, null)[0]?.subject;
  throw new Error(`no read ${name}`);
}
