/**
 * Which SPARQL store the service talks to, as far as it matters: `virtuoso` or `standard`. Found
 * once, when the SPARQL store opens (a capability probe, not a product name), and given to every
 * part that adapts to it:
 * - the store's updates start with `DEFINE sql:big-data-const 1` on Virtuoso (its `INSERT DATA`
 *   compiled 5–10× faster; docs/virtuoso.md "Upload speed on the SPARQL store");
 * - the proxied `/sparql` keeps what is not served out of a query's dataset with Virtuoso's
 *   exclusion pragmas instead of lists of graphs (docs/virtuoso.md finding 11).
 */
export type SparqlDialect = "virtuoso" | "standard";

/**
 * Virtuoso, when a query that starts with `define input:default-graph-exclude` is answered as
 * the ASK it is; a standard store refuses the pragma (a syntax error), and a store that does not
 * answer the probe is taken as standard (the lists work everywhere; only slower).
 */
export async function probeDialect(queryEndpoint: string, authorization: string | undefined, timeoutMs: number): Promise<SparqlDialect> {
  const none = "urn:qsargraph:dialect-probe";
  try {
    const r = await fetch(queryEndpoint, {
      method: "POST",
      headers: { accept: "application/sparql-results+json", "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
      body: new URLSearchParams({ query: `define input:default-graph-exclude <${none}> ASK {}` }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await r.text();
    return r.status === 200 && /"boolean"\s*:\s*true/.test(text) ? "virtuoso" : "standard";
  } catch {
    return "standard";
  }
}
