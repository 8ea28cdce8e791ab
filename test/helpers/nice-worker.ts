/**
 * A worker entry for test/unit/threads/spawn.test.ts: posts its own thread's nice value (Linux
 * /proc) and its `import.meta.url` (how it was loaded). nice-worker.js is the same in JavaScript,
 * as the compiled service's worker entries are.
 */
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";

const stat = readFileSync("/proc/thread-self/stat", "latin1");
// Field 19 of proc(5) (nice), counted from field 3 (after the command name in parentheses).
parentPort!.postMessage({ nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]), url: import.meta.url });
