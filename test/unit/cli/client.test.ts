/**
 * The service's message in an error answer (src/cli/client.ts messageOf), for each form the
 * service negotiates errors in (README "Errors"): text/plain (what uri-list clients get),
 * problem+json, an ot:ErrorReport in N-Triples or Turtle (a `get --format` of RDF), HTML. The
 * bodies are written by hand in the shapes src/http/error-response.ts produces.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { messageOf } from "../../../src/cli/client.ts";

describe("messageOf", () => {
  it("text/plain: the report as it is, causes included", () => {
    const body = "400 BadRequest: no usable row (column 1)\n  400 BadRequest: Line 2: cannot use structure \"x\" (line 2, column 1)\n";
    assert.equal(messageOf(400, "Bad Request", "text/plain; charset=utf-8", body), body.trim());
    assert.equal(messageOf(404, "Not Found", "text/plain", "no such thing"), "404 Not Found: no such thing");
    assert.equal(messageOf(502, "Bad Gateway", "text/plain", ""), "502 Bad Gateway");
  });

  it("problem+json: title, detail and field", () => {
    const body = JSON.stringify({ type: "about:blank", title: "BadRequest", status: 400, detail: "parameter 'dataset_uri': x is not a dataset of this service", field: "dataset_uri" });
    assert.equal(messageOf(400, "Bad Request", "application/problem+json", body), "400 BadRequest: parameter 'dataset_uri': x is not a dataset of this service (field dataset_uri)");
  });

  it("an RDF error report: its ot:message", () => {
    const ntriples = `<http://h/dataset/x#error> <http://www.opentox.org/api/1.1#message> "no dataset \\"x\\"" .\n`;
    assert.equal(messageOf(404, "Not Found", "application/n-triples", ntriples), '404 Not Found: no dataset "x"');
    const turtle = `@prefix ot: <http://www.opentox.org/api/1.1#> .\n<http://h/x#error> a ot:ErrorReport ; ot:message "no dataset x" ; ot:statusCode 404 .\n`;
    assert.equal(messageOf(404, "Not Found", "text/turtle", turtle), "404 Not Found: no dataset x");
  });

  it("HTML: the page's text; anything else: the status alone", () => {
    assert.equal(messageOf(404, "Not Found", "text/html", "<html><head><style>p{}</style></head><body><p><b>404 NotFound</b>: no model</p></body></html>"), "404 Not Found: 404 NotFound : no model");
    assert.equal(messageOf(500, "Internal Server Error", "application/octet-stream", "\u0000\u0001"), "500 Internal Server Error");
  });
});
