/**
 * A separate instance of Oxigraph's WebAssembly module, for a store whose memory must go back
 * to the system when the store is dropped.
 *
 * Why. Oxigraph runs as WebAssembly, and a WebAssembly memory only grows: freeing a store (or
 * the graphs in it) makes its memory reusable inside the instance, but the pages stay resident.
 * Every `import * as ox from "oxigraph"` shares one instance, so a store created there keeps the
 * process at its largest size for good. An instance of its own is a WebAssembly memory of its
 * own, released as a whole once nothing refers to the instance any more: the store is freed and
 * no object it handed out (terms, quads, query results) is still referenced. Measured (Node 20,
 * oxigraph 0.5.11): 300k triples loaded into a separate instance raised the process by 147 MB;
 * freeing the store and dropping the instance took it back below where it started, while one
 * term of that store kept alive kept all of it.
 *
 * How. Oxigraph's Node build is a CommonJS module that instantiates its WebAssembly when it is
 * evaluated, and Node evaluates a CommonJS module again when it is not in `require.cache`. So a
 * new instance is the module required once more through a `require` of its own, with the cache
 * entry of the shared instance set aside meanwhile and put back after (the shared instance stays
 * what every `import` gets), and the new entry removed again so that nothing but the caller
 * holds the new instance. A `require` from `createRequire` also lists what it loaded as children
 * of a module object of its own, which would keep every instance alive: each call uses a new
 * one, dropped with it.
 *
 * Terms of different instances mix freely: a store reads a term it is given through its RDF/JS
 * properties (`termType`, `value`), whichever instance made it. So the rest of the code builds
 * terms with the shared instance and queries a store of any instance with them.
 */
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type * as ox from "oxigraph";

type Oxigraph = typeof ox;

/** Instances made by `newOxigraphInstance` that have not been collected yet (a figure for logs and tests). */
let alive = 0;
const collected = new FinalizationRegistry<void>(() => {
  alive--;
});

/** A new instance of Oxigraph (its own WebAssembly memory; see the module comment). */
export function newOxigraphInstance(): Oxigraph {
  const require = createRequire(import.meta.url);
  const path = require.resolve("oxigraph");
  const shared = require.cache[path];
  delete require.cache[path];
  try {
    const instance = require(path) as Oxigraph;
    alive++;
    // Not the exports object (nothing of the instance refers to it, it may go first): a class that
    // the module's own functions refer to, so it lives exactly as long as the module's scope,
    // which every object of the instance keeps through its methods.
    collected.register(instance.NamedNode, undefined);
    return instance;
  } finally {
    if (shared) require.cache[path] = shared;
    else delete require.cache[path];
  }
}

/** How many separate instances are still in memory (dropped ones leave at the next garbage collection). */
export function oxigraphInstancesAlive(): number {
  return alive;
}

/** V8's full collection, made available once (`--expose-gc` for contexts created from now on). */
let fullCollection: (() => void) | undefined;

/**
 * Run a full garbage collection now, so that instances dropped since are released (their
 * WebAssembly memory goes back to the system); its duration in ms. Nothing else would collect
 * them soon on a service that has gone idle: V8 collects when JavaScript allocates, and an idle
 * service allocates almost nothing (measured: after 50 clients for 60 s and a renewal 10 s later,
 * a dropped instance of 310 MB was still resident 25 s after in one run of two). A full
 * collection of the service's heap takes tens of milliseconds on the main thread; it is asked
 * for only after a renewal (graph-store.ts), not per request.
 */
export function collectDropped(): number {
  if (!fullCollection) {
    setFlagsFromString("--expose-gc");
    fullCollection = runInNewContext("gc") as () => void;
  }
  const t0 = performance.now();
  fullCollection();
  return performance.now() - t0;
}
