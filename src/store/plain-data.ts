/**
 * What a read of the in-memory store may return: plain data that a worker thread can post back
 * (the structured-clone algorithm) and that means the same on the other side — no Oxigraph
 * terms or quads (a term is an object of a WebAssembly instance; cloned, it would arrive as an
 * empty-looking object with a pointer into a memory the receiver does not have), no functions,
 * no class instances. `checkPlain` throws naming the first offending path, so that a read that
 * returns a term fails in every test, not only where the store runs in a thread.
 */

const PLAIN_PROTOTYPES = new Set<unknown>([Object.prototype, Array.prototype, null]);

/** Throw when `value` holds anything but primitives, plain objects, arrays, Maps, Sets, Dates and byte arrays. */
export function checkPlain(value: unknown, what: string): void {
  const seen = new Set<unknown>();
  const walk = (v: unknown, path: string): void => {
    if (v === null || v === undefined) return;
    const t = typeof v;
    if (t === "string" || t === "number" || t === "boolean" || t === "bigint") return;
    if (t !== "object") throw new Error(`${what}: ${path} is a ${t}, not plain data`);
    if (seen.has(v)) return;
    seen.add(v);
    if (v instanceof Date || ArrayBuffer.isView(v)) return;
    if (v instanceof Map) {
      for (const [k, x] of v) {
        walk(k, `${path}.key`);
        walk(x, `${path}[${String(k)}]`);
      }
      return;
    }
    if (v instanceof Set) {
      for (const x of v) walk(x, `${path}.member`);
      return;
    }
    if (!PLAIN_PROTOTYPES.has(Object.getPrototypeOf(v))) {
      throw new Error(`${what}: ${path} is an instance of ${(v as object).constructor?.name ?? "a class"}, not plain data`);
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${path}[${i}]`);
      return;
    }
    for (const [k, x] of Object.entries(v as object)) walk(x, `${path}.${k}`);
  };
  walk(value, "the result");
}
