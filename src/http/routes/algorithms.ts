/**
 * /algorithm and /algorithm/{path} (DESIGN §3): GET describes an algorithm and its parameters
 * (ot:Algorithm, from its AlgorithmSpec; HTML with a form that runs it), POST runs it as a task.
 * OpenTox 1.1 paths (`/algorithm/fminer/bbrc`, …) answer as aliases of the same algorithm.
 */
import type Router from "@koa/router";
import { algorithmNTriples, type AlgorithmSpec } from "../../resources/algorithm.ts";
import { parseParams } from "../../resources/params.ts";
import { newId } from "../../resources/uris.ts";
import { MINERS, miningRequest, mineOperation } from "../../algorithms/mining/spec.ts";
import { ALL_DESCRIPTORS, datasetDescriptorRequest, descriptorOperation } from "../../algorithms/descriptors/spec.ts";
import { requireDataset } from "../../algorithms/checks.ts";
import { buildModelOperation, LAZAR, modelRequest } from "../../algorithms/lazar/spec.ts";
import { RFE, rfeOperation, rfeRequest } from "../../algorithms/rfe/spec.ts";
import { VERSION } from "../../version.ts";
import { DESCRIPTORS } from "../../chem/descriptors/index.ts";
import type { Params } from "../../resources/params.ts";
import type { TaskState } from "../../resources/task.ts";
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import { toNTriples } from "../../store/ntriples.ts";
import { dc, iri, ot, rdf, str } from "../../store/vocab.ts";
import type { Deps } from "../deps.ts";
import { esc, link, page } from "../html/layout.ts";
import { readParams } from "../params.ts";
import { collectionReps, rdfReps, respond, uriList } from "../respond.ts";
import { textSource } from "../render-rdf.ts";
import { respondTask } from "./tasks.ts";

function algorithmHtml(spec: AlgorithmSpec, uri: string, base: string): string {
  const rows = spec.parameters
    .map((p) => {
      const kind = p.kind.type === "enum" ? `one of ${p.kind.values.join(", ")}` : p.kind.type;
      return `<tr><td><code>${esc(p.name)}</code></td><td>${p.required ? "required" : "optional"}</td><td>${esc(kind)}</td><td>${esc(p.default ?? "")}</td><td>${esc(p.description)}</td></tr>`;
    })
    .join("");
  const fields = spec.parameters
    .map((p) => `<tr><th><label for="p-${esc(p.name)}">${esc(p.name)}</label></th><td><input id="p-${esc(p.name)}" name="${esc(p.name)}" size="60" placeholder="${esc(p.default ?? "")}"${p.required ? " required" : ""}></td></tr>`)
    .join("");
  const aliases = spec.aliases.length > 0 ? `<p>Also at ${spec.aliases.map((a) => link(`${base}/algorithm/${a}`)).join(", ")}.</p>` : "";
  return page(
    spec.title,
    `<p>${esc(spec.description)}</p>${aliases}
<h2>Parameters</h2><table><tr><th>name</th><th>scope</th><th>type</th><th>default</th><th>description</th></tr>${rows}</table>
<h2>Run</h2><form method="post" action="${esc(uri)}"><table>${fields}</table><p><button type="submit">Run ${esc(spec.title)}</button></p></form>`,
    { base, self: uri, formats: ["ttl", "json", "rdf"] },
  );
}

/** An algorithm the service runs: its spec and how a checked request becomes a task. */
interface Runnable {
  readonly spec: AlgorithmSpec;
  submit(params: Params, uri: string, raw: ReadonlyMap<string, readonly string[]>): Promise<TaskState>;
}

function pcListHtml(base: string): string {
  const rows = DESCRIPTORS.map((d) => `<tr><td>${esc(d.id)}</td><td>${esc(d.title)}</td><td>${esc(d.pcType)}</td><td>${esc(d.lib)}</td><td class="mono">${esc(d.values.join(" "))}</td></tr>`).join("");
  return page(
    "Physico-chemical descriptors",
    `<p>Run them with ${link(`${base}/algorithm/pc/AllDescriptors`)} (a dataset), <code>POST /dataset/{id}/pc</code> or <code>POST /compound/{InChI}/pc</code>.</p><table><tr><th>descriptor</th><th>name</th><th>pc_type</th><th>lib</th><th>values</th></tr>${rows}</table>`,
    { base, self: `${base}/algorithm/pc`, formats: ["ttl", "uri"] },
  );
}

