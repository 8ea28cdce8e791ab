/**
 * /algorithm and /algorithm/{path} (DESIGN §3): GET describes an algorithm and its parameters
 * (ot:Algorithm, from its AlgorithmSpec; HTML with a form that runs it), POST runs it as a task.
 * OpenTox 1.1 paths (`/algorithm/fminer/bbrc`, …) answer as aliases of the same algorithm.
 */
import type Router from "@koa/router";
import { algorithmNTriples, type AlgorithmSpec } from "../../resources/algorithm.ts";
import { parseParams } from "../../resources/params.ts";
import { ALGORITHMS } from "../../algorithms/index.ts";
import { allDescriptors } from "../../algorithms/descriptors/index.ts";
import { DESCRIPTORS } from "../../chem/descriptors/index.ts";
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
  const { vocab, uris } = deps;
  const uriOf = (spec: AlgorithmSpec): string => `${uris.algorithms()}/${spec.path}`;
  router.get("/algorithm", async (ctx) => {
    const list = [...ALGORITHMS.map((r) => uriOf(r.spec)), `${uris.algorithms()}/pc`];
    await respond(ctx, [
      ...collectionReps(uris.algorithms(), list, ot.Algorithm, deps),
      ["text/html", () => page("Algorithms", `<ul>${ALGORITHMS.map((r) => `<li>${link(uriOf(r.spec), r.spec.title)}: ${esc(r.spec.description)}</li>`).join("")}<li>${link(`${uris.algorithms()}/pc`, "Physico-chemical descriptors")}: every descriptor with its pc_type, lib and value names</li></ul>`, { base: vocab.base })],
    ]);
  });

  router.get("/algorithm/pc", async (ctx) => {
    await respond(ctx, [
      ...rdfReps(() => textSource(pcListNTriples(uris.algorithms(), vocab)), deps),
      ["text/html", () => pcListHtml(vocab.base)],
      ["text/uri-list", () => uriList([uriOf(allDescriptors.spec), ...DESCRIPTORS.map((d) => `${uris.algorithms()}/pc/${encodeURIComponent(d.id)}`)])],
    ]);
  });

  for (const r of ALGORITHMS) {
    const uri = uriOf(r.spec);
    for (const path of [r.spec.path, ...r.spec.aliases]) {
      router.get(`/algorithm/${path}`, async (ctx) => {
        await respond(ctx, [...rdfReps(() => textSource(algorithmNTriples(r.spec, uri, vocab)), deps), ["text/html", () => algorithmHtml(r.spec, uri, vocab.base)], ["text/uri-list", () => uriList([uri])]]);
      });
      router.post(`/algorithm/${path}`, async (ctx) => {
        const raw = await readParams(ctx);
        const t = await r.submit(parseParams(r.spec, raw), raw, uri, deps);
        await respondTask(ctx, t, deps);
      });
    }
  }
}
