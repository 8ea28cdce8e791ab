/**
 * The start of one entry of a prediction dataset, shared by lazar's and the kernel model's
 * prediction jobs (docs/lazar-method.md "Model and prediction resources"):
 *
 *   <ds> ot:dataEntry <ds#e{line}> . <ds#e{line}> ot:compound <c> ; qg:line {line} .
 *
 * and `value(feature, object)`, which adds a value node <ds#e{line}v{k}> (ot:feature, ot:value).
 */
import { DataFactory } from "n3";
import type { NamedNode, Quad } from "@rdfjs/types";
import { int, iri, ot, type Vocab } from "../store/vocab.ts";

const { quad } = DataFactory;

export interface EntryWriter {
  readonly entry: NamedNode;
  value(feature: NamedNode, object: Quad["object"]): void;
}

export function startEntry(out: Quad[], datasetUri: string, query: { readonly line: number; readonly compound: string }, v: Vocab): EntryWriter {
  const e = iri(`${datasetUri}#e${query.line}`);
  out.push(quad(iri(datasetUri), ot.dataEntry, e), quad(e, ot.compound, iri(query.compound)), quad(e, v.qg.line, int(query.line)));
  let k = 0;
  return {
    entry: e,
    value(feature, object): void {
      const vn = iri(`${datasetUri}#e${query.line}v${k++}`);
      out.push(quad(e, ot.values, vn), quad(vn, ot.feature, feature), quad(vn, ot.value, object));
    },
  };
}
