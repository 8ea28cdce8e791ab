/**
 * /algorithm and /algorithm/{path} (docs/opentox-api.md "Algorithms"): GET describes an algorithm
 * and its parameters (ot:Algorithm, from its AlgorithmSpec; HTML with a form that runs it), POST
 * runs it as a task. OpenTox 1.1 paths (`/algorithm/fminer/bbrc`, …) answer as aliases of the same
 * algorithm.
 */
import type Router from "@koa/router";
import { algorithmNTriples, type AlgorithmSpec } from "../../resources/algorithm.ts";
import { parseParams } from "../../resources/params.ts";
import { ALGORITHMS } from "../../algorithms/index.ts";
import { allDescriptors } from "../../algorithms/descriptors/index.ts";
import { DESCRIPTORS } from "../../chem/descriptors/index.ts";
import { ot } from "../../store/vocab.ts";
import type { Deps } from "../deps.ts";
import { esc, link, page } from "../html/layout.ts";
import { readParams } from "../request-params.ts";
import { collectionReps, rdfReps, respond, uriList } from "../respond.ts";
import { textSource } from "../render-rdf.ts";
import { respondTask } from "./tasks.ts";
import { algorithmHtml, FORM_DATASETS, FORM_FEATURES, pcListHtml, prefillOf, type FormContext, type UriChoice } from "../html/algorithm.ts";
import { read } from "../../resources/reads.ts";
import { isId } from "../../resources/uris.ts";
import type { Context } from "koa";
import { descriptorNTriples, descriptorUri, pcListNTriples } from "../../resources/algorithm.ts";
import { NotFound } from "../../errors.ts";

/**
 * What a form of the pages offers and is filled with (html/algorithm.ts): the newest datasets with
 * the features of the uploaded ones (one named read), the URIs some parameters choose from, and
 * the values of the page's query string.
 */
export async function readFormContext(ctx: Context, deps: Deps): Promise<FormContext> {
  const { store, vocab, uris } = deps;
  const prefix = `${uris.datasets()}/`;
  const all = store.graphsWithPrefix(prefix).filter((g) => isId(g.slice(prefix.length)));
  const datasets = await read(store, vocab, "datasetChoices", all, FORM_DATASETS, FORM_FEATURES);
  const alg = uris.algorithms();
  const generators: UriChoice[] = [
    { uri: `${alg}/miner/bbrc`, label: "BBRC substructures (lazar's default)" },
    { uri: `${alg}/miner/last`, label: "LAST-PM latent structures" },
    { uri: `${alg}/pc/AllDescriptors`, label: "physico-chemical descriptors" },
  ];
  const modelBuilders: UriChoice[] = [
    { uri: `${alg}/qsar`, label: "qsar: the default model (kernel SVM), or lazar with lazar's parameters" },
    { uri: `${alg}/lazar`, label: "lazar (the same algorithm under its OpenTox name)" },
  ];
  const query = { ...ctx.query };
  delete query.format;
  return { datasets, uriChoices: { feature_generation_uri: generators, algorithm_uri: modelBuilders }, prefill: prefillOf(query) };
}

export function registerAlgorithms(router: Router, deps: Deps): void {
  const { vocab, uris } = deps;
  const uriOf = (spec: AlgorithmSpec): string => `${uris.algorithms()}/${spec.path}`;
  router.get("/algorithm", async (ctx) => {
    const list = [...ALGORITHMS.map((r) => uriOf(r.spec)), `${uris.algorithms()}/pc`];
    await respond(ctx, [
      ...collectionReps(uris.algorithms(), list, ot.Algorithm, deps),
      ["text/html", () => page("Algorithms", `<ul>${ALGORITHMS.map((r) => `<li>${link(uriOf(r.spec), r.spec.title)}: ${esc(r.spec.description)}</li>`).join("")}<li>${link(`${uris.algorithms()}/pc`, "Physico-chemical descriptors")}: every descriptor with its pc_type, lib and value names</li></ul>`, { base: vocab.base, self: uris.algorithms() })],
    ]);
  });

  router.get("/algorithm/pc", async (ctx) => {
    await respond(ctx, [
      ...rdfReps(() => textSource(pcListNTriples(uris.algorithms(), vocab)), deps),
      ["text/html", () => pcListHtml(vocab.base)],
      ["text/uri-list", () => uriList([uriOf(allDescriptors.spec), ...DESCRIPTORS.map((d) => descriptorUri(uris.algorithms(), d.id))])],
    ]);
  });

  for (const r of ALGORITHMS) {
    const uri = uriOf(r.spec);
    for (const path of [r.spec.path, ...r.spec.aliases]) {
      const alias = path !== r.spec.path;
      router.get(`/algorithm/${path}`, async (ctx) => {
        // An OpenTox 1.1 alias serves the algorithm's own description: say which IRI it is
        // (RFC 9110 §8.7; a redirect would break clients that GET the alias they then POST to).
        if (alias) ctx.set("Content-Location", uri);
        await respond(ctx, [...rdfReps(() => textSource(algorithmNTriples(r.spec, uri, vocab)), deps), ["text/html", async () => algorithmHtml(r.spec, uri, vocab.base, await readFormContext(ctx, deps))], ["text/uri-list", () => uriList([uri])]]);
      });
      router.post(`/algorithm/${path}`, async (ctx) => {
        const raw = await readParams(ctx);
        const t = await r.submit(parseParams(r.spec, raw), raw, uri, deps);
        await respondTask(ctx, t, deps);
      });
    }
  }

  // One descriptor of /algorithm/pc (registered after /algorithm/pc/AllDescriptors, which wins).
  router.get("/algorithm/pc/:name", async (ctx) => {
    const name = String(ctx.params.name);
    const self = descriptorUri(uris.algorithms(), name);
    const nt = descriptorNTriples(uris.algorithms(), name, vocab);
    const d = DESCRIPTORS.find((x) => x.id === name);
    if (nt === null || !d) throw new NotFound(`no descriptor ${self}: ${uris.algorithms()}/pc lists them`);
    await respond(ctx, [
      ...rdfReps(() => textSource(nt), deps),
      ["text/html", () => page(d.title, `<p>${esc(d.title)}: pc_type ${esc(d.pcType)}, lib ${esc(d.lib)}; values <span class="mono">${esc(d.values.join(" "))}</span>. One of the ${link(`${uris.algorithms()}/pc`, "physico-chemical descriptors")}; computed with ${link(`${uris.algorithms()}/pc/AllDescriptors`)} (choose it by its pc_type and lib).</p>`, { base: vocab.base, self, formats: ["ttl", "uri"] })],
      ["text/uri-list", () => uriList([self])],
    ]);
  });
}