/** GET /algorithm/pc as RDF: every descriptor with its pc_type, lib and value names. */
function pcListNTriples(algorithms: string, vocab: Deps["vocab"]): string {
  const q: Quad[] = [];
  for (const d of DESCRIPTORS) {
    const s = iri(`${algorithms}/pc/${encodeURIComponent(d.id)}`);
    q.push(quad(s, rdf.type, ot.Algorithm), quad(s, dc.title, str(d.title)), quad(s, vocab.qg.pcType, str(d.pcType)), quad(s, vocab.qg.lib, str(d.lib)));
    for (const v of d.values) q.push(quad(s, vocab.qg.valueName, str(v)));
  }
  return toNTriples(q);
}

const { quad } = DataFactory;

export function registerAlgorithms(router: Router, deps: Deps): void {
  const { store, vocab, uris, tasks } = deps;
  const uriOf = (spec: AlgorithmSpec): string => `${uris.algorithms()}/${spec.path}`;
  const runnables: Runnable[] = [
    ...MINERS.map((spec): Runnable => ({
      spec,
      async submit(params) {
        const request = await miningRequest(spec, params, store, uris, vocab);
        return tasks.submit(request.title, `${spec.title} mining`, mineOperation(store, request, uris.dataset(newId())));
      },
    })),
    {
      spec: ALL_DESCRIPTORS,
      async submit(params, uri) {
        const dataset = params.string("dataset_uri")!;
        requireDataset(dataset, "dataset_uri", store, uris);
        const request = await store.withRoom(() => datasetDescriptorRequest(dataset, params, uri, store, vocab));
        return tasks.submit(request.title, "descriptors", descriptorOperation(store, request, uris.dataset(newId()), vocab.base));
      },
    },
    {
      spec: RFE,
      async submit(params, uri) {
        const request = rfeRequest(params, store, uris, vocab);
        return tasks.submit(request.title, "feature selection", rfeOperation(request, uris.dataset(newId()), uri, vocab.base, deps.config.workers));
      },
    },
    {
      spec: LAZAR,
      async submit(params, _uri, raw) {
        const request = await store.withRoom(() => modelRequest(params, raw, store, uris, vocab));
        const model = `${uris.models()}/${newId()}`;
        return tasks.submit(request.title, "model building", buildModelOperation(store, request, model, () => uris.dataset(newId()), vocab.base, VERSION, vocab));
      },
    },
  ];

  router.get("/algorithm", async (ctx) => {
    const list = [...runnables.map((r) => uriOf(r.spec)), `${uris.algorithms()}/pc`];
    await respond(ctx, [
      ...collectionReps(uris.algorithms(), list, ot.Algorithm, deps),
      ["text/html", () => page("Algorithms", `<ul>${runnables.map((r) => `<li>${link(uriOf(r.spec), r.spec.title)}: ${esc(r.spec.description)}</li>`).join("")}<li>${link(`${uris.algorithms()}/pc`, "Physico-chemical descriptors")}: every descriptor with its pc_type, lib and value names</li></ul>`, { base: vocab.base })],
    ]);
  });

  router.get("/algorithm/pc", async (ctx) => {
    await respond(ctx, [
      ...rdfReps(() => textSource(pcListNTriples(uris.algorithms(), vocab)), deps),
      ["text/html", () => pcListHtml(vocab.base)],
      ["text/uri-list", () => uriList([uriOf(ALL_DESCRIPTORS), ...DESCRIPTORS.map((d) => `${uris.algorithms()}/pc/${encodeURIComponent(d.id)}`)])],
    ]);
  });

  for (const r of runnables) {
    const uri = uriOf(r.spec);
    for (const path of [r.spec.path, ...r.spec.aliases]) {
      router.get(`/algorithm/${path}`, async (ctx) => {
        await respond(ctx, [...rdfReps(() => textSource(algorithmNTriples(r.spec, uri, vocab)), deps), ["text/html", () => algorithmHtml(r.spec, uri, vocab.base)], ["text/uri-list", () => uriList([uri])]]);
      });
      router.post(`/algorithm/${path}`, async (ctx) => {
        const raw = await readParams(ctx);
        const t = await r.submit(parseParams(r.spec, raw), uri, raw);
        await respondTask(ctx, t, deps);
      });
    }
  }
}
