/**
 * The crawl (issue 18 "Done when"): on a populated service (hamster_carcinogenicity.csv uploaded,
 * a lazar model, a prediction, a BBRC feature dataset, a cross-validation and its report), start
 * from the root and dereference, with `Accept: text/turtle`, every IRI under the base that appears
 * in any graph served, bounded: at most MAX_IRIS IRIs, and at most PER_KIND of each kind (the
 * path with ids, compounds, feature names and fragments generalised), so that 85 compounds and
 * thousands of entries count as a few. Hash IRIs are dereferenced without the fragment.
 *
 * Asserted for every IRI: no 404 and no 5xx; a Turtle document mentions the IRI that led to it
 * (as any term of a triple), or a redirect leads to one that does, or its `Content-Location`
 * names an IRI it mentions (RFC 9110 §8.7). What is not Turtle (scripts, pictures, a 406) is
 * counted and reported, not failed: the rule is about graphs. The predicted feature is checked on
 * the way: it `qg:predicts` the endpoint and is not `owl:sameAs` it (a reasoner would merge a
 * prediction with the measurement); `ot:hasSource` is an IRI wherever it occurs; every `qg:` term
 * used in any graph is defined, labelled and commented in `/ontology`, at the stable namespace.
 *
 * Input: fixtures/data hamster_carcinogenicity.csv (SOURCES.md), BBRC min_frequency 8 as in
 * models.test.ts.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Parser, type Quad } from "n3";
import { compoundUri, HAMSTER, postForm, runTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { undefinedTerms } from "../helpers/rdf.ts";

const MAX_IRIS = 2000;
const PER_KIND = 4;
const OT = "http://www.opentox.org/api/1.1#";
const OWL_SAME_AS = "http://www.w3.org/2002/07/owl#sameAs";
/** The service's vocabulary namespace, spelt out as documented (docs/vocabulary.md): the same for every deployment. */
const QG = "https://w3id.org/qsargraph/ontology#";

/** The kind of an IRI: its path with ids, compounds, feature names, descriptor names and the fragment's digits generalised. */
function kindOf(iri: string, base: string): string {
  const u = new URL(iri);
  let path = u.pathname.slice(new URL(base).pathname.replace(/\/$/, "").length);
  path = path
    .replace(/^\/compound\/.+?(\/pc)?$/, "/compound/*$1")
    .replace(/\/feature\/[^/]+/, "/feature/*")
    .replace(/^\/algorithm\/pc\/(?!AllDescriptors$).+/, "/algorithm/pc/*")
    .replace(/\/[a-z2-9]{12}(?=\/|$)/g, "/{id}");
  const query = [...u.searchParams.keys()].sort().join("&");
  const fragment = u.hash.replace(/\d+/g, "N");
  return `${path}${query ? `?${query}` : ""}${fragment}`;
}

interface Visit {
  readonly status: number;
  readonly type: string;
  readonly quads: Quad[];
  /** IRIs the document is about: the one fetched, its redirect target, its Content-Location. */
  readonly names: readonly string[];
}

