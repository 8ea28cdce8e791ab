/**
 * Access control's pure parts (src/http/auth.ts): the token syntax and its checks at start,
 * token verification, loopback detection and the start-up policy (refuse a public interface
 * without tokens unless --open).
 *
 * Loopback reference: RFC 1122 §3.2.1.3 (127.0.0.0/8 is the IPv4 loopback network), RFC 4291
 * §2.5.3 (::1 is the IPv6 loopback address) and §2.5.5.2 (IPv4-mapped addresses ::ffff:a.b.c.d);
 * 0.0.0.0 and :: are the unspecified addresses (every interface).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { accessPolicy, isLoopback, loadTokens, parseTokenEntries, TokenSet } from "../../../src/http/auth.ts";

const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef01";
const ROOT = "root-token-0123456789abcdef0";

const dir = mkdtempSync(join(tmpdir(), "qsargraph-auth-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const where = (i: number): string => `tokens line ${i}`;

describe("token entries", () => {
  it("reads '<name> <token> [admin]' lines, skipping blank lines and # comments", () => {
    const entries = parseTokenEntries(["# who may write", "", `alice ${ALICE}`, `  root   ${ROOT}   admin  # the operator`, "   "], where);
    assert.deepEqual(
      entries.map((e) => [e.name, e.admin, e.where]),
      [
        ["alice", false, "tokens line 3"],
        ["root", true, "tokens line 4"],
      ],
    );
  });

  it("names the line at fault and never echoes a token", () => {
    const cases: [string, RegExp][] = [
      [`al!ce ${ALICE}`, /tokens line 1: the name must be/],
      ["alice", /tokens line 1: 'alice' has no token/],
      ["alice short-token", /tokens line 1: the token of 'alice' is shorter than 16 characters/],
      [`alice ${ALICE} root`, /tokens line 1: the third field of 'alice' must be 'admin'/],
      [`alice ${ALICE} admin extra`, /tokens line 1: too many fields/],
      [`-alice ${ALICE}`, /tokens line 1: the name must be/],
      [`alice tok"en0123456789abcdef`, /tokens line 1: the token of 'alice' may hold only/],
    ];
    for (const [line, message] of cases) {
      assert.throws(
        () => parseTokenEntries([line], where),
        (err: Error) => {
          assert.match(err.message, message);
          for (const word of line.split(/\s+/).filter((w) => w.length >= 16)) assert.ok(!err.message.includes(word), `the message shows the token: ${err.message}`);
          return true;
        },
      );
    }
  });

  it("refuses a name or a token given twice", () => {
    assert.throws(() => new TokenSet(parseTokenEntries([`alice ${ALICE}`, `alice ${BOB}`], where)), /tokens line 2: the name 'alice' is already given \(tokens line 1\)/);
    assert.throws(() => new TokenSet(parseTokenEntries([`alice ${ALICE}`, `bob ${ALICE}`], where)), /tokens line 2: the token of 'bob' is the same as that of 'alice' \(tokens line 1\)/);
  });

  it("verifies tokens: the right principal, nothing for an unknown or near-miss token", () => {
    const set = new TokenSet(parseTokenEntries([`alice ${ALICE}`, `bob ${BOB}`, `root ${ROOT} admin`], where));
    assert.deepEqual(set.verify(ALICE), { name: "alice", admin: false });
    assert.deepEqual(set.verify(ROOT), { name: "root", admin: true });
    assert.equal(set.verify(ALICE.slice(0, -1)), undefined);
    assert.equal(set.verify(`${ALICE}x`), undefined);
    assert.equal(set.verify(""), undefined);
    assert.equal(set.size, 3);
    assert.equal(set.admins, 1);
  });

  it("loads a file and QSARGRAPH_TOKENS (entries separated by ; or newlines) together", () => {
    const file = join(dir, "tokens");
    writeFileSync(file, `# tokens\nalice ${ALICE}\r\n`);
    const set = loadTokens({ tokensFile: file, tokens: `bob ${BOB}; root ${ROOT} admin\n` });
    assert.ok(set);
    assert.equal(set.size, 3);
    assert.deepEqual(set.verify(BOB), { name: "bob", admin: false });
    assert.equal(loadTokens({ tokensFile: undefined, tokens: undefined }), undefined);
  });

  it("names the file and line, or the variable's entry, and refuses an empty source", () => {
    const file = join(dir, "bad-tokens");
    writeFileSync(file, `alice ${ALICE}\n\nbob short\n`);
    assert.throws(() => loadTokens({ tokensFile: file, tokens: undefined }), new RegExp(`${file} line 3: the token of 'bob' is shorter`));
    assert.throws(() => loadTokens({ tokensFile: undefined, tokens: `alice ${ALICE};bob` }), /QSARGRAPH_TOKENS entry 2: 'bob' has no token/);
    const empty = join(dir, "empty-tokens");
    writeFileSync(empty, "# nobody yet\n");
    assert.throws(() => loadTokens({ tokensFile: empty, tokens: undefined }), /holds no token/);
    assert.throws(() => loadTokens({ tokensFile: join(dir, "missing"), tokens: undefined }), /cannot read the tokens file .*missing.*ENOENT/);
  });
});

describe("isLoopback", () => {
  it("accepts localhost, 127.0.0.0/8 and ::1 (also IPv4-mapped and bracketed)", () => {
    for (const h of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "127.255.255.254", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"]) assert.equal(isLoopback(h), true, h);
  });

  it("treats every other interface as public", () => {
    for (const h of ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "128.0.0.1", "126.255.255.255", "::2", "::ffff:10.0.0.1", "example.org", "localhost.example.org", ""]) assert.equal(isLoopback(h), false, h);
  });
});

describe("accessPolicy at start", () => {
  const config = (argv: string[], env: Record<string, string> = {}) => loadConfig(argv, env);

  it("serves 127.0.0.1 open as before", () => {
    const a = accessPolicy(config([]));
    assert.equal(a.tokens, undefined);
    assert.match(a.summary, /open \(loopback/);
  });

  it("refuses a public interface without tokens, saying how to give them or --open", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.10"]) {
      assert.throws(() => accessPolicy(config(["--host", host])), (err: Error) => {
        assert.match(err.message, new RegExp(`refusing to serve ${host.replace(/\./g, "\\.")} without API tokens`));
        assert.match(err.message, /--tokens-file/);
        assert.match(err.message, /QSARGRAPH_TOKENS/);
        assert.match(err.message, /--open/);
        return true;
      });
    }
  });

  it("serves a public interface with --open (OPEN=1) or with tokens", () => {
    assert.equal(accessPolicy(config(["--host", "0.0.0.0", "--open"])).tokens, undefined);
    assert.match(accessPolicy(config(["--host", "0.0.0.0"], { OPEN: "1" })).summary, /OPEN: no tokens on 0\.0\.0\.0/);
    const a = accessPolicy(config(["--host", "0.0.0.0"], { QSARGRAPH_TOKENS: `alice ${ALICE}` }));
    assert.equal(a.tokens?.size, 1);
    assert.equal(a.privateReads, false);
    assert.ok(!a.summary.includes(ALICE));
  });

  it("refuses private reads without tokens", () => {
    assert.throws(() => accessPolicy(config(["--private-reads"])), /--private-reads \(PRIVATE_READS\) needs API tokens/);
    assert.equal(accessPolicy(config(["--private-reads"], { QSARGRAPH_TOKENS: `alice ${ALICE}` })).privateReads, true);
  });
});
