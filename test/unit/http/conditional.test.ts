/**
 * RFC 9110 §13.2.2's evaluation of If-None-Match and If-Modified-Since for a GET
 * (src/http/conditional.ts). Expected answers read from RFC 9110 §8.8.3.2 (weak comparison:
 * `W/"1"` and `"1"` match), §13.1.2 (`*` matches any current representation; a list matches if
 * any member does) and §13.1.3 / §13.2.2 step 4 (If-Modified-Since only without If-None-Match).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { entityTags, ETAG_MAX_BYTES, etagOf, notModified } from "../../../src/http/conditional.ts";

describe("conditional GET", () => {
  it("reads the entity tags of If-None-Match, without W/", () => {
    assert.deepEqual(entityTags(`W/"a", "b" ,W/"c,d"`), [`"a"`, `"b"`, `"c,d"`]);
    assert.deepEqual(entityTags(" * "), ["*"]);
  });
  it("weak comparison: W/ on either side matches", () => {
    assert.equal(notModified(`"x"`, "", `W/"x"`, ""), true);
    assert.equal(notModified(`W/"x"`, "", `"x"`, ""), true);
    assert.equal(notModified(`"y", W/"x"`, "", `W/"x"`, ""), true);
    assert.equal(notModified(`"y"`, "", `W/"x"`, ""), false);
    assert.equal(notModified("*", "", `W/"x"`, ""), true);
    assert.equal(notModified(`"x"`, "", "", ""), false, "no ETag: nothing to match");
  });
  it("If-Modified-Since counts only without If-None-Match", () => {
    const lm = "Fri, 27 Nov 2026 12:00:00 GMT";
    assert.equal(notModified("", "Fri, 27 Nov 2026 12:00:00 GMT", "", lm), true);
    assert.equal(notModified("", "Fri, 27 Nov 2026 11:59:59 GMT", "", lm), false);
    assert.equal(notModified(`"other"`, "Fri, 27 Nov 2026 13:00:00 GMT", `"x"`, lm), false);
    assert.equal(notModified("", "not a date", "", lm), false);
    assert.equal(notModified("", "Fri, 27 Nov 2026 13:00:00 GMT", "", ""), false, "no Last-Modified");
  });
  it("the ETag is weak and differs with the body", () => {
    assert.match(etagOf("a"), /^W\/"[A-Za-z0-9_-]+"$/);
    assert.equal(etagOf("a"), etagOf(Buffer.from("a")));
    assert.notEqual(etagOf("a"), etagOf("b"));
  });
});

describe("the ETag size limit", () => {
  // 16 MiB: SHA-1 hashes it in ≈ 20–30 ms on the machine of docs/benchmarks.md, within the 100 ms a
  // piece of work may hold the event loop (measured, not asserted: timing is for benches)
  it("is 16 MiB, and a body of that size still gets its ETag (distinct from a one-byte change)", () => {
    assert.equal(ETAG_MAX_BYTES, 16 * 1024 * 1024);
    const body = Buffer.alloc(ETAG_MAX_BYTES, 0x61);
    const tag = etagOf(body);
    body[ETAG_MAX_BYTES - 1] = 0x62;
    assert.notEqual(etagOf(body), tag);
  });
});
