/**
 * The pages' Content-Security-Policy (src/http/security-headers.ts) allows exactly the inline
 * stylesheets the pages carry: every `<style>` element of a page of the frame and of a
 * cross-validation report page must have its hash in `style-src` (CSP Level 3 §8.3: the
 * base64 SHA-256 of the element's text), and no script may run. The real browser check is
 * test/integration/access-browser.test.ts; this one fails first when a page gains a stylesheet
 * the policy does not know. Also: with tokens, every POST form of a page gets the token field
 * and GET forms do not (http/html/layout.ts).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { page, setFormTokenFields } from "../../../src/http/html/layout.ts";
import { htmlPolicy, SVG_POLICY } from "../../../src/http/security-headers.ts";
import { REPORT_STYLE } from "../../../src/validate/index.ts";

const BASE = "http://qsar.example.org:8080";

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

const styles = (html: string): string[] => [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
const hash = (s: string): string => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;

describe("the HTML pages' policy", () => {
  const d = directives(htmlPolicy(BASE));

  it("allows every inline stylesheet of a page and of a report page by hash, and nothing inline else", () => {
    const pages = [page("A page", "<p>x</p>", { base: BASE }), page("Cross-validation report", "<div></div>", { base: BASE, head: REPORT_STYLE })];
    const found = pages.flatMap(styles);
    assert.equal(found.length, 3);
    for (const s of found) assert.ok(d.get("style-src")!.includes(hash(s)), `style-src lacks the hash of ${s.slice(0, 40)}…`);
    assert.ok(!d.get("style-src")!.includes("'unsafe-inline'"));
  });

  it("runs only the service's own script files, loads images and posts forms only to the service, and cannot be framed", () => {
    assert.deepEqual(d.get("default-src"), ["'none'"]);
    assert.deepEqual(d.get("script-src"), ["'self'", BASE], "no 'unsafe-inline', no hash: an inline or injected script does not run");
    assert.deepEqual(d.get("connect-src"), ["'self'", BASE]);
    assert.deepEqual(d.get("img-src"), ["'self'", BASE]);
    assert.deepEqual(d.get("form-action"), ["'self'", BASE]);
    assert.deepEqual(d.get("base-uri"), ["'none'"]);
    assert.deepEqual(d.get("frame-ancestors"), ["'none'"]);
  });

  it("lets SVG documents style themselves but run no script", () => {
    const s = directives(SVG_POLICY);
    assert.deepEqual(s.get("default-src"), ["'none'"]);
    assert.equal(s.get("script-src"), undefined);
    assert.deepEqual(s.get("style-src"), ["'unsafe-inline'"]);
    assert.deepEqual(s.get("frame-ancestors"), ["'none'"]);
  });
});

describe("the token field of forms", () => {
  const body = `<form method="post" action="${BASE}/dataset" enctype="multipart/form-data"><input type="file" name="file"></form><form method="get" action="${BASE}/sparql"><input name="query"></form>`;
  const field = /<input type="password" name="api_token"[^>]*required>/g;

  it("is added to every POST form, and only with tokens", () => {
    try {
      setFormTokenFields(true);
      const html = page("Upload", body, { base: BASE });
      assert.equal(html.match(field)?.length, 1);
      assert.ok(html.indexOf("api_token") > html.indexOf('method="post"') && html.indexOf("api_token") < html.indexOf('method="get"'), "inside the POST form");
    } finally {
      setFormTokenFields(false);
    }
    assert.equal(page("Upload", body, { base: BASE }).match(field), null);
  });
});
