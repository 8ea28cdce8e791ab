/**
 * The external store's failures as clients see them (src/store/external-errors.ts): the store not
 * answering, answering 5xx, or too slow for a read's time limit → 503 with the store's message;
 * anything else unchanged. The messages are those SparqlStore and its read threads give
 * (sparql-store.ts `request`, sparql-reads.ts, sparql-read-worker.ts `remote`).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BadRequest, ServiceUnavailable } from "../../../src/errors.ts";
import { externalError } from "../../../src/store/external-errors.ts";

test("store failures and read time-outs become 503 with the store's message; other errors pass unchanged", () => {
  for (const message of [
    "commit failed: the SPARQL store did not answer (fetch failed)",
    "insert: the SPARQL store answered 503: busy",
    "read entryRefsOn on the SPARQL store failed: read entryRefsOn: out of time on the SPARQL store",
    "read compoundsOn took longer than 30 s on the SPARQL store and was stopped",
    "read columnOn on the SPARQL store failed: the SPARQL store ran out of time and answered an incomplete result (S1TAT)",
  ]) {
    const e = externalError(new Error(message));
    assert.ok(e instanceof ServiceUnavailable, message);
    assert.equal((e as ServiceUnavailable).status, 503);
    assert.ok((e as Error).message.includes(message), "the store's own message is kept");
  }
  const own = new BadRequest("no such feature");
  assert.equal(externalError(own), own, "a ServiceError passes unchanged");
  const bug = new TypeError("x is undefined");
  assert.equal(externalError(bug), bug, "an error of the service is not blamed on the store");
  const rowLimit = new Error("read x on the SPARQL store failed: the SPARQL store cut a result short at its row limit (ResultSetMaxRows)");
  assert.equal(externalError(rowLimit), rowLimit, "a cut result is a configuration fault, not a busy store");
});
