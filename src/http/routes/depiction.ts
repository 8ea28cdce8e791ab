/**
 * GET /depiction?smiles=… : the drawing of a structure that is not (yet) a compound of the
 * service — what the predict box shows while a person types (html/scripts/depict-live.ts). The
 * text is measured before the toolkit sees it (the SMILES and InChI limits, chem/limits.ts), read
 * and drawn in the request-time chem pool (`chem.depict`; an InChI is read by `chem.identify`
 * first), never on the main thread. A text that is no structure answers 422 with a short
 * message; nothing is stored. With `highlight` (a SMARTS, measured first), the atoms and bonds
 * of its first match are highlighted (`chem.highlight`, chem/depict-highlight.ts): the prediction
 * page draws a lazar model's fragments found in the query so.
 */
import type Router from "@koa/router";
import { LIMITS } from "../../chem/limits.ts";
import { DEPICTION_SIZE } from "../../chem/structure.ts";
import { measureSmarts } from "../../chem/depict-highlight.ts";
import { BadRequest, PayloadTooLarge, UnprocessableEntity } from "../../errors.ts";
import type { Deps } from "../deps.ts";
import { intParam } from "../paging.ts";
import { requestJob } from "../request-job.ts";
import { respond } from "../respond.ts";

export function registerDepiction(router: Router, deps: Deps): void {
  router.get("/depiction", async (ctx) => {
    const raw = ctx.query.smiles;
    if (Array.isArray(raw)) throw new BadRequest("give the parameter 'smiles' once", { field: "smiles" });
    const text = (raw ?? "").trim();
    if (text === "") throw new BadRequest("parameter 'smiles' is required: the SMILES (or standard InChI) to draw", { field: "smiles" });
    const inchi = /^inchi=/i.test(text);
    const max = inchi ? LIMITS.inchiChars : LIMITS.smilesChars;
    if (text.length > max) throw new PayloadTooLarge(`the ${inchi ? "InChI" : "SMILES"} has ${text.length} characters; at most ${max} are drawn`, { field: "smiles" });
    const width = intParam(ctx.query, "width", DEPICTION_SIZE.min, DEPICTION_SIZE.max, 300, " (pixels)");
    const height = intParam(ctx.query, "height", DEPICTION_SIZE.min, DEPICTION_SIZE.max, 200, " (pixels)");
    const h = ctx.query.highlight;
    if (Array.isArray(h)) throw new BadRequest("give the parameter 'highlight' once", { field: "highlight" });
    const highlight = h === undefined || h.trim() === "" ? undefined : h.trim();
    if (highlight !== undefined) {
      const refused = measureSmarts(highlight);
      if (refused !== null) throw new BadRequest(`parameter 'highlight': ${refused}`, { field: "highlight" });
    }
    await respond(ctx, [["image/svg+xml", async () => {
      let smiles = text;
      if (inchi) {
        const r = await requestJob(deps, "chem.identify", { cell: text });
        if (!r.ok || r.value.smiles === null) throw new UnprocessableEntity(`not a structure: ${r.ok ? "the InChI could not be decoded to a structure" : r.error}`, { field: "smiles" });
        smiles = r.value.smiles;
      }
      const svg = highlight === undefined ? await requestJob(deps, "chem.depict", { smiles, width, height }) : ((await requestJob(deps, "chem.highlight", { smiles, smarts: highlight, width, height }))?.svg ?? null);
      if (svg === null) throw new UnprocessableEntity("not a structure: the SMILES could not be read", { field: "smiles" });
      // The same text is always drawn the same way.
      ctx.set("Cache-Control", "public, max-age=86400");
      return svg;
    }]]);
  });
}
