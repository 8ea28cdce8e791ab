/** HTML of an algorithm (its parameters from its AlgorithmSpec, and a form that runs it) and of the list of physico-chemical descriptors. */
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import { DESCRIPTORS } from "../../chem/descriptors/index.ts";
import { esc, link, page } from "./layout.ts";

export function algorithmHtml(spec: AlgorithmSpec, uri: string, base: string): string {
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

export function pcListHtml(base: string): string {
  const rows = DESCRIPTORS.map((d) => `<tr><td>${esc(d.id)}</td><td>${esc(d.title)}</td><td>${esc(d.pcType)}</td><td>${esc(d.lib)}</td><td class="mono">${esc(d.values.join(" "))}</td></tr>`).join("");
  return page(
    "Physico-chemical descriptors",
    `<p>Run them with ${link(`${base}/algorithm/pc/AllDescriptors`)} (a dataset), <code>POST /dataset/{id}/pc</code> or <code>POST /compound/{InChI}/pc</code>.</p><table><tr><th>descriptor</th><th>name</th><th>pc_type</th><th>lib</th><th>values</th></tr>${rows}</table>`,
    { base, self: `${base}/algorithm/pc`, formats: ["ttl", "uri"] },
  );
}
