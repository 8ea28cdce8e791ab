/**
 * What a mined substructure says, in words, for the pages (docs/miners.md "What the pages say").
 * The stored RDF stays as lazar wrote it: `ot:pValue` is the χ² distribution function at fminer's
 * statistic (1 − p, a weight that grows with significance; Kuiper's 1 − Q in regression) and
 * `ot:effect` a class number (1 + the index of the class among the endpoint's accept values in
 * their sorted order) or activating/deactivating. Here they become the p-value proper, from the
 * stored statistic (`qg:statistic`) with the miner's degrees of freedom (BBRC: 1, as fminer;
 * LAST-PM: k − 1, as liblast), the class's name, and a sentence:
 *
 *   more frequent in compounds with Hamster Carcinogenicity = true (p = 2.1e−3, χ² test,
 *   12 of 85 compounds contain it)
 *
 * The endpoint (title, classes, how many training values per class) is read from the source
 * dataset the miner ran on (the feature dataset's `prediction_feature` parameter).
 */
import * as ox from "oxigraph";
import { chiSquareSurvival } from "../mining/chisq.ts";
import { dc, ot, rdf, type Vocab } from "../store/vocab.ts";
import { sortAcceptValues } from "../tabular/typing.ts";

/** A substructure feature's stored facts (dataset-read.ts reads them with the feature). */
export interface SubstructureFacts {
  readonly smarts: string;
  /** The miner, from the feature's creator (`…/algorithm/miner/bbrc`), if it is one of the two. */
  readonly miner?: "bbrc" | "last";
  /** `ot:pValue` as stored. */
  readonly storedPValue?: number;
  /** `qg:statistic`: fminer's χ², or Kuiper's p (regression). */
  readonly statistic?: number;
  /** `qg:support`: training instances containing the pattern. */
  readonly support?: number;
  /** `ot:effect` as stored: a class number, or activating/deactivating. */
  readonly effect?: string;
  /** `qg:classCount`: instances containing the pattern, per class name. */
  readonly classCounts: readonly (readonly [string, number])[];
}

/** The endpoint a feature dataset was mined for, as the miner saw it. */
export interface MinedEndpoint {
  readonly uri: string;
  readonly title: string;
  /** Classes in the miner's order (class number i + 1 = classes[i]); empty for a numeric endpoint. */
  readonly classes: readonly string[];
  /** Values per class (in `classes` order); for a numeric endpoint, one: all values. */
  readonly sizes: readonly number[];
  /** Training instances: values of the endpoint in all. */
  readonly instances: number;
}

export interface FragmentExplanation {
  /** The p-value proper (null when it cannot be told from what is stored). */
  readonly p: number | null;
  /** `p` as shown: "2.1e−3", or "< 1.1e−16" where the stored value no longer resolves it. */
  readonly pText: string;
  readonly test: "χ² test" | "Kuiper test";
  readonly df?: number;
  /** The class the pattern is more frequent in (classification). */
  readonly effectClass?: string;
  /** Regression: do compounds with the pattern have lower or higher values. */
  readonly direction?: "lower" | "higher";
  /** The sentence (no final full stop). */
  readonly sentence: string;
  /** What the stored `ot:pValue` and `ot:effect` are, in words. */
  readonly storedPValue: string;
  readonly storedEffect: string;
}

/** A p-value in scientific notation with 2 significant digits and a true minus sign: 2.1e−3. */
export function formatP(p: number): string {
  return p.toExponential(1).replace("e+", "e").replace("e-", "e\u2212");
}

function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** The facts from a feature's properties (predicate IRI → values), or undefined when it has no SMARTS. */
export function substructureFacts(props: ReadonlyMap<string, readonly string[]>, v: Vocab, creator: string | undefined): SubstructureFacts | undefined {
  const smarts = props.get(ot.smarts.value)?.[0];
  if (smarts === undefined) return undefined;
  const miner = creator?.endsWith("/miner/bbrc") ? "bbrc" : creator?.endsWith("/miner/last") ? "last" : undefined;
  const counts = (props.get(v.qg.classCount.value) ?? [])
    .map((s): [string, number] => {
      const eq = s.lastIndexOf("=");
      return [s.slice(0, eq), Number(s.slice(eq + 1))];
    })
    .filter(([, n]) => Number.isFinite(n))
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const stored = num(props.get(ot.pValue.value)?.[0]);
  const statistic = num(props.get(v.qg.statistic.value)?.[0]);
  const support = num(props.get(v.qg.support.value)?.[0]);
  const effect = props.get(ot.effect.value)?.[0];
  return {
    smarts,
    ...(miner ? { miner } : {}),
    ...(stored !== undefined ? { storedPValue: stored } : {}),
    ...(statistic !== undefined ? { statistic } : {}),
    ...(support !== undefined ? { support } : {}),
    ...(effect !== undefined ? { effect } : {}),
    classCounts: counts,
  };
}

/** The value of a run's parameter `name` (its dataset's ot:parameters). */
function parameter(store: ox.Store, datasetUri: string, name: string): string | undefined {
  const rows = store.query(
    `SELECT ?v WHERE { GRAPH <${datasetUri}> { <${datasetUri}> <${ot.parameters.value}> ?p . ?p <${dc.title.value}> ${JSON.stringify(name)} ; <${ot.paramValue.value}> ?v } } LIMIT 1`,
  ) as Map<string, ox.Term>[];
  return rows[0]?.get("v")?.value;
}

