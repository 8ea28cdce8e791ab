/**
 * Recursive feature elimination over HTTP (README "Feature selection (RFE)"; lazar's service was
 * opentox/algorithm : fs.rb @ bc73e23, release/v3.2.0, caret's rfe with random-forest functions):
 * on EPAFHM (regression) with its CDK constitutional and topological descriptors, and on hamster
 * (classification) with its constitutional descriptors, a smaller feature set comes back, its
 * features keep their metadata, and the same seed returns the same set. Bad inputs → 400.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DATA, get, HAMSTER, MULTI, sparqlSelect, uploadDataset, postForm as post, runTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";



/** Feature titles and descriptions of a dataset. */
async function features(base: string, ds: string): Promise<Map<string, string>> {
  const q = `PREFIX ot: <http://www.opentox.org/api/1.1#> PREFIX dc: <http://purl.org/dc/elements/1.1/> SELECT ?t ?d WHERE { GRAPH <${ds}> { ?f a ot:Feature ; dc:title ?t . OPTIONAL { ?f dc:description ?d } } }`;
  const rows = await sparqlSelect(base, q);
  return new Map(rows.map((x) => [x.t!.value, x.d?.value ?? ""]));
}

describe("RFE over HTTP", () => {
  const srv = useServer();

  test("EPAFHM (regression) and hamster (classification): a smaller set with the input's metadata; the same seed, the same set", async () => {
    for (const [file, pc] of [["EPAFHM.medi_log10.csv", "constitutional,topological"], ["hamster_carcinogenicity.csv", "constitutional"]] as const) {
      const ds = await uploadDataset(srv.base, `${DATA}lazar/test/data/${file}`);
      const fd = await runTask(`${ds}/pc`, { pc_type: pc });
      const all = await features(srv.base, fd);
      const a = await runTask(`${srv.base}/algorithm/fs/rfe`, { dataset_uri: ds, feature_dataset_uri: fd, random_seed: "1" });
      const b = await runTask(`${srv.base}/algorithm/fs/rfe`, { dataset_uri: ds, feature_dataset_uri: fd, random_seed: "1" });
      const kept = await features(srv.base, a);
      assert.ok(kept.size > 0 && kept.size < all.size, `${file}: ${kept.size} of ${all.size} features kept`);
      for (const [title, description] of kept) assert.equal(description, all.get(title), `${title}: description copied`);
      assert.deepEqual([...(await features(srv.base, b)).keys()].sort(), [...kept.keys()].sort());
    }
  });

  test("bad inputs → 400 naming the problem", async () => {
    const hamster = await uploadDataset(srv.base, HAMSTER);
    const multi = await uploadDataset(srv.base, MULTI);
    const cases: [Record<string, string>, RegExp, string][] = [
      [{ dataset_uri: hamster }, /'feature_dataset_uri' is required/, "feature_dataset_uri"],
      [{ dataset_uri: hamster, feature_dataset_uri: hamster }, /has no numeric features/, "feature_dataset_uri"],
      [{ dataset_uri: multi, prediction_feature: `${multi}/feature/regression`, feature_dataset_uri: multi }, /needs at least 10/, "feature_dataset_uri"],
    ];
    for (const [params, message, field] of cases) {
      const r = await post(`${srv.base}/algorithm/fs/rfe`, params, "application/problem+json");
      assert.equal(r.status, 400, JSON.stringify(params));
      const p = (await r.json()) as { detail: string; field?: string };
      assert.match(p.detail, message);
      assert.equal(p.field, field);
    }
    const description = await (await get(`${srv.base}/algorithm/fs/rfe`, "application/n-triples")).text();
    assert.match(description, /"del_missing"/);
  });
});
