/**
 * URI minting (docs/opentox-api.md "Resources and URIs"): opaque, stable ids and the URI of every
 * resource kind.
 *
 * Ids are 12 random characters from a 32-letter alphabet (60 bits). Compound URIs carry the
 * standard InChI unencoded, except for the few characters that cannot stand in an IRI path
 * (`?` of undefined stereo, `#`, `%`, space), which are percent-encoded.
 */
import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

export function newId(): string {
  const bytes = randomBytes(12);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 32];
  return out;
}

export function isId(s: string): boolean {
  return /^[a-z2-9]{12}$/.test(s);
}

/** Percent-encode what an IRI path cannot hold literally; keeps InChI punctuation readable. */
export function encodeInchiForPath(inchi: string): string {
  return inchi.replace(/[%?# "<>\\^`{|}]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
}

/**
 * Feature names as one path segment: percent-encoded (space = %20, `/` = %2F). The names `.` and
 * `..` would be dot-segments, which every URL parser removes (RFC 3986 §5.2.4; the WHATWG URL
 * standard treats `%2E` as a dot too, so encoding cannot help): they are written `(.)` and `(..)`.
 * Parentheses are percent-encoded in every other name, so no other name gives these segments.
 */
export function encodeSegment(name: string): string {
  if (name === "." || name === "..") return `(${name})`;
  return encodeURIComponent(name).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

export class Uris {
  readonly base: string;
  constructor(base: string) {
    this.base = base.replace(/\/+$/, "");
  }
  service(): string {
    return `${this.base}/`;
  }
  datasets(): string {
    return `${this.base}/dataset`;
  }
  dataset(id: string): string {
    return `${this.base}/dataset/${id}`;
  }
  feature(datasetUri: string, name: string): string {
    return `${datasetUri}/feature/${encodeSegment(name)}`;
  }
  compounds(): string {
    return `${this.base}/compound`;
  }
  compound(inchi: string): string {
    return `${this.base}/compound/${encodeInchiForPath(inchi)}`;
  }
  tasks(): string {
    return `${this.base}/task`;
  }
  task(id: string): string {
    return `${this.base}/task/${id}`;
  }
  algorithms(): string {
    return `${this.base}/algorithm`;
  }
  models(): string {
    return `${this.base}/model`;
  }
  validations(): string {
    return `${this.base}/validation`;
  }
  crossValidations(): string {
    return `${this.base}/validation/crossvalidation`;
  }
  crossValidationReports(): string {
    return `${this.base}/validation/report/crossvalidation`;
  }
  sparql(): string {
    return `${this.base}/sparql`;
  }
  ontology(): string {
    return `${this.base}/ontology`;
  }
  /** The OpenAPI description of the service's HTTP API (http/openapi/). */
  apiDescription(): string {
    return `${this.base}/openapi.json`;
  }
  /** The id at the end of a URI of this service of the given collection, or null. */
  idOf(collection: "dataset" | "task" | "model", uri: string): string | null {
    const prefix = `${this.base}/${collection}/`;
    if (!uri.startsWith(prefix)) return null;
    const id = uri.slice(prefix.length);
    return isId(id) ? id : null;
  }
}
