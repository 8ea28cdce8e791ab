/**
 * The client's HTTP: Node's global fetch, the API token, and every failure turned into its exit
 * code (errors.ts): an answer ≥ 400 → HttpError with the service's own message, no answer →
 * Unreachable, Ctrl-C → Interrupted.
 *
 * The token (`Authorization: Bearer`, README "Access control") goes only to the service: the
 * origin of `--server`, and the origin of the service's BASE_URL (the URIs it names, which may
 * differ: by default it listens on 127.0.0.1 and names its resources http://localhost:<port>).
 * The base is read once, when a request with a token goes to another origin, from the service's
 * home (`GET <server>/` as a uri-list names its collections, `<BASE_URL>/dataset` …). A URI of
 * any other origin gets no token.
 */
import { parseUriList } from "./uri-list.ts";
import { HttpError, Interrupted, Unreachable } from "./errors.ts";

export interface ClientOptions {
  /** The service's URL as given (`--server`, QSARGRAPH_URL). */
  readonly server: string;
  readonly token?: string;
  /** Aborted by Ctrl-C. */
  readonly signal?: AbortSignal;
}

export interface RequestOptions {
  readonly accept?: string;
  readonly body?: BodyInit;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

/** At most this much of an error body is read for its message. */
const MAX_ERROR_BODY = 64 * 1024;

export class Client {
  readonly server: string;
  readonly #token: string | undefined;
  readonly #signal: AbortSignal | undefined;
  #base: Promise<string> | undefined;

  constructor(o: ClientOptions) {
    this.server = o.server.replace(/\/+$/, "");
    this.#token = o.token;
    this.#signal = o.signal;
  }

  /** The URL of a path of the service (`/dataset`). */
  url(path: string): string {
    return `${this.server}${path}`;
  }

  /**
   * The service's BASE_URL (the prefix of the URIs it names): the home's first collection
   * (`<BASE_URL>/dataset`) without its last segment; `--server` when the home does not say.
   */
  base(): Promise<string> {
    this.#base ??= (async () => {
      const r = await this.#send("GET", this.url("/"), { accept: "text/uri-list" }, true);
      if (!r.ok) {
        await r.body?.cancel();
        return this.server;
      }
      const first = parseUriList(await r.text())[0];
      return first ? first.slice(0, first.lastIndexOf("/")) : this.server;
    })();
    return this.#base;
  }

  async #authorised(url: string): Promise<boolean> {
    if (this.#token === undefined) return false;
    const origin = new URL(url).origin;
    if (origin === new URL(this.server).origin) return true;
    return origin === new URL(await this.base()).origin;
  }

  async #send(method: string, url: string, o: RequestOptions, withToken: boolean): Promise<Response> {
    const headers: Record<string, string> = {};
    if (o.accept) headers.Accept = o.accept;
    if (o.contentType) headers["Content-Type"] = o.contentType;
    if (withToken && this.#token !== undefined) headers.Authorization = `Bearer ${this.#token}`;
    const signal = o.signal ?? this.#signal;
    try {
      return await fetch(url, { method, headers, ...(o.body !== undefined ? { body: o.body } : {}), ...(signal ? { signal } : {}) });
    } catch (err) {
      throw networkError(err, url);
    }
  }

  /** Any answer (the caller looks at the status). */
  async request(method: string, url: string, o: RequestOptions = {}): Promise<Response> {
    return this.#send(method, url, o, await this.#authorised(url));
  }

  /** An answer below 400, else HttpError with the service's message. */
  async ok(method: string, url: string, o: RequestOptions = {}): Promise<Response> {
    const r = await this.request(method, url, o);
    if (r.status >= 400) throw await httpError(method, url, r, this.#token !== undefined && !(await this.#authorised(url)));
    return r;
  }

  /** The text of an answer below 400. */
  async text(method: string, url: string, o: RequestOptions = {}): Promise<string> {
    const r = await this.ok(method, url, o);
    try {
      return await r.text();
    } catch (err) {
      throw networkError(err, url);
    }
  }
}

/** A failed fetch: Ctrl-C, or the service could not be reached. */
export function networkError(err: unknown, url: string): Error {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "AbortError") return new Interrupted(`interrupted (${url})`);
  const cause = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // keep the URL as given
  }
  return new Unreachable(`cannot reach ${origin}: ${cause}`);
}

/** The service's message in an error answer: its text/plain report, a problem+json detail, or an RDF error report's ot:message. */
export async function errorMessage(r: Response): Promise<string> {
  let body = "";
  try {
    const bytes = new Uint8Array(await r.arrayBuffer());
    body = new TextDecoder().decode(bytes.subarray(0, MAX_ERROR_BODY));
  } catch {
    // the body was cut off: the status alone
  }
  return messageOf(r.status, r.statusText, r.headers.get("content-type") ?? "", body);
}

/** The message of an error body by its media type (pure: see errorMessage). */
export function messageOf(status: number, statusText: string, contentType: string, body: string): string {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const fallback = `${status} ${statusText}`.trim();
  if (type === "application/problem+json" || type === "application/json") {
    try {
      const p = JSON.parse(body) as { title?: string; detail?: string; field?: string };
      if (typeof p.detail === "string") return `${status} ${p.title ?? statusText}: ${p.detail}${p.field ? ` (field ${p.field})` : ""}`;
    } catch {
      // not JSON after all
    }
  }
  if (type === "text/plain" || type === "text/uri-list" || type === "") {
    const t = body.trim();
    if (t === "") return fallback;
    return /^\d{3}\b/.test(t) ? t : `${fallback}: ${t}`;
  }
  // An RDF error report (Turtle, N-Triples, RDF/XML, JSON-LD): its ot:message.
  const m = /message>?\s*"((?:[^"\\]|\\.)*)"/.exec(body) ?? /"(?:ot:)?message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(body) ?? /<ot:message[^>]*>([^<]*)</.exec(body);
  if (m) return `${fallback}: ${m[1]!.replace(/\\(.)/g, "$1")}`;
  if (type === "text/html") {
    const t = body.replace(/<style[\s\S]*?<\/style>/gi, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
    return t ? `${fallback}: ${t.slice(0, 500)}` : fallback;
  }
  return fallback;
}

async function httpError(method: string, url: string, r: Response, tokenWithheld: boolean): Promise<HttpError> {
  const retry = r.headers.get("retry-after");
  let message = `${method} ${url} answered ${await errorMessage(r)}`;
  if (retry) message += ` (retry after ${retry} s)`;
  if (r.status === 401 && tokenWithheld) message += `\n(the token is sent only to the service's own origins; ${new URL(url).origin} is not one of them)`;
  return new HttpError(message, r.status);
}
