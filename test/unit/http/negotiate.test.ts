/**
 * Accept headers with media-type parameters (src/http/negotiate.ts withoutMediaParams): every
 * parameter but q goes, quoted values may hold `,` and `;` (RFC 9110 §5.6.6 quoted-string,
 * §12.5.1 Accept). Inputs and expected outputs written by hand from that grammar.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withoutMediaParams } from "../../../src/http/negotiate.ts";

describe("Accept without media-type parameters", () => {
  it("drops charset and profile, keeps q", () => {
    assert.equal(withoutMediaParams("text/turtle; charset=utf-8"), "text/turtle");
    assert.equal(withoutMediaParams('application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"'), "application/ld+json");
    assert.equal(withoutMediaParams("text/turtle; charset=utf-8;q=0.9, */*;q=0.1"), "text/turtle;q=0.9, */*;q=0.1");
    assert.equal(withoutMediaParams("text/turtle;Q=0.5"), "text/turtle;q=0.5");
  });
  it("a quoted value may hold , and ;", () => {
    assert.equal(withoutMediaParams('a/b; x="1,2;3"; q=0.5, c/d'), "a/b;q=0.5, c/d");
  });
  it("a header without parameters is left as it is; one it cannot read gives undefined", () => {
    assert.equal(withoutMediaParams("text/html, */*"), "text/html, */*");
    assert.equal(withoutMediaParams("text/html;;"), undefined);
  });
});
