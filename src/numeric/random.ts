/**
 * mulberry32, a small seeded PRNG, so that resampling is deterministic and language-independent:
 * the next 32-bit unsigned draw (the steps are written out in validate/folds.ts).
 */
export function mulberry32Uint32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** mulberry32 as uniform numbers in [0, 1): each 32-bit draw / 2³². */
export function mulberry32(seed: number): () => number {
  const next = mulberry32Uint32(seed);
  return () => next() / 4294967296;
}

/** Fisher–Yates shuffle in place. */
export function shuffle<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}
