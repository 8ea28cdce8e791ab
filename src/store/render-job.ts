/**
 * Worker-side job of the render pool (http/render-rdf.ts): one RDF representation of a graph,
 * serialised off the main thread. The graph comes as N-Triples text, as the range of a journal
 * or snapshot file that holds its current body (GraphStore.storedBody; read here, so the main
 * thread never touches the bytes), or as a collection (its members, typed).
 */
import { closeSync, openSync, readSync } from "node:fs";
import { DataFactory } from "n3";
import { toNTriples } from "./ntriples.ts";
import { ntriplesSlices, serialiseRdf, type RdfType } from "./rdf-formats.ts";
import type { BodyLocation } from "./journal.ts";
import { iri, rdf, rdfs, Vocab } from "./vocab.ts";

/** A collection `<uri> rdfs:member <m>` with each member typed `memberType`, and the collection typed qg:Collection. */
export interface CollectionSource {
  readonly uri: string;
  readonly members: readonly string[];
  readonly memberType: string;
}

export type GraphSource = { readonly ntriples: string } | { readonly file: BodyLocation } | { readonly collection: CollectionSource };

export interface RenderInput {
  readonly source: GraphSource;
  readonly type: RdfType;
  readonly base: string;
}

/** Members written per batch of a collection's N-Triples. */
const MEMBERS_PER_BATCH = 5000;

function readRange(at: BodyLocation): Buffer {
  const buf = Buffer.allocUnsafe(at.length);
  const fd = openSync(at.path, "r");
  try {
    for (let got = 0; got < at.length; ) {
      const n = readSync(fd, buf, got, at.length - got, at.offset + got);
      if (n === 0) throw new Error(`${at.path} ends before byte ${at.offset + at.length}`);
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return buf;
}

function* collectionNTriples(c: CollectionSource, v: Vocab): Generator<string> {
  const { quad } = DataFactory;
  const s = iri(c.uri);
  yield toNTriples([quad(s, rdf.type, v.qg.Collection)]);
  for (let i = 0; i < c.members.length; i += MEMBERS_PER_BATCH) {
    yield toNTriples(c.members.slice(i, i + MEMBERS_PER_BATCH).flatMap((m) => [quad(s, rdfs.member, iri(m)), quad(iri(m), rdf.type, iri(c.memberType))]));
  }
}

/** The N-Triples of a source, in slices of whole lines. */
export function sourceSlices(source: GraphSource, v: Vocab): Iterable<string | Uint8Array> {
  if ("ntriples" in source) return ntriplesSlices(source.ntriples);
  if ("file" in source) return ntriplesSlices(readRange(source.file));
  return collectionNTriples(source.collection, v);
}

export async function renderJob(input: RenderInput): Promise<{ body: Uint8Array }> {
  const v = new Vocab(input.base);
  // TextEncoder's array owns its whole buffer, so the worker transfers it instead of copying it.
  return { body: new TextEncoder().encode(await serialiseRdf(sourceSlices(input.source, v), input.type, v)) };
}
