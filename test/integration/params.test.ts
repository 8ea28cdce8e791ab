/**
 * Bad parameters are a 400, never a 5xx (README "Errors"). The test walks every algorithm the
 * service lists (`GET /algorithm`, each described by its ot:Parameters) plus the cross-validation
 * and a dataset's descriptors, and posts each parameter
 *   - empty, as an HTML form sends a field left blank: a required one → 400 naming it as
 *     required; an optional one → its default applies (202, the task is then cancelled);
 *   - with nonsense values (a word, a URI the service does not have, a huge number): 400 naming
 *     the parameter.
 * The other required parameters carry valid values (hamster_carcinogenicity.csv, its endpoint,
 * its constitutional descriptors), so each answer is about the parameter under test.
 * Expectations come from HTML form submission (a field left blank is sent as an empty value:
 * WHATWG HTML, "Constructing the entry list"), the README's "Errors" table (a 400 names the
 * field) and the parameter kinds each algorithm publishes (ot:paramScope, qg:paramType), not
 * from the code.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { CROSSVALIDATION } from "../../src/algorithms/crossvalidation/spec.ts";
import { PC_OF_RESOURCE } from "../../src/algorithms/descriptors/spec.ts";
import { assertServesNormally, get, HAMSTER, runTask, storeSnapshot, uriList } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const OT = "http://www.opentox.org/api/1.1#";
const DC = "http://purl.org/dc/elements/1.1/";

interface Param {
  readonly name: string;
  readonly required: boolean;
  readonly type: string;
}

/** The parameters an algorithm publishes (its N-Triples: ot:parameters, dc:title, ot:paramScope, qg:paramType). */
async function published(uri: string, base: string): Promise<Param[]> {
  const nt = await (await get(uri, "application/n-triples")).text();
  const triples = nt.split("\n").map((l) => /^<([^>]+)> <([^>]+)> (.*) \.$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  const value = (s: string, p: string): string | undefined => {
    const o = triples.find((t) => t[1] === s && t[2] === p)?.[3];
    return o === undefined ? undefined : /^"(.*)"/.exec(o)?.[1] ?? o;
  };
  return triples
    .filter((t) => t[1] === uri && t[2] === `${OT}parameters`)
    .map((t) => t[3]!.slice(1, -1))
    .map((p) => ({ name: value(p, `${DC}title`)!, required: value(p, `${OT}paramScope`) === "mandatory", type: value(p, `${QG_NS}paramType`)! }));
}

const NONSENSE = ["nonsense", "http://nonsense.invalid/x", "99999999999999999999999"];

interface Problem {
  readonly status: number;
  readonly detail: string;
  readonly field?: string;
  readonly causes?: readonly { readonly field?: string }[];
}

describe("every parameter empty or nonsense: 400 naming it, or its default; never 5xx", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  let base: Record<string, string>;

  before(async () => {
    const ds = srv.datasets.hamster;
    const [feature] = await uriList(`${ds}/features`);
    const descriptors = await runTask(`${ds}/pc`, { pc_type: "constitutional", lib: "cdk" });
    base = { dataset_uri: ds, prediction_feature: feature!, feature_dataset_uri: descriptors, algorithm_uri: `${srv.base}/algorithm/qsar` };
  });

  /** POST the form; a 202's task is cancelled at once (the test is about the request). */
  async function post(url: string, form: Record<string, string>): Promise<{ status: number; problem?: Problem }> {
    const r = await fetch(url, { method: "POST", body: new URLSearchParams(form), headers: { Accept: "application/problem+json, text/uri-list;q=0.5" } });
    if (r.status === 202) {
      const task = r.headers.get("location")!;
      await r.arrayBuffer();
      await fetch(task, { method: "DELETE" });
      return { status: 202 };
    }
    return { status: r.status, problem: (await r.json()) as Problem };
  }

  const names = (p?: Problem): string[] => [p?.field, ...(p?.causes ?? []).map((c) => c.field)].filter((f): f is string => f !== undefined);

  /** Walk the parameters; returns what went wrong, one line per case (all cases are tried). */
  async function walk(url: string, params: readonly Param[]): Promise<string[]> {
    const wrong: string[] = [];
    const required = Object.fromEntries(params.filter((p) => p.required).map((p) => [p.name, base[p.name]!]));
    for (const p of params.filter((x) => x.required)) assert.ok(base[p.name], `a valid value for the required ${p.name}`);
    for (const p of params) {
      const empty = await post(url, { ...required, [p.name]: "" });
      const said = JSON.stringify(empty.problem);
      if (p.required) {
        if (empty.status !== 400 || !names(empty.problem).includes(p.name) || !/required/.test(empty.problem!.detail)) wrong.push(`${url} ${p.name}= (required): ${empty.status} ${said}`);
      } else if (empty.status !== 202) wrong.push(`${url} ${p.name}= (optional, the default applies): ${empty.status} ${said}`);
      for (const bad of NONSENSE) {
        const r = await post(url, { ...required, [p.name]: bad });
        const named = r.problem !== undefined && (names(r.problem).includes(p.name) || r.problem.detail.includes(p.name));
        if (r.status !== 400 || !named) wrong.push(`${url} ${p.name}=${bad}: ${r.status} ${JSON.stringify(r.problem)}`);
      }
    }
    return wrong;
  }

  test("GET /algorithm: each algorithm's published parameters", async () => {
    const before = await storeSnapshot(srv.base);
    const algorithms = await uriList(`${srv.base}/algorithm`);
    let walked = 0;
    const wrong: string[] = [];
    for (const a of algorithms) {
      const params = await published(a, srv.base);
      if (params.length === 0) continue; // a list (e.g. /algorithm/pc), not runnable
      wrong.push(...(await walk(a, params)));
      walked++;
    }
    assert.ok(walked >= 5, `${walked} algorithms walked`);
    assert.deepEqual(wrong, []);
    // Every task was cancelled: nothing was stored.
    assert.deepEqual((await storeSnapshot(srv.base)).datasets, before.datasets);
  });

  test("POST /validation/crossvalidation and POST /dataset/{id}/pc", async () => {
    const spec = (s: typeof CROSSVALIDATION): Param[] => s.parameters.map((p) => ({ name: p.name, required: p.required, type: p.kind.type }));
    const wrong = [...(await walk(`${srv.base}/validation/crossvalidation`, spec(CROSSVALIDATION))), ...(await walk(`${base.dataset_uri}/pc`, spec(PC_OF_RESOURCE)))];
    assert.deepEqual(wrong, []);
    await assertServesNormally(srv.base);
  });
});
