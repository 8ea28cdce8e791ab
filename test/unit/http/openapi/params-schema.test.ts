/**
 * The JSON Schemas of the algorithms' parameters (src/http/openapi/params-schema.ts) against the
 * check the service runs on a request (src/resources/params.ts `parseParams`): tried on the same
 * values, a value its schema accepts is never refused by the check, so a client that follows the
 * API description gets no 400 for the form of a value. The values are the edge cases of each
 * kind, written here (ranges' ends and one past them, the spellings of counts and shares, lists
 * with odd separators, URIs and non-URIs); JSON values go to the check as a JSON body sends them
 * (`String(v)`: http/request-params.ts). Each value also runs through Ajv 2020 (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1) in strict mode, so a schema with a keyword that is not
 * JSON Schema fails too.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { ALGORITHMS } from "../../../../src/algorithms/index.ts";
import { CROSSVALIDATION } from "../../../../src/algorithms/crossvalidation/spec.ts";
import { REPORT } from "../../../../src/algorithms/crossvalidation/report.ts";
import { PC_OF_RESOURCE } from "../../../../src/algorithms/descriptors/spec.ts";
import { PREDICT } from "../../../../src/algorithms/lazar/spec.ts";
import { FREQUENCY_PATTERN, paramSchema, paramsSchema } from "../../../../src/http/openapi/params-schema.ts";
import type { AlgorithmSpec, ParamSpec } from "../../../../src/resources/algorithm.ts";
import { parseParams } from "../../../../src/resources/params.ts";

const SPECS: readonly AlgorithmSpec[] = [...ALGORITHMS.map((a) => a.spec), PC_OF_RESOURCE, PREDICT, CROSSVALIDATION, REPORT];

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, formats: { uri: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/ } });

/** Does the check refuse `text` for `p` (a 400 naming it)? Other parameters may be missing: only p's own complaint counts. */
function refused(spec: AlgorithmSpec, p: ParamSpec, text: string): boolean {
  try {
    parseParams(spec, new Map([[p.name, [text]]]));
    return false;
  } catch (err) {
    const e = err as { status?: number; details?: { field?: string; causes?: readonly { details: { field?: string } }[] } };
    assert.equal(e.status, 400);
    const fields = [e.details?.field, ...(e.details?.causes ?? []).map((c) => c.details.field)];
    // A required parameter given empty is reported as missing, under its name too.
    return fields.includes(p.name);
  }
}

/** Edge values of every kind. */
function candidates(p: ParamSpec): unknown[] {
  const common: unknown[] = [
    "", " ", "x", "nonsense", true, false, "true", "false", "yes", "off", 0, 1, -1, 2, 0.5, 1.5, 1e-7, "1e-7", 100, 101, 1000, 2 ** 53, "5", "05", "0", "00", "+5", "5.5", "1e3",
    "99999999999999999999", "999999999999999", "9999999999999999",
    "5pm", "0pm", "0.5pm", ".5pm", "999.9pm", "1000pm", "1000.0pm", "1000.5pm", "1001pm", "0.0pm", "00.01pm",
    "2pc", "2.5pc", "100pc", "100.1pc", "101pc", "0pc", "0.05pc", "5pc ",
    "http://localhost/x", "https://a.b/c?d", "ftp://x/y", "http://a b", "http://",
  ];
  const k = p.kind;
  if (k.type === "integer" || k.type === "number") {
    for (const b of [k.min, k.max]) if (b !== undefined) common.push(b - 1, b, b + 1, String(b), String(b + 1), b + 0.5);
  }
  if (k.type === "enum" || k.type === "list") {
    common.push(...k.values, k.values.join(","), ` ${k.values[0]} `, `${k.values[0]},,${k.values.at(-1)}`, `${k.values[0]} ${k.values.at(-1)}`, `${k.values[0]},nonsense`, ",", ",,", `,${k.values[0]},`);
  }
  return common;
}