describe("the crawl of a populated service", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });

  test("from the root, every IRI under the base answers (no 404, no 5xx) and its document mentions it", { timeout: 900_000 }, async () => {
    const base = srv.base;
    const hamster = srv.datasets.hamster;
    const model = await runTask(`${base}/algorithm/lazar`, { dataset_uri: hamster, min_frequency: "8" });
    const r = await postForm(model, { compound_uri: await compoundUri(base, "c1ccccc1NN") });
    assert.equal(r.status, 201, await r.clone().text());
    const prediction = (await r.text()).trim();
    const bbrc = await runTask(`${base}/algorithm/miner/bbrc`, { dataset_uri: hamster, min_frequency: "8" });
    const cv = await runTask(`${base}/validation/crossvalidation`, { algorithm_uri: `${base}/algorithm/lazar`, dataset_uri: hamster, num_folds: "2", algorithm_params: "min_frequency=8" });
    const report = await runTask(`${base}/validation/report/crossvalidation`, { validation_uris: cv });
    const made = [hamster, model, prediction, bbrc, cv, report];

    const docs = new Map<string, Promise<Visit>>();
    const visit = (doc: string): Promise<Visit> => {
      let v = docs.get(doc);
      if (!v) {
        v = (async (): Promise<Visit> => {
          const names = [doc];
          let res = await fetch(doc, { headers: { Accept: "text/turtle" }, redirect: "manual" });
          for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) {
            await res.arrayBuffer();
            const to = new URL(res.headers.get("location")!, doc).href;
            names.push(to);
            res = await fetch(to, { headers: { Accept: "text/turtle" }, redirect: "manual" });
          }
          const location = res.headers.get("content-location");
          if (location) names.push(new URL(location, doc).href);
          const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
          const text = await res.text();
          const quads = type === "text/turtle" && res.ok ? new Parser({ format: "Turtle", baseIRI: names.at(-1)! }).parse(text) : [];
          return { status: res.status, type, quads, names };
        })();
        docs.set(doc, v);
      }
      return v;
    };

    const seen = new Set<string>();
    const perKind = new Map<string, number>();
    const queue: { iri: string; from: string }[] = [{ iri: `${base}/`, from: "(start)" }];
    for (const m of made) queue.push({ iri: m, from: "(made by the test)" });
    const problems: string[] = [];
    const notTurtle = new Map<string, number>();
    const allQuads: Quad[] = [];
    const under = (iri: string): boolean => iri.startsWith(`${base}/`) || iri === base;

    while (queue.length > 0 && seen.size < MAX_IRIS) {
      const batch = queue.splice(0, 8).filter(({ iri }) => {
        if (seen.has(iri)) return false;
        const kind = kindOf(iri, base);
        const n = perKind.get(kind) ?? 0;
        if (n >= PER_KIND && !made.includes(iri)) return false;
        perKind.set(kind, n + 1);
        seen.add(iri);
        return true;
      });
      await Promise.all(
        batch.map(async ({ iri, from }) => {
          const doc = iri.split("#")[0]!;
          const v = await visit(doc);
          if (v.status === 404 || v.status >= 500) {
            problems.push(`${v.status} ${iri} (found in ${from})`);
            return;
          }
          if (v.type !== "text/turtle" || v.status >= 400) {
            const key = `${v.status} ${v.type} ${kindOf(doc, base)}`;
            notTurtle.set(key, (notTurtle.get(key) ?? 0) + 1);
            return;
          }
          const mentioned = new Set<string>();
          for (const q of v.quads) for (const t of [q.subject, q.predicate, q.object, q.graph]) if (t.termType === "NamedNode") mentioned.add(t.value);
          const names = iri === doc ? v.names : [iri, ...v.names.slice(1).map((n) => `${n}${iri.slice(doc.length)}`)];
          if (!names.some((n) => mentioned.has(n))) problems.push(`${iri} (found in ${from}): its document does not mention it (names tried: ${names.join(", ")})`);
          if (!docs.has(`${doc}#quads-seen`)) {
            docs.set(`${doc}#quads-seen`, Promise.resolve(v));
            allQuads.push(...v.quads);
            for (const n of mentioned) if (under(n) && !seen.has(n)) queue.push({ iri: n, from: doc });
          }
        }),
      );
    }

    const kinds = [...perKind.keys()].sort();
    console.log(`crawl: ${seen.size} IRIs of ${kinds.length} kinds dereferenced (${docs.size / 2 | 0}+ documents); left in the queue: ${queue.filter((q) => !seen.has(q.iri)).length}`);
    for (const [k, n] of [...notTurtle].sort()) console.log(`crawl: not Turtle: ${k} ×${n}`);
    assert.deepEqual(problems, [], "every IRI answers and its document mentions it");
    assert.ok(seen.size >= 100, `the crawl went beyond the root (${seen.size} IRIs)`);
    for (const m of made) assert.ok(seen.has(m), `${m} was reached`);
    for (const k of ["/algorithm/pc/*", "/compound/*", "/model/{id}", "/task/{id}", "/validation/crossvalidation/{id}", "/ontology"]) assert.ok(perKind.has(k), `an IRI of kind ${k} was reached from the root`);

    // On the way: the predicted feature predicts the endpoint, is not the same as it; ot:hasSource names resources.
    const predicted = `${model}/predicted/value`;
    assert.ok(allQuads.some((q) => q.subject.value === predicted && q.predicate.value.endsWith("#predicts")), "qg:predicts on the predicted feature");
    assert.deepEqual(allQuads.filter((q) => q.predicate.value === OWL_SAME_AS).map((q) => `${q.subject.value} owl:sameAs ${q.object.value}`), []);
    const literalSources = allQuads.filter((q) => q.predicate.value === `${OT}hasSource` && q.object.termType !== "NamedNode");
    assert.deepEqual(literalSources.map((q) => `${q.subject.value} ot:hasSource ${q.object.value}`), [], "ot:hasSource is an IRI everywhere");

    // The vocabulary: every term of the service's namespace used anywhere in the crawl (as
    // predicate, class or value) is defined in the served /ontology with a type, a label and a
    // comment, at the stable namespace; no term is minted under this deployment's base.
    const used = new Set<string>();
    for (const q of allQuads) for (const t of [q.subject, q.predicate, q.object]) if (t.termType === "NamedNode" && t.value.startsWith(QG)) used.add(t.value);
    assert.ok(used.size >= 40, `the crawl used ${used.size} qg: terms`);
    assert.deepEqual(allQuads.filter((q) => [q.subject, q.predicate, q.object].some((t) => t.value.startsWith(`${base}/ontology#`))).map((q) => q.predicate.value), [], "nothing in <BASE>/ontology#");
    const ontology = await fetch(`${base}/ontology`, { headers: { Accept: "text/turtle" } });
    const defs = new Parser({ baseIRI: `${base}/ontology` }).parse(await ontology.text());
    assert.deepEqual(undefinedTerms(used, defs), [], "every qg: term used is defined, labelled and commented");
  });
});
