/**
 * V8 settings of the service process, imported first by main.ts (before any other module runs),
 * so that they hold for all code, worker threads included (V8 flags are per process).
 *
 * `--no-turbo-inline-js-wasm-calls`: Node 20's V8 (11.3) inlines calls from optimised JavaScript
 * into WebAssembly (Oxigraph's and RDKit's wasm-bindgen / Emscripten exports). Deoptimising such
 * a frame can abort the whole process ("Fatal error … unreachable code" in
 * Deoptimizer::DoComputeBuiltinContinuation): reading a Kazius-sized dataset compound by compound
 * (thousands of Oxigraph `match` calls) crashed it in about one run in twelve, the server taking
 * every request in flight with it. Without the inlining: no crash in 44 runs (docs/benchmarks.md).
 * The calls cost a little more (a wrapper per call), well within the noise of the benches.
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--no-turbo-inline-js-wasm-calls");
