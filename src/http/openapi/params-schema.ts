/**
 * An algorithm's parameters (its AlgorithmSpec, resources/algorithm.ts) as a JSON Schema
 * (2020-12, the dialect of OpenAPI 3.1): the schema of the request bodies that run it. The spec
 * is the one the service checks requests with (resources/params.ts), so names, kinds, ranges,
 * allowed values, defaults and which parameters are required come from the same place.
 *
 * The schemas say what a client should send; the service is a little more lenient: a form value
 * is trimmed, an empty value means "not given", booleans may also be 1/0, yes/no, on/off, and a
 * JSON body may give numbers for text. A value a schema accepts is always one the check accepts
 * (test/unit/http/openapi/params-schema.test.ts tries both on the same values); what the check then looks up in
 * the store (does the dataset exist, is the feature one of it) no schema can say.
 */
import type { AlgorithmSpec, ParamKind, ParamSpec } from "../../resources/algorithm.ts";
import { FORM_TOKEN_FIELD } from "../auth.ts";

/** A JSON Schema object (as much of it as the document uses). */
export type JsonSchema = { readonly [key: string]: unknown };

/** Any of `values`, as an alternation for a regular expression. */
function alternation(values: readonly string[]): string {
  return `(?:${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`;
}

/**
 * A minimum support as resources/params.ts reads it: a whole count from 1 (at most 15 digits,
 * within a safe integer), or a share more than 0 and at most 100 pc / 1000 pm.
 */
export const FREQUENCY_PATTERN =
  "^(?:0*[1-9]\\d{0,14}" +
  "|(?:0*[1-9]\\d{0,2}(?:\\.\\d+)?|0+\\.\\d*[1-9]\\d*|0*1000(?:\\.0+)?)pm" +
  "|(?:0*[1-9]\\d?(?:\\.\\d+)?|0+\\.\\d*[1-9]\\d*|0*100(?:\\.0+)?)pc)$";

/** A URI as the check takes it (http or https, no spaces). */
const URI_PATTERN = "^https?://\\S+$";

function kindSchema(kind: ParamKind): Record<string, unknown> {
  switch (kind.type) {
    case "dataset":
    case "feature":
      return { type: "string", format: "uri", pattern: URI_PATTERN };
    case "boolean":
      return { type: "boolean" };
    case "integer":
    case "number":
      return { type: kind.type, ...(kind.min !== undefined ? { minimum: kind.min } : {}), ...(kind.max !== undefined ? { maximum: kind.max } : {}) };
    case "enum":
      return { type: "string", enum: [...kind.values] };
    case "text":
      return { type: "string" };
    case "list": {
      // One or more of the values, separated by commas (spaces and empty items between them are ignored).
      const v = alternation(kind.values);
      return { type: "string", pattern: `^[\\s,]*${v}(?:[\\s,]*,[\\s,]*${v})*[\\s,]*$` };
    }
    case "frequency":
      return { type: ["string", "integer"], pattern: FREQUENCY_PATTERN, minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
  }
}

/** A default as the spec writes it, typed as the schema's values are. */
function typedDefault(p: ParamSpec): unknown {
  const d = p.default!;
  switch (p.kind.type) {
    case "boolean":
      return d === "true";
    case "integer":
    case "number":
      return Number(d);
    default:
      return d;
  }
}

/** What a kind's description adds to the parameter's own. */
function kindNote(kind: ParamKind): string {
  switch (kind.type) {
    case "boolean":
      return " (true or false; 1/0, yes/no and on/off are read too)";
    case "list":
      return ` (comma-separated: one or more of ${kind.values.join(", ")})`;
    case "frequency":
      return " (a count such as 5, or a share such as 2pc or 5pm)";
    default:
      return "";
  }
}

/** One parameter's schema. */
export function paramSchema(p: ParamSpec): JsonSchema {
  const s: Record<string, unknown> = { ...kindSchema(p.kind), description: `${p.description}${kindNote(p.kind)}` };
  // A required parameter given empty is missing (400): at least one character that is not a space.
  if (p.required && s.type === "string" && s.pattern === undefined) s.pattern = "\\S";
  if (p.default !== undefined) s.default = typedDefault(p);
  return s;
}

/** The property of every request body that carries an HTML form's API token (http/auth.ts). */
export const FORM_TOKEN_PROPERTY: JsonSchema = {
  type: "string",
  writeOnly: true,
  description: `the API token of an HTML form, which cannot send headers (README "Access control"); other clients send 'Authorization: Bearer <token>'. Never a parameter of the algorithm.`,
};

/**
 * The request body of a POST that runs `spec`: an object of its parameters (nothing else: an
 * unknown name is a 400), the required ones required.
 */
export function paramsSchema(spec: AlgorithmSpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const p of spec.parameters) properties[p.name] = paramSchema(p);
  properties[FORM_TOKEN_FIELD] = FORM_TOKEN_PROPERTY;
  const required = spec.parameters.filter((p) => p.required).map((p) => p.name);
  return {
    type: "object",
    title: spec.title,
    description: spec.description,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
