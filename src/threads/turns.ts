/**
 * Main-thread work in slices, one slice per event-loop turn among all who slice.
 *
 * Long work on the main thread (loading a result into the store, hashing or joining a large
 * body, reading a dataset in steps) is cut into slices of ≈ 20 ms with a pause between them, so
 * that requests are answered in between. With a plain `setImmediate` per pause, every piece of
 * such work running at the same time runs one slice in each turn of the event loop: with three
 * results loading, a turn holds 60 ms of slices, and a request that needs four turns (read the
 * body, check, read the store, write) waits a quarter of a second. `nextTurn()` is the pause
 * they share instead: the pauses are released one per turn, in the order they were asked for,
 * so a turn holds one slice however many are waiting, and the work goes on at the same pace
 * overall (it only interleaves differently). A pause with no one else waiting costs a
 * `setImmediate`, as before.
 */

const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  const next = waiting.shift();
  if (waiting.length > 0) setImmediate(releaseOne);
  else scheduled = false;
  next?.();
}

/** Resolves in a later turn of the event loop, when it is this caller's turn to run one slice. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseOne);
    }
  });
}

/** Pauses waiting for their turn (a figure for tests and logs). */
export function turnsWaiting(): number {
  return waiting.length;
}

/** Main-thread time a loop may take before it pauses (`slicer`). */
export const SLICE_MS = 20;

/**
 * A pause for a long loop on the main thread (one step per graph of a 93,000-graph commit, say):
 * `const pause = slicer(); for (…) { await pause(); … }`. It resolves at once (a microtask) until
 * `ms` have passed since the loop's last pause, and then waits for the loop's turn (`nextTurn`).
 */
export function slicer(ms = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < ms) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
