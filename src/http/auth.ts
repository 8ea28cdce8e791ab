/**
 * Access control (README "Access control"): optional API tokens, who may write, and who may
 * delete or cancel what.
 *
 * - Tokens come from a file (`--tokens-file`) and/or `QSARGRAPH_TOKENS`, one per line (entries of
 *   the variable may also be separated by `;`): `<name> <token> [admin]`, `#` starts a comment.
 *   They are checked at start (a message names the line at fault, never the token) and kept
 *   only as SHA-256 hashes; a presented token is hashed and compared with every hash in
 *   constant time (`timingSafeEqual`), so neither the comparison nor the loop tells how much of
 *   a token was right.
 * - Without tokens the service is open (as before); that is allowed only on a loopback
 *   interface, or with `--open`: on any other interface the start is refused.
 * - With tokens: reads (GET, HEAD, OPTIONS, and POST /sparql, which is a query) are public unless
 *   `--private-reads`; every other request needs `Authorization: Bearer <token>` or, for an
 *   HTML form (which cannot send headers), the form field `api_token`. No cookies, so a page of
 *   another site cannot make a browser write with someone's token (no CSRF).
 * - The token's name is recorded as the creator of what the request creates
 *   (resources/creator.ts); DELETE and task cancel need the creator's token or an admin token.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { BlockList, isIP } from "node:net";
import type { Context, Next } from "koa";
import type { Config } from "../config.ts";
import { BadRequest, Forbidden, Unauthorized } from "../errors.ts";
import { actAs } from "../resources/creator.ts";

/** The form field that carries the token of a request sent by an HTML form. */
export const FORM_TOKEN_FIELD = "api_token";

/** Shortest token accepted: 16 characters (e.g. `openssl rand -hex 32` gives 64). */
export const MIN_TOKEN_LENGTH = 16;

/** A token's name (recorded as creator; shown in 403 messages) and whether it is an admin token. */
export interface Principal {
  readonly name: string;
  readonly admin: boolean;
}

