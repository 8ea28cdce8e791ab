/**
 * Algorithm parameters as a request carries them: the query string and the body (form,
 * multipart fields or a JSON object, as OpenTox clients send them: `curl -d dataset_uri=…`).
 * They are checked against the algorithm's spec by resources/params.ts.
 */
import type { Context } from "koa";
import { koaBody } from "koa-body";
import { rm } from "node:fs/promises";
import { BadRequest, UnsupportedMediaType } from "../errors.ts";
import { acceptFormToken, FORM_TOKEN_FIELD } from "./auth.ts";

const FORM_LIMIT = "1mb";

/**
 * The raw parameters of a request: query string and body together, each name with every value
 * given. Bodies: application/x-www-form-urlencoded, multipart/form-data (fields; files are
 * refused), application/json (an object of strings, numbers or booleans), or none.
 */
export async function readParams(ctx: Context): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const add = (name: string, value: unknown, where: string): void => {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new BadRequest(`parameter '${name}' in the ${where} must be a single text value`, { field: name });
    }
    out.set(name, [...(out.get(name) ?? []), String(value)]);
  };
  for (const [k, v] of new URLSearchParams(ctx.querystring)) add(k, v, "query string");
  const length = Number(ctx.get("Content-Length") || 0);
  if (length === 0 && !ctx.get("Transfer-Encoding")) return out;
  if (!ctx.is("urlencoded", "multipart", "json")) {
    throw new UnsupportedMediaType(
      `parameters are sent as application/x-www-form-urlencoded, multipart/form-data or application/json; got '${ctx.request.type || "no Content-Type"}'`,
      { field: "Content-Type" },
    );
  }
  await koaBody({ multipart: true, urlencoded: true, json: true, formLimit: FORM_LIMIT, jsonLimit: FORM_LIMIT, formidable: { maxFileSize: 1 } })(ctx, async () => undefined);
  const files = ctx.request.files ?? {};
  const temporary = Object.values(files).flatMap((f) => (Array.isArray(f) ? f : [f]).map((x) => x.filepath));
  await Promise.all(temporary.map((p) => rm(p, { force: true })));
  if (temporary.length > 0) throw new BadRequest(`this algorithm takes no files; got the file field(s) ${Object.keys(files).map((n) => `'${n}'`).join(", ")}`, { field: Object.keys(files)[0]! });
  const body: unknown = ctx.request.body;
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    acceptFormToken(ctx, undefined);
    if (ctx.is("json")) throw new BadRequest("a JSON body must be an object of parameters", { field: "body" });
    return out;
  }
  // A form's API token (http/auth.ts) is checked before anything else; it is no parameter.
  acceptFormToken(ctx, (body as Record<string, unknown>)[FORM_TOKEN_FIELD]);
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (k === FORM_TOKEN_FIELD) continue;
    for (const x of Array.isArray(v) ? v : [v]) add(k, x, "body");
  }
  return out;
}

