/**
 * The feature-selection task (main thread): RFE's resamples, then the selected features as a
 * feature dataset.
 */
import { BadRequest } from "../../errors.ts";
import { RfeInputError } from "../../learn/rfe.ts";
import { type FeatureView } from "../../resources/dataset-read.ts";
import { featureDatasetNTriples, type ComputedFeature } from "../../resources/feature-dataset.ts";
import { int, NS, QG_NS, str } from "../../store/vocab.ts";
import { rfeOnResamples } from "./resamples.ts";
import type { Operation } from "../jobs.ts";
import type { RfeRequest } from "./spec.ts";

/** The feature's name in its URI (its last path segment, decoded). */
function nameOf(f: FeatureView): string {
  return decodeURIComponent(f.uri.slice(f.uri.lastIndexOf("/") + 1));
}

export function rfeOperation(request: RfeRequest, datasetUri: string, algorithm: string, base: string): Operation {
  return async (ctx) => {
    let result;
    try {
      result = await rfeOnResamples(request.columns, request.endpoint, { seed: request.seed, delMissing: request.delMissing, signal: ctx.signal, onProgress: (f: number) => ctx.progress(0.95 * f) }, (input) => ctx.run("rfe.resample", input));
    } catch (e) {
      if (e instanceof RfeInputError) throw new BadRequest(e.message, { field: "feature_dataset_uri" });
      throw e;
    }
    const kept = result.selected.map((j) => request.features[j]!);
    const features: ComputedFeature[] = kept.map((f, k) => ({
      name: nameOf(f),
      title: f.title,
      ...(f.description ? { description: f.description } : {}),
      numeric: true,
      types: f.types.filter((t) => t !== "NumericFeature").map((t) => `${NS.ot}${t}`),
      properties: [
        ...(f.properties.find(([l]) => l === "SMARTS") ? [[`${NS.ot}smarts`, str(f.properties.find(([l]) => l === "SMARTS")![1])] as const] : []),
        [`${QG_NS}rank`, int(k + 1)] as const,
      ],
    }));
    const entries = request.fdCompounds.map(({ compound, line }) => {
      const row = request.all.get(compound);
      return { line, compound, values: result.selected.map((j) => (row && Number.isFinite(row[j]!) ? String(row[j]) : null)) };
    });
    const ntriples = featureDatasetNTriples({ uri: datasetUri, base, title: request.title, created: new Date(), source: request.source, algorithm, parameters: request.parameters, features, entries, compounds: entries.length });
    return { ops: [{ graph: datasetUri, ntriples }], resultUri: datasetUri };
  };
}
