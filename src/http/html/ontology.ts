/**
 * The vocabulary's page (`/ontology` for a browser): one row per term of the service's namespace,
 * with an anchor of its local name (`/ontology#numberOfCompounds`, where the SPARQL page links
 * `qg:` terms: their namespace IRI does not resolve yet, docs/vocabulary.md), its kind, label,
 * comment, domain and range, then the Turtle source.
 */
import type { Quad } from "@rdfjs/types";
import { NS, QG_NS } from "../../store/vocab.ts";
import { esc, page } from "./layout.ts";

const KINDS: Record<string, string> = {
  [`${NS.owl}Class`]: "class",
  [`${NS.owl}ObjectProperty`]: "property → resource",
  [`${NS.owl}DatatypeProperty`]: "property → value",
};

/** A term's IRI as shown: `qg:x` (a link to its row), `ot:x`, `xsd:x`, or the IRI. */
function shortName(iri: string, self: string): string {
  if (iri.startsWith(QG_NS)) return `<a href="${esc(`${self}#${iri.slice(QG_NS.length)}`)}">qg:${esc(iri.slice(QG_NS.length))}</a>`;
  for (const [p, ns] of Object.entries(NS)) if (iri.startsWith(ns)) return `${p}:${esc(iri.slice(ns.length))}`;
  return esc(iri);
}

export function ontologyHtml(quads: readonly Quad[], source: string, base: string, self: string): string {
  const about = new Map<string, Quad[]>();
  for (const q of quads) {
    if (!q.subject.value.startsWith(QG_NS)) continue;
    let list = about.get(q.subject.value);
    if (!list) about.set(q.subject.value, (list = []));
    list.push(q);
  }
  const values = (qs: readonly Quad[], p: string): string[] => qs.filter((q) => q.predicate.value === p).map((q) => q.object.value);
  const rows = [...about.keys()]
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
    .map((term) => {
      const qs = about.get(term)!;
      const local = term.slice(QG_NS.length);
      const kind = values(qs, `${NS.rdf}type`).map((t) => KINDS[t] ?? shortName(t, self)).join(", ");
      const range = [...values(qs, `${NS.rdfs}domain`).map((d) => `domain ${shortName(d, self)}`), ...values(qs, `${NS.rdfs}range`).map((r) => `range ${shortName(r, self)}`)].join("<br>");
      return `<tr id="${esc(local)}"><th scope="row" class="mono">qg:${esc(local)}</th><td>${kind}</td><td>${esc(values(qs, `${NS.rdfs}label`).join("; "))}</td><td>${esc(values(qs, `${NS.rdfs}comment`).join(" "))}</td><td>${range}</td></tr>`;
    })
    .join("\n");
  const body = `<p>The terms qsargraph adds to OpenTox 1.1. Their namespace, <code>${esc(QG_NS)}</code> (prefix <code>qg:</code>), is the same on every qsargraph service; this page is this service's copy (${about.size} terms).</p>
<table id="terms"><thead><tr><th scope="col">Term</th><th scope="col">Kind</th><th scope="col">Label</th><th scope="col">Meaning</th><th scope="col">Domain and range</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Turtle source</h2><pre>${esc(source)}</pre>`;
  return page("Ontology", body, { base, self, formats: ["ttl", "rdf"] });
}
