/**
 * V8 settings of the service process, imported first by main.ts (before any other module runs),
 * so that they hold for all code, worker threads included (V8 flags are per process).
 *
 * `--no-turbo-inline-js-wasm-calls`: Node 20's V8 (11.3) inlines calls from optimised JavaScript
 * into WebAssembly (Oxigraph's and RDKit's wasm-bindgen / Emscripten exports). Deoptimising such
 * a frame can abort the whole process ("Fatal error … unreachable code" in
 * Deoptimizer::DoComputeBuiltinContinuation, after a lazy deopt of a function that had inlined
 * Oxigraph calls): reading Kazius's training data compound by compound (thousands of Oxigraph
 * `match` calls, as a BBRC request then did) aborted 5 of 37 runs, in the server and in process,
 * taking every request in flight with it; with the inlining off, 0 of 24 runs of the same code
 * (docs/benchmarks.md). The calls cost a little more (a wrapper per call), within the noise of the
 * benches.
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--no-turbo-inline-js-wasm-calls");
