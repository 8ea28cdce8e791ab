/**
 * Two independent RDF parsers agree on what the service serves (issue 18 "Done when": the
 * vocabulary passes an independent RDF parser). On a populated service (hamster_carcinogenicity.csv
 * uploaded, a lazar model built from it), the ontology, the service description at `/`, the VoID
 * document, the SPARQL service description, a dataset, a model, a compound and a task are fetched
 * in Turtle, N-Triples and RDF/XML, and each answer is given to rapper (Raptor 2, Debian
 * raptor2-utils, a C parser written independently of the service's Oxigraph and of n3). rapper
 * must exit 0 with nothing on stderr, and the triples it reads from each of the three answers
 * must be the very triples n3's parser reads from the Turtle answer (compared as sorted lines,
 * blank nodes unlabelled; n3 cannot read RDF/XML, so rapper's reading of it is held against n3's
 * reading of the Turtle). The vocabulary file itself, ontology/qsargraph.ttl, is checked the
 * same way. A prediction, the model's feature dataset and a 2-fold cross-validation are read too,
 * and every term of the service's namespace (the `qg` prefix of /ontology/context.jsonld) that
 * any of these graphs uses is defined in the served ontology with a type, a label and a comment.
 *
 * Input: fixtures/data hamster_carcinogenicity.csv (SOURCES.md); lazar with BBRC min_frequency 8 as
 * in crawl.test.ts.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Parser, type Quad } from "n3";
import { compoundUri, HAMSTER, postForm, ROOT, runTask, waitForTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { RAPPER_SYNTAX, ensureRapper, runRapper } from "../helpers/rapper.ts";
import { canonical, undefinedTerms } from "../helpers/rdf.ts";

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const OWL_ONTOLOGY = "http://www.w3.org/2002/07/owl#Ontology";
const OT = "http://www.opentox.org/api/1.1#";

/** A graph as sorted lines, one a triple (a repeated triple counts once, as in an RDF graph). */
function lines(quads: readonly Quad[]): string[] {
  return [...new Set(quads.map(canonical))].sort();
}

/** Where two sorted graphs differ (the first few lines each way), or "". */
function difference(a: readonly string[], b: readonly string[]): string {
  const sa = new Set(a);
  const sb = new Set(b);
  const onlyA = a.filter((l) => !sb.has(l));
  const onlyB = b.filter((l) => !sa.has(l));
  return onlyA.length + onlyB.length === 0 ? "" : `only rapper (${onlyA.length}): ${onlyA.slice(0, 5).join("\n")}\nonly n3 (${onlyB.length}): ${onlyB.slice(0, 5).join("\n")}`;
}

async function rapperLines(syntax: string, base: string, input: { file: string } | { text: string }, what: string): Promise<string[]> {
  const r = await runRapper(syntax, base, input);
  assert.equal(r.code, 0, `rapper -i ${syntax} failed on ${what}: ${r.stderr}`);
  assert.equal(r.stderr, "", `rapper -i ${syntax} complained about ${what}`);
  return lines(new Parser({ format: "N-Triples" }).parse(r.ntriples));
}