describe("parameter schemas against the service's check", () => {
  for (const spec of SPECS) {
    it(`${spec.title} (${spec.path}): every value its schema accepts, the check accepts; defaults fit their schemas`, () => {
      const wrong: string[] = [];
      for (const p of spec.parameters) {
        const validate = ajv.compile(paramSchema(p));
        for (const v of candidates(p)) {
          if (validate(v) && refused(spec, p, String(v))) wrong.push(`${p.name}: the schema accepts ${JSON.stringify(v)}, the check refuses it`);
        }
        const d = paramSchema(p).default;
        if (d !== undefined && !validate(d)) wrong.push(`${p.name}: the default ${JSON.stringify(d)} does not fit the schema`);
      }
      assert.deepEqual(wrong, []);
    });
  }

  it("the schemas are no looser than the check where a schema can say it: ranges, allowed values, lists, counts and shares", () => {
    // Values the check refuses and the schema must refuse as well (hand-picked for each kind).
    const bbrc = paramsSchema(SPECS.find((s) => s.path === "miner/bbrc")!) as { properties: Record<string, object> };
    const cases: [string, unknown][] = [
      ["min_frequency", "0"], ["min_frequency", "0pm"], ["min_frequency", "1001pm"], ["min_frequency", "101pc"], ["min_frequency", ".5pm"], ["min_frequency", "5.5"], ["min_frequency", 0], ["min_frequency", "99999999999999999999"],
      ["max_visited", 0], ["max_visited", 100_000_001], ["max_visited", 2.5], ["max_visited", "many"],
      ["feature_type", "tree"], ["backbone", "maybe"], ["min_chisq_significance", 1.01], ["min_chisq_significance", -0.1],
      ["dataset_uri", "ftp://x/y"], ["dataset_uri", "not a uri"], ["unknown_parameter", "1"],
    ];
    for (const [name, value] of cases) {
      const ok = ajv.validate(bbrc, { [name]: value, dataset_uri: name === "dataset_uri" ? value : "http://localhost/dataset/x" });
      assert.equal(ok, false, `${name}=${JSON.stringify(value)} passes the schema`);
    }
    const pcType = paramSchema(PC_OF_RESOURCE.parameters.find((p) => p.name === "pc_type")!);
    for (const v of ["", ",", "constitutional topological", "constitutional,nonsense", "Constitutional"]) assert.equal(ajv.validate(pcType, v), false, `pc_type=${JSON.stringify(v)} passes`);
    for (const v of ["constitutional", " constitutional , topological ", "constitutional,,hybrid", ",cpsa,"]) assert.equal(ajv.validate(pcType, v), true, `pc_type=${JSON.stringify(v)} fails`);
  });

  it("the minimum-support pattern takes what the README documents: a count, <n>pc, <n>pm", () => {
    // README "Algorithms and substructure mining": "a count, <n>pc or <n>pm of the training rows";
    // defaults 5pm (BBRC) and 80pm (LAST-PM), and the example min_frequency=8pm.
    const re = new RegExp(FREQUENCY_PATTERN);
    for (const v of ["2", "8", "5pm", "80pm", "8pm", "2pc", "0.5pc", "100pc", "1000pm"]) assert.ok(re.test(v), v);
    for (const v of ["", "pm", "5 pm", "5%", "-2", "2pcs", "1e3"]) assert.ok(!re.test(v), v);
  });

  it("a request body: the spec's parameters and the form's api_token, nothing else; the required ones required", () => {
    const rfe = paramsSchema(SPECS.find((s) => s.path === "fs/rfe")!) as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    // README "Feature selection (RFE)": dataset_uri, prediction_feature, feature_dataset_uri, del_missing, random_seed.
    assert.deepEqual(Object.keys(rfe.properties), ["dataset_uri", "prediction_feature", "feature_dataset_uri", "del_missing", "random_seed", "api_token"]);
    assert.deepEqual(rfe.required, ["dataset_uri", "feature_dataset_uri"]);
    assert.equal(rfe.additionalProperties, false);
    const report = paramsSchema(REPORT);
    assert.equal(ajv.validate(report, { validation_uris: "  " }), false, "a required text of spaces is missing");
    assert.equal(ajv.validate(report, { validation_uris: "http://localhost/validation/crossvalidation/x" }), true);
  });
});