interface TokenEntry extends Principal {
  readonly hash: Buffer;
  /** Where it was given, e.g. `tokens.txt line 3` (for messages). */
  readonly where: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
/** RFC 6750 §2.1 b64token: what a Bearer credential may hold. */
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function sha256(s: string): Buffer {
  return createHash("sha256").update(s, "utf8").digest();
}

/**
 * Parse token entries (`<name> <token> [admin]`; blank entries and `#` comments skipped).
 * `where(i)` names entry i (1-based) in messages. Throws an Error naming the entry at fault;
 * a message never contains a token.
 */
export function parseTokenEntries(entries: readonly string[], where: (i: number) => string): TokenEntry[] {
  const out: TokenEntry[] = [];
  entries.forEach((raw, i) => {
    const at = where(i + 1);
    const fields = raw.replace(/#.*$/, "").trim().split(/\s+/).filter(Boolean);
    if (fields.length === 0) return;
    const [name, token, role, ...rest] = fields as [string, string | undefined, string | undefined, ...string[]];
    if (!NAME.test(name)) throw new Error(`${at}: the name must be 1–64 letters, digits or . _ @ - (starting with a letter or digit); the syntax is '<name> <token> [admin]'`);
    if (token === undefined) throw new Error(`${at}: '${name}' has no token; the syntax is '<name> <token> [admin]'`);
    if (!TOKEN.test(token)) throw new Error(`${at}: the token of '${name}' may hold only letters, digits and - . _ ~ + / (then = signs), as a Bearer token does`);
    if (token.length < MIN_TOKEN_LENGTH) throw new Error(`${at}: the token of '${name}' is shorter than ${MIN_TOKEN_LENGTH} characters (make one with 'openssl rand -hex 32')`);
    if (role !== undefined && role !== "admin") throw new Error(`${at}: the third field of '${name}' must be 'admin' or nothing`);
    if (rest.length > 0) throw new Error(`${at}: too many fields; the syntax is '<name> <token> [admin]'`);
    out.push({ name, admin: role === "admin", hash: sha256(token), where: at });
  });
  return out;
}

/** The tokens of a service: hashes only; `verify` compares in constant time. */
export class TokenSet {
  private readonly entries: readonly TokenEntry[];

  constructor(entries: readonly TokenEntry[]) {
    for (let i = 0; i < entries.length; i++) {
      for (let j = 0; j < i; j++) {
        const [a, b] = [entries[j]!, entries[i]!];
        if (a.name === b.name) throw new Error(`${b.where}: the name '${b.name}' is already given (${a.where}); each token needs its own name`);
        if (a.hash.equals(b.hash)) throw new Error(`${b.where}: the token of '${b.name}' is the same as that of '${a.name}' (${a.where}); each name needs its own token`);
      }
    }
    this.entries = entries;
  }

  get size(): number {
    return this.entries.length;
  }

  get admins(): number {
    return this.entries.filter((e) => e.admin).length;
  }

  /** The principal whose token this is, or undefined. Every hash is compared, match or not. */
  verify(token: string): Principal | undefined {
    const h = sha256(token);
    let found: TokenEntry | undefined;
    for (const e of this.entries) {
      if (timingSafeEqual(h, e.hash) && found === undefined) found = e;
    }
    return found ? { name: found.name, admin: found.admin } : undefined;
  }
}

/** The tokens configured (file and/or variable), or undefined when none is configured. */
export function loadTokens(config: Pick<Config, "tokensFile" | "tokens">): TokenSet | undefined {
  const entries: TokenEntry[] = [];
  if (config.tokensFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(config.tokensFile, "utf8");
    } catch (err) {
      throw new Error(`cannot read the tokens file ${config.tokensFile} (TOKENS_FILE): ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    const parsed = parseTokenEntries(text.split(/\r?\n/), (i) => `${config.tokensFile} line ${i}`);
    if (parsed.length === 0) throw new Error(`the tokens file ${config.tokensFile} (TOKENS_FILE) holds no token; each line is '<name> <token> [admin]'`);
    entries.push(...parsed);
  }
  if (config.tokens !== undefined) {
    const parsed = parseTokenEntries(config.tokens.split(/;|\r?\n/), (i) => `QSARGRAPH_TOKENS entry ${i}`);
    if (parsed.length === 0) throw new Error(`QSARGRAPH_TOKENS holds no token; entries are '<name> <token> [admin]', separated by ';' or newlines`);
    entries.push(...parsed);
  }
  return entries.length > 0 ? new TokenSet(entries) : undefined;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * True for an interface only this machine can reach: `localhost`, 127.0.0.0/8, ::1 (also
 * IPv4-mapped, ::ffff:127.x.x.x). Anything else — 0.0.0.0, ::, a LAN address, another host
 * name — may be reachable from elsewhere.
 */
export function isLoopback(host: string): boolean {
  const h = host.trim().replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (h === "localhost" || h === "localhost.") return true;
  const family = isIP(h);
  return family !== 0 && LOOPBACK.check(h, family === 4 ? "ipv4" : "ipv6");
}

/** How the service controls access: tokens (or none = open), and whether reads need one. */
export interface Access {
  readonly tokens: TokenSet | undefined;
  readonly privateReads: boolean;
  /** One line for the start-up log (never a token). */
  readonly summary: string;
}

/**
 * The access policy of a configuration; throws (the service does not start) when tokens are
 * malformed, when reads are to be private without tokens, or when a non-loopback interface
 * would be served without tokens and without `--open`.
 */
export function accessPolicy(config: Config): Access {
  const tokens = loadTokens(config);
  if (!tokens) {
    if (config.privateReads) throw new Error("--private-reads (PRIVATE_READS) needs API tokens: give them with --tokens-file FILE or QSARGRAPH_TOKENS (README \"Access control\")");
    if (!isLoopback(config.host) && !config.open) {
      throw new Error(
        `refusing to serve ${config.host} without API tokens: anyone who can reach it could upload, change and delete data. ` +
          `Give tokens with --tokens-file FILE (TOKENS_FILE) or QSARGRAPH_TOKENS='<name> <token> [admin]; …' (README "Access control"), ` +
          `or start with --open (OPEN=1) to serve it without access control, or bind 127.0.0.1 (--host).`,
      );
    }
    return { tokens: undefined, privateReads: false, summary: isLoopback(config.host) ? "open (loopback interface, no tokens)" : `OPEN: no tokens on ${config.host} (--open): anyone who can reach it may write and delete` };
  }
  const reads = config.privateReads ? "reads need a token too" : "reads are public";
  return { tokens, privateReads: config.privateReads, summary: `API tokens: ${tokens.size} (${tokens.admins} admin); writes need a token, ${reads}` };
}

/** Per request, with tokens: the principal, or a form whose `api_token` field is still to be read. */
interface AuthState {
  readonly tokens: TokenSet;
  principal: Principal | undefined;
  pending: boolean;
}

const CHALLENGE = `Bearer realm="qsargraph"`;

/** A read: GET, HEAD, OPTIONS, and a SPARQL query sent by POST (SPARQL 1.1 Protocol). */
function isRead(ctx: Context): boolean {
  return ctx.method === "GET" || ctx.method === "HEAD" || ctx.method === "OPTIONS" || (ctx.method === "POST" && ctx.path === "/sparql");
}

function stateOf(ctx: Context): AuthState | undefined {
  return ctx.state.access as AuthState | undefined;
}

/** The principal of a request with tokens; 401 when its form token has not been read (fail closed). */
function principalOf(state: AuthState): Principal | undefined {
  if (state.pending) throw new Unauthorized(`this form was sent without a checked API token: give it in the field '${FORM_TOKEN_FIELD}' or the Authorization header`, { field: FORM_TOKEN_FIELD });
  return state.principal;
}

/**
 * The access middleware: with tokens, checks the Authorization header before anything reads the
 * body (401 when a write has none, or a token is unknown; with private reads also for reads);
 * a POST form without the header is let through to its body reader, which must call
 * {@link acceptFormToken}. Every request runs with its creator set for resources/creator.ts.
 */
export function accessMiddleware(access: Access) {
  const tokens = access.tokens;
  return async function checkAccess(ctx: Context, next: Next): Promise<void> {
    if (!tokens) return next();
    try {
      if (new URLSearchParams(ctx.querystring).has(FORM_TOKEN_FIELD)) {
        throw new BadRequest(`an API token is never sent in the URL (it would be logged and remembered): send 'Authorization: Bearer <token>', or the form field '${FORM_TOKEN_FIELD}' in the body`, { field: FORM_TOKEN_FIELD });
      }
      const state: AuthState = { tokens, principal: undefined, pending: false };
      const header = ctx.get("Authorization");
      if (header !== "") {
        const m = /^Bearer +(\S+) *$/i.exec(header);
        if (!m) throw new Unauthorized("the Authorization header must be 'Bearer <token>'", { field: "Authorization" });
        state.principal = tokens.verify(m[1]!);
        if (!state.principal) {
          ctx.set("WWW-Authenticate", `${CHALLENGE}, error="invalid_token"`);
          throw new Unauthorized("the API token is not one of this service's tokens", { field: "Authorization" });
        }
      } else if (!isRead(ctx)) {
        if (ctx.method === "POST" && ctx.is("urlencoded", "multipart")) state.pending = true;
        else throw new Unauthorized(`this service needs an API token for ${ctx.method} ${ctx.path}: send 'Authorization: Bearer <token>' (README "Access control")`, { field: "Authorization" });
      } else if (access.privateReads) {
        throw new Unauthorized(`reading this service needs an API token: send 'Authorization: Bearer <token>' (README "Access control")`, { field: "Authorization" });
      }
      ctx.state.access = state;
      await actAs(() => principalOf(state)?.name, next);
    } catch (err) {
      if (err instanceof Unauthorized && !ctx.response.get("WWW-Authenticate")) ctx.set("WWW-Authenticate", CHALLENGE);
      throw err;
    }
  };
}

/**
 * A form body's `api_token` field (called by the body readers right after parsing, before any
 * work): a POST form without an Authorization header is accepted only with a valid token here.
 * Without tokens, or when the header gave one, the field is ignored.
 */
export function acceptFormToken(ctx: Context, value: unknown): void {
  const state = stateOf(ctx);
  if (!state?.pending) return;
  if (Array.isArray(value)) throw new Unauthorized(`give the form field '${FORM_TOKEN_FIELD}' once`, { field: FORM_TOKEN_FIELD });
  if (typeof value !== "string" || value === "") {
    throw new Unauthorized(`this service needs an API token for ${ctx.method} ${ctx.path}: give it in the form field '${FORM_TOKEN_FIELD}' or send 'Authorization: Bearer <token>'`, { field: FORM_TOKEN_FIELD });
  }
  const p = state.tokens.verify(value.trim());
  if (!p) throw new Unauthorized(`the API token in the form field '${FORM_TOKEN_FIELD}' is not one of this service's tokens`, { field: FORM_TOKEN_FIELD });
  state.principal = p;
  state.pending = false;
}

/** `acceptFormToken` for a multipart form's text fields (the token field given once or not at all). */
export function acceptFormFields(ctx: Context, fields: ReadonlyMap<string, readonly string[]>): void {
  const token = fields.get(FORM_TOKEN_FIELD);
  acceptFormToken(ctx, token === undefined ? undefined : token.length === 1 ? token[0] : [...token]);
}

/**
 * DELETE and cancel: with tokens, only the resource's creator or an admin token may (403
 * otherwise). A resource without a recorded creator (made while the service ran without tokens)
 * may be deleted only with an admin token. Without tokens everyone may.
 */
export function requireOwner(ctx: Context, creator: string | undefined, uri: string, action: "delete" | "cancel"): void {
  const state = stateOf(ctx);
  if (!state) return;
  const p = principalOf(state);
  if (!p) throw new Unauthorized(`${action === "delete" ? "deleting" : "cancelling"} needs an API token`, { field: "Authorization" });
  if (p.admin || (creator !== undefined && creator === p.name)) return;
  throw new Forbidden(
    creator === undefined
      ? `${uri} has no recorded creator (it was made while the service ran without tokens): only an admin token may ${action} it`
      : `${uri} was created by '${creator}': only that token or an admin token may ${action} it`,
    { field: "Authorization" },
  );
}