/**
 * The endpoint a mined feature dataset was computed for: its `prediction_feature` in its source
 * dataset, that feature's classes in the miner's order (its accept values sorted as
 * tabular/typing.ts sorts them, as the feature view the miner read them from) and how many
 * values of each the source holds. Null when the dataset names none (not a miner's result) or
 * the source no longer has it.
 */
export function readMinedEndpoint(store: ox.Store, datasetUri: string, _v: Vocab): MinedEndpoint | null {
  const source = store.match(ox.namedNode(datasetUri), ox.namedNode(ot.hasSource.value), null, ox.namedNode(datasetUri))[0]?.object.value;
  const feature = parameter(store, datasetUri, "prediction_feature");
  if (source === undefined || feature === undefined || !/^https?:\/\//.test(feature) || !/^https?:\/\//.test(source)) return null;
  const g = ox.namedNode(source);
  const f = ox.namedNode(feature);
  const objects = (p: string): string[] => store.match(f, ox.namedNode(p), null, g).map((q) => q.object.value);
  const types = objects(rdf.type.value);
  if (!types.includes(ot.Feature.value)) return null;
  const nominal = types.includes(ot.NominalFeature.value);
  const rows = store.query(`SELECT ?val (COUNT(*) AS ?n) WHERE { GRAPH <${source}> { ?x <${ot.feature.value}> <${feature}> ; <${ot.value.value}> ?val } } GROUP BY ?val`) as Map<string, ox.Term>[];
  const counts = new Map(rows.map((r) => [r.get("val")?.value ?? "", Number(r.get("n")?.value ?? 0)]));
  const classes = nominal ? sortAcceptValues(objects(ot.acceptValue.value), types.includes(ot.NumericFeature.value)) : [];
  const sizes = nominal ? classes.map((c) => counts.get(c) ?? 0) : [[...counts.values()].reduce((a, b) => a + b, 0)];
  return { uri: feature, title: objects(dc.title.value)[0] || feature, classes, sizes, instances: sizes.reduce((a, b) => a + b, 0) };
}

/** The explanation of one substructure (see the module comment); `endpoint` null: said without it. */
export function explainSubstructure(s: SubstructureFacts, endpoint: MinedEndpoint | null): FragmentExplanation {
  const regression = s.effect === "activating" || s.effect === "deactivating" || (endpoint !== null && endpoint.classes.length === 0);
  const name = endpoint?.title ?? "the endpoint";
  const contain = s.support === undefined ? "" : endpoint ? `${s.support} of ${endpoint.instances} compounds contain it` : `${s.support} compound${s.support === 1 ? " contains" : "s contain"} it`;
  if (regression) {
    // Kuiper's p as fminer reports it is 1 − Q (larger = more significant): the p-value is Q.
    const p = s.storedPValue !== undefined ? 1 - s.storedPValue : null;
    const pText = p === null ? "unknown" : p <= 0 ? "< 1.1e\u221216" : formatP(p);
    const direction = s.effect === "activating" ? "lower" : s.effect === "deactivating" ? "higher" : undefined;
    const what = direction ? `compounds that contain it have ${direction} values of ${name} than the training data as a whole (median)` : `its compounds' values of ${name} differ from the training data's`;
    return {
      p,
      pText,
      test: "Kuiper test",
      ...(direction ? { direction } : {}),
      sentence: `${what} (p = ${pText}, Kuiper test${contain ? `, ${contain}` : ""})`,
      storedPValue: `${s.storedPValue ?? "–"}: fminer's Kuiper score 1 − p, which grows with significance (lazar's weight of the pattern)`,
      storedEffect: `${s.effect ?? "–"}: lazar's word; ${direction === "lower" ? "the median of the compounds with the pattern is at most the median of all" : direction === "higher" ? "the median of the compounds with the pattern is above the median of all" : "no direction stored"}`,
    };
  }
  const k = endpoint?.classes.length || s.classCounts.length;
  const df = s.miner === "last" ? Math.max(1, k - 1) : 1;
  const p = s.statistic !== undefined ? chiSquareSurvival(s.statistic, df) : s.storedPValue !== undefined ? 1 - s.storedPValue : null;
  const pText = p === null ? "unknown" : formatP(p);
  const index = s.effect !== undefined && /^\d+$/.test(s.effect) ? Number(s.effect) : undefined;
  const classes = endpoint?.classes ?? s.classCounts.map(([c]) => c);
  const effectClass = index !== undefined && index >= 1 ? classes[index - 1] : undefined;
  const what = effectClass !== undefined ? `more frequent in compounds with ${name} = ${effectClass}` : "not more frequent in any class than in the training data";
  return {
    p,
    pText,
    test: "χ² test",
    df,
    ...(effectClass !== undefined ? { effectClass } : {}),
    sentence: `${what} (p = ${pText}, χ² test${contain ? `, ${contain}` : ""})`,
    storedPValue: `${s.storedPValue ?? "–"}: the χ² distribution function at fminer's statistic ${s.statistic ?? "–"} with ${df} degree${df === 1 ? "" : "s"} of freedom, i.e. 1 − p, as lazar stores it (a weight that grows with significance)`,
    storedEffect: `${s.effect ?? "–"}: ${effectClass !== undefined ? `class ${index} of ${classes.join(", ")}, i.e. ${effectClass}: the class whose share among the compounds with the pattern most exceeds its share of the training data` : "no class"}`,
  };
}
