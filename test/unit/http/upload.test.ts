/**
 * File names from a Content-Disposition value (src/http/upload.ts dispositionFileName).
 * Reference values: RFC 6266 §5 (examples), RFC 8187 (`filename*` encoding), RFC 9110 §5.6.4
 * (quoted-string with quoted-pair), and a raw UTF-8 name as browsers send it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { dispositionFileName } from "../../../src/http/upload.ts";

/** A header value as Node hands it over: one character per byte. */
const latin1 = (s: string): string => Buffer.from(s, "utf8").toString("latin1");

test("quoted-string with escaped quotes and backslashes (RFC 9110 quoted-pair)", () => {
  assert.equal(dispositionFileName('attachment; filename="a \\"b\\".csv"'), 'a "b".csv');
  assert.equal(dispositionFileName('attachment; filename="x\\\\y.csv"'), "x\\y.csv");
  assert.equal(dispositionFileName("attachment; filename=plain.csv"), "plain.csv");
  assert.equal(dispositionFileName('form-data; name="file"; filename="semi;colon.csv"'), "semi;colon.csv");
});

test("RFC 6266 §5 examples: filename, and filename* winning over filename", () => {
  assert.equal(dispositionFileName('Attachment; filename=example.html'), "example.html");
  assert.equal(dispositionFileName("attachment; filename*= UTF-8''%e2%82%ac%20rates"), "€ rates");
  assert.equal(dispositionFileName("attachment; filename=\"EURO rates\"; filename*=utf-8''%e2%82%ac%20rates"), "€ rates");
});

test("a raw UTF-8 name (as browsers send it) is read as UTF-8; no file name → undefined", () => {
  assert.equal(dispositionFileName(latin1('form-data; name="file"; filename="Käse 日本.csv"')), "Käse 日本.csv");
  assert.equal(dispositionFileName('form-data; name="file"'), undefined);
});

test("a malformed value is a TypeError (the caller answers 400)", () => {
  assert.throws(() => dispositionFileName('attachment; filename="unterminated'), TypeError);
  assert.throws(() => dispositionFileName("attachment; filename=a; filename=b"), TypeError);
});
