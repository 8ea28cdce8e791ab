/**
 * Request parameters. Algorithm parameters come from the query string and the body (form,
 * multipart fields or a JSON object, as OpenTox clients send them: `curl -d dataset_uri=…`) and
 * are checked against the algorithm's spec by resources/params.ts.
 */
import type { Context } from "koa";
import { koaBody } from "koa-body";
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../errors.ts";
import { acceptFormFields, acceptFormToken, FORM_TOKEN_FIELD } from "./auth.ts";
import { readMultipart } from "./upload.ts";

/** Largest form or JSON body of parameters. */
const FORM_LIMIT_BYTES = 1024 * 1024;
/** Most fields a multipart form of parameters may have (an algorithm takes about ten). */
const MAX_FORM_FIELDS = 64;

/**
 * The raw parameters of a request: query string and body together, each name with every value
 * given. Bodies: application/x-www-form-urlencoded, multipart/form-data (fields; files are
 * refused), application/json (an object of strings, numbers or booleans), or none.
 * An empty value (after trimming) is no value: HTML forms send every field, filled in or not, and
 * an empty field means "not given" (the default applies).
 */
export async function readParams(ctx: Context): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const add = (name: string, value: unknown, where: string): void => {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new BadRequest(`parameter '${name}' in the ${where} must be a single text value`, { field: name });
    }
    if (String(value).trim() === "") return;
    out.set(name, [...(out.get(name) ?? []), String(value)]);
  };
  for (const [k, v] of new URLSearchParams(ctx.querystring)) add(k, v, "query string");
  const length = Number(ctx.get("Content-Length") || 0);
  if (length === 0 && !ctx.get("Transfer-Encoding")) return out;
  if (ctx.is("multipart")) {
    const form = await readMultipart(ctx, {
      what: `${ctx.method} ${ctx.path}`,
      maxFileBytes: 0,
      tooLarge: (declared) => new PayloadTooLarge(`the form${declared !== undefined ? ` of ${declared} bytes` : ""} exceeds the limit of ${FORM_LIMIT_BYTES} bytes for parameters`, { field: "body" }),
      maxFields: MAX_FORM_FIELDS,
      maxFieldBytes: FORM_LIMIT_BYTES,
    });
    // A form's API token (http/auth.ts) is checked before anything else; it is no parameter.
    acceptFormFields(ctx, form.fields);
    for (const [k, values] of form.fields) if (k !== FORM_TOKEN_FIELD) for (const v of values) add(k, v, "body");
    return out;
  }
  if (!ctx.is("urlencoded", "json")) {
    throw new UnsupportedMediaType(
      `parameters are sent as application/x-www-form-urlencoded, multipart/form-data or application/json; got '${ctx.request.type || "no Content-Type"}'`,
      { field: "Content-Type" },
    );
  }
  try {
    await koaBody({ multipart: false, urlencoded: true, json: true, text: false, formLimit: FORM_LIMIT_BYTES, jsonLimit: FORM_LIMIT_BYTES })(ctx, async () => undefined);
  } catch (err) {
    const e = err as { status?: unknown; message?: unknown };
    if (e.status === 413) throw new PayloadTooLarge(`the parameters' body exceeds the limit of ${FORM_LIMIT_BYTES} bytes`, { field: "body" });
    if (e.status === 400 && ctx.is("json")) throw new BadRequest(`the body is not a JSON object: ${String(e.message)}`, { field: "body" });
    throw err;
  }
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