describe("rapper and n3 read the same triples from every kind of resource, in Turtle, N-Triples and RDF/XML", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  const targets: { name: string; url: string }[] = [];

  before(async () => {
    ensureRapper();
    const base = srv.base;
    const r = await postForm(`${base}/algorithm/lazar`, { dataset_uri: srv.datasets.hamster, min_frequency: "8" });
    assert.equal(r.status, 202, await r.clone().text());
    const task = (await r.text()).trim();
    const done = await waitForTask(task, 600_000);
    assert.equal(done.status, 200, done.body);
    const model = done.body;
    const p = await postForm(model, { compound_uri: await compoundUri(base, "c1ccccc1NN") });
    assert.equal(p.status, 201, await p.clone().text());
    const modelNt = await (await fetch(model, { headers: { Accept: "application/n-triples" } })).text();
    const featureDataset = new Parser({ format: "N-Triples" }).parse(modelNt).find((q) => q.predicate.value === `${OT}featureDataset`)?.object.value;
    assert.ok(featureDataset, "the lazar model names its feature dataset");
    const cv = await runTask(`${base}/validation/crossvalidation`, { algorithm_uri: `${base}/algorithm/lazar`, dataset_uri: srv.datasets.hamster, num_folds: "2", algorithm_params: "min_frequency=8" });
    targets.push(
      { name: "ontology", url: `${base}/ontology` },
      { name: "service", url: `${base}/` },
      { name: "VoID", url: `${base}/.well-known/void` },
      { name: "SPARQL service description", url: `${base}/sparql` },
      { name: "dataset", url: srv.datasets.hamster },
      { name: "model", url: model },
      { name: "prediction", url: (await p.text()).trim() },
      { name: "feature dataset", url: featureDataset },
      { name: "cross-validation", url: cv },
      { name: "compound", url: await compoundUri(base, "c1ccccc1NN") },
      { name: "task", url: task },
    );
  });

  test("each answer parses in rapper without a message, to the triples n3 reads from the Turtle", { timeout: 300_000 }, async () => {
    const counts: string[] = [];
    const graphs = new Map<string, Quad[]>();
    for (const { name, url } of targets) {
      let reference: string[] | undefined;
      for (const [type, syntax] of Object.entries(RAPPER_SYNTAX)) {
        const res = await fetch(url, { headers: { Accept: type } });
        const body = await res.text();
        assert.equal(res.status, 200, `${name} as ${type}: ${body.slice(0, 300)}`);
        assert.equal(res.redirected, false, `${name}: the resource itself, not another`);
        assert.equal(res.headers.get("content-type")?.split(";")[0], type, `${name} as ${type}`);
        if (type === "text/turtle") {
          const quads = new Parser({ format: "Turtle", baseIRI: url }).parse(body);
          graphs.set(name, quads);
          reference = lines(quads);
          assert.ok(reference.length >= 3, `${name}: ${reference.length} triples`);
        }
        if (type === "application/n-triples") {
          // n3 reads the N-Triples answer to the same graph as the Turtle one
          assert.equal(difference(lines(new Parser({ format: "N-Triples" }).parse(body)), reference!), "", `${name}: n3 on N-Triples vs Turtle`);
        }
        const got = await rapperLines(syntax, url, { text: body }, `${name} (${type})`);
        assert.equal(got.length, reference!.length, `${name} as ${type}: rapper ${got.length} triples, n3 ${reference!.length}\n${difference(got, reference!)}`);
        assert.equal(difference(got, reference!), "", `${name} as ${type}`);
      }
      counts.push(`${name} ${reference!.length}`);
    }
    console.log(`triples per resource: ${counts.join(", ")}`);

    // every qg: term these graphs use is defined in the served ontology
    const context = (await (await fetch(`${srv.base}/ontology/context.jsonld`, { headers: { Accept: "application/ld+json" } })).json()) as { "@context": Record<string, string> };
    const qg = context["@context"].qg!;
    assert.match(qg, /#$/);
    const ontology = graphs.get("ontology")!;
    const used = new Set<string>();
    for (const [name, quads] of graphs) {
      if (name === "ontology") continue;
      for (const q of quads) for (const t of [q.predicate, q.object]) if (t.termType === "NamedNode" && t.value.startsWith(qg)) used.add(t.value);
    }
    assert.deepEqual(undefinedTerms(used, ontology), [], "qg: terms used but not defined, labelled and commented in /ontology");
    // not vacuous: the statistics a cross-validation writes are among them
    assert.ok(used.has(`${qg}accuracy`) && used.has(`${qg}numberOfCompounds`), `${used.size} qg: terms used`);
    console.log(`${used.size} qg: terms used, each defined`);
  });
});

test("ontology/qsargraph.ttl: rapper reads the triples n3 reads, with one owl:Ontology", async () => {
  const file = `${ROOT}ontology/qsargraph.ttl`;
  const base = "http://127.0.0.1:8080/ontology";
  const n3 = new Parser({ baseIRI: base }).parse(readFileSync(file, "utf8"));
  const reference = lines(n3);
  const got = await rapperLines("turtle", base, { file }, "ontology/qsargraph.ttl");
  assert.equal(got.length, reference.length, difference(got, reference));
  assert.equal(difference(got, reference), "");
  // not vacuous: the file's definitions are there (the term lines give over 500 triples)
  assert.ok(reference.length > 500, `${reference.length} triples`);
  assert.equal(n3.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === OWL_ONTOLOGY).length, 1);
});
