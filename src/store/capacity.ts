/**
 * The graph store's capacity accounting (graph-store.ts, "Capacity" and "Renewal"): how many
 * triples the in-memory Oxigraph store has loaded since it was created (`loaded`: replaced and
 * deleted ones included, since its memory store never frees them; a load under way is counted
 * when reserved), how many belong to the current graphs (`live`, per graph), and the limit
 * `maxQuads` with a small reserve above it for small commits. It refuses (507) what would not
 * fit, and does the arithmetic of whether renewing the in-memory store would make room. It
 * holds numbers only; the store decides when to renew and keeps the other conditions (no
 * commit in flight, no stage holding data, the journal ending at a complete record).
 */
import { InsufficientStorage } from "../errors.ts";

/** A commit of at most this many triples may use the reserve above `maxQuads`. */
const SMALL_COMMIT = 1000;
/** The reserve for small commits, as a share of `maxQuads`. */
const RESERVE = 0.02;

export class Capacity {
  /** Triples loaded into the in-memory store since it was created (or reserved for a load under way). */
  loaded = 0;
  /** Triples of each graph's current content. */
  private readonly quads = new Map<string, number>();
  private liveQuads = 0;

  constructor(readonly maxQuads: number) {}

  /** Triples of the current graphs. */
  get live(): number {
    return this.liveQuads;
  }

  /** Triples of a graph's current content (0 when it does not exist). */
  graphTriples(graph: string): number {
    return this.quads.get(graph) ?? 0;
  }

  /** The graph's current content now has `n` triples; undefined: the graph is gone. */
  setGraph(graph: string, n: number | undefined): void {
    this.liveQuads -= this.quads.get(graph) ?? 0;
    if (n === undefined) {
      this.quads.delete(graph);
      return;
    }
    this.quads.set(graph, n);
    this.liveQuads += n;
  }

  /** The most triples the store may have loaded after loading `n` more (small loads may use the reserve). */
  limitFor(n: number): number {
    return n <= SMALL_COMMIT ? this.maxQuads * (1 + RESERVE) : this.maxQuads;
  }

  /**
   * Throw InsufficientStorage when `n` more triples would take the store past its capacity.
   * `whole` = the triples of the whole result these belong to, for the advice: restart, or ask
   * for less. `what` names the result in the message.
   */
  ensureRoom(n: number, whole = n, what = `${n} more triples`): void {
    if (this.loaded + n <= this.limitFor(n)) return;
    const live = this.liveQuads;
    throw new InsufficientStorage(
      `the store cannot take ${what}: its in-memory store holds at most ${this.maxQuads} triples (MAX_QUADS) and has loaded ${this.loaded} since the service started or last renewed its memory, ${live} of them current data` +
        (live + whole <= this.maxQuads
          ? "; replaced and deleted data keeps its memory (Oxigraph does not free it), and the store could not renew its memory now (work in progress holds data, or the current data is too large to reload beside the old), so restart the service and try again"
          : `; the result (${whole} triples) is more than the store can hold even after a restart: ask for less (fewer compounds or descriptor types), or delete data and try again`),
      { extra: { triplesNeeded: n } },
    );
  }

  /** Count `n` triples about to be loaded, or throw as `ensureRoom`. */
  reserve(n: number, whole = n): void {
    this.ensureRoom(n, whole);
    this.loaded += n;
  }

  /**
   * The arithmetic of renewal before `n` more triples are loaded: it is wanted when they would
   * not fit, or already when the store is past half its capacity and more of what it has loaded
   * is garbage than current (only when `idle`, no commit in flight: with commits in flight
   * `loaded` counts triples not applied yet, so the garbage is unknown); and it can help only
   * when the current data and the `n` fit, and the old store and the current data fit together
   * (a renewal holds both while it reloads).
   */
  renewalWouldHelp(n: number, idle: boolean): boolean {
    const limit = this.limitFor(n);
    const refused = this.loaded + n > limit;
    const worthIt = idle && this.loaded + n > this.maxQuads / 2 && this.loaded - this.liveQuads > this.liveQuads;
    if (!refused && !worthIt) return false;
    return !(this.liveQuads + n > limit || this.loaded + this.liveQuads > this.maxQuads);
  }

  /** Old and new in-memory store fit together (checked again when the renewal starts). */
  renewalFits(): boolean {
    return !(this.loaded + this.liveQuads > this.maxQuads);
  }

  /**
   * A renewal reloaded `reloaded` triples into a new store; `loadedBefore` was `loaded` when it
   * began. Loads reserved meanwhile (they apply after it) stay counted.
   */
  renewed(reloaded: number, loadedBefore: number): void {
    this.loaded = reloaded + (this.loaded - loadedBefore);
  }
}
