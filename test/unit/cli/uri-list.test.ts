/**
 * uri-list bodies (src/cli/uri-list.ts): the service ends every line with CRLF (RFC 2483), which
 * a shell's `$(curl …)` keeps; the client reads CRLF, LF and CR alike, skips comments (RFC 2483
 * §5: lines starting with '#') and blank lines, and prints LF. Inputs written by hand.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseUriList, toLines } from "../../../src/cli/uri-list.ts";

describe("parseUriList", () => {
  it("a task answer: one URI and CRLF → the URI without the CR", () => {
    const [uri] = parseUriList("http://localhost:8080/task/abcdefghijkm\r\n");
    assert.equal(uri, "http://localhost:8080/task/abcdefghijkm");
    assert.ok(!uri!.includes("\r"));
  });

  it("several URIs, CRLF, LF and a lone CR between them, comments, blank lines, no final line end", () => {
    assert.deepEqual(parseUriList("# a comment\r\nhttp://h/a\r\n\r\nhttp://h/b\nhttp://h/c\rhttp://h/d"), ["http://h/a", "http://h/b", "http://h/c", "http://h/d"]);
  });

  it("an empty body → no URI", () => {
    assert.deepEqual(parseUriList(""), []);
    assert.deepEqual(parseUriList("\r\n"), []);
  });

  it("printed with LF line ends", () => {
    assert.equal(toLines(["http://h/a", "http://h/b"]), "http://h/a\nhttp://h/b\n");
  });
});
