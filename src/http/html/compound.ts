/** HTML of a compound: its depiction and identifiers. */
import type { CompoundView } from "../../resources/dataset-read.ts";
import { dl, esc, page } from "./layout.ts";

export function compoundHtml(c: CompoundView, base: string): string {
  const img = c.smiles ? `<p><img src="${esc(c.uri)}?format=svg" alt="${esc(c.smiles)}" width="300" height="200"></p>` : "";
  return page(`Compound ${c.smiles ?? c.inchikey}`, img + dl([
    ["URI", `<span class="mono">${esc(c.uri)}</span>`],
    ["SMILES", `<span class="mono">${esc(c.smiles ?? "(not known: the compound was given as an InChI)")}</span>`],
    ["InChI", `<span class="mono">${esc(c.inchi)}</span>`],
    ["InChIKey", `<span class="mono">${esc(c.inchikey)}</span>`],
  ]), { base, self: c.uri, formats: ["ttl", "json", "rdf", "smi", "inchi", "mol", "svg"] });
}
