// nice-worker.ts in JavaScript (see there): a worker entry that plain node imports, as in the compiled service.
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";

const stat = readFileSync("/proc/thread-self/stat", "latin1");
parentPort.postMessage({ nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]), url: import.meta.url });
