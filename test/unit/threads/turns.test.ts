/**
 * threads/turns.ts: pauses shared by all sliced main-thread work release one slice per turn of
 * the event loop, in the order asked. A turn is counted by an observer that re-schedules itself
 * with setImmediate (it runs once in each turn's check phase); with plain setImmediate pauses
 * (the control) three loops run three slices in the same turn, which is what the shared pause
 * prevents.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { setImmediate as immediate } from "node:timers/promises";
import { nextTurn, turnsWaiting } from "../../../src/threads/turns.ts";

/** Run `loops` loops of `slices` slices each with `pause` between slices; the turn of every slice, by loop. */
async function run(loops: number, slices: number, pause: () => Promise<unknown>): Promise<{ turnOf: number[][]; order: number[] }> {
  let turn = 0;
  let observing = true;
  const observe = (): void => {
    turn++;
    if (observing) setImmediate(observe);
  };
  setImmediate(observe);
  const turnOf: number[][] = Array.from({ length: loops }, () => []);
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: loops }, async (_, l) => {
      for (let s = 0; s < slices; s++) {
        await pause();
        turnOf[l]!.push(turn);
        order.push(l);
      }
    }),
  );
  observing = false;
  return { turnOf, order };
}

describe("nextTurn", () => {
  it("control: with plain setImmediate pauses, three loops run a slice each in the same turn", async () => {
    const { turnOf } = await run(3, 5, () => immediate());
    const all = turnOf.flat();
    assert.ok(new Set(all).size < all.length, "several slices shared a turn");
  });

  it("runs one slice per turn however many loops slice, and every slice of every loop", async () => {
    const { turnOf } = await run(3, 5, nextTurn);
    const all = turnOf.flat();
    assert.equal(all.length, 15);
    assert.equal(new Set(all).size, 15, `turns: ${JSON.stringify(turnOf)}`);
    assert.equal(turnsWaiting(), 0);
  });

  it("releases the pauses in the order they were asked for (the loops take turns)", async () => {
    const { order } = await run(3, 4, nextTurn);
    assert.deepEqual(order, [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
  });
});
