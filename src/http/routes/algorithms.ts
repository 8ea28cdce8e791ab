/**
 * /algorithm and /algorithm/{path} (DESIGN §3): GET describes an algorithm and its parameters
 * (ot:Algorithm, from its AlgorithmSpec; HTML with a form that runs it), POST runs it as a task.
 * OpenTox 1.1 paths (`/algorithm/fminer/bbrc`, …) answer as aliases of the same algorithm.
 */
import type Router from "@koa/router";
import { algorithmNTriples, type AlgorithmSpec } from "../../resources/algorithm.ts";
import { parseParams } from "../../resources/params.ts";
import { newId } from "../../resources/uris.ts";
import { MINERS, miningRequest, mineOperation } from "../../tasks/mine.ts";
import { ot } from "../../store/vocab.ts";
import type { Deps } from "../deps.ts";
import { esc, link, page } from "../html/layout.ts";
import { readParams } from "../params.ts";
import { collectionReps, rdfReps, respond, uriList } from "../respond.ts";
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

export function registerAlgorithms(router: Router, deps: Deps): void {
  const { store, vocab, uris, tasks } = deps;
  const all = [...MINERS];
  const uriOf = (spec: AlgorithmSpec): string => `${uris.algorithms()}/${spec.path}`;

  router.get("/algorithm", async (ctx) => {
    const list = all.map(uriOf);
    await respond(ctx, [
      ...collectionReps(uris.algorithms(), list, ot.Algorithm, vocab),
      ["text/html", () => page("Algorithms", `<ul>${all.map((s) => `<li>${link(uriOf(s), s.title)}: ${esc(s.description)}</li>`).join("")}</ul>`, { base: vocab.base })],
    ]);
  });

  for (const spec of all) {
    const uri = uriOf(spec);
    for (const path of [spec.path, ...spec.aliases]) {
      router.get(`/algorithm/${path}`, async (ctx) => {
        await respond(ctx, [...rdfReps(() => algorithmNTriples(spec, uri, vocab), vocab), ["text/html", () => algorithmHtml(spec, uri, vocab.base)], ["text/uri-list", () => uriList([uri])]]);
      });
      router.post(`/algorithm/${path}`, async (ctx) => {
        const params = parseParams(spec, await readParams(ctx));
        const request = miningRequest(spec, params, store, uris, vocab);
        const result = uris.dataset(newId());
        const t = await tasks.submit(request.title, `${spec.title} mining`, mineOperation(request, result));
        await respondTask(ctx, t, deps);
      });
    }
  }
}
