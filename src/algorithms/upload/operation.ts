/**
 * The upload operation (the CSV and SDF rules: README "Datasets"): CSV or SD file → prepared table (worker) →
 * structures parsed in parallel chunks on every worker, each chunk also writing the data entries
 * of its rows → header (dataset node, typed features, warnings; worker) → one commit of the
 * dataset graph, the new compound graphs and the task's completion.
 *
 * The dataset graph is loaded into the store (staged, not served) chunk by chunk while later
 * chunks are still being parsed, so that the commit at the end only writes the journal: on two
 * cores that takes MUV's upload from 35 s to under 30 s. The entries are written with the
 * features typed over every row; if the rows whose structures failed decided a column's type,
 * the final typing differs and the entries are built again (the rare slow path).
 * Progress: 0–10 % parsing the file, 10–90 % structures, 90–100 % header and commit.
 * The upload limits (resources/upload-limits.ts) were checked on the bytes before the task was
 * created; the parse checks them again with the real counts before any structure is parsed.
 */
import { concatBodies, type GraphOp } from "../../store/journal.ts";
import type { StoreBackend, StagedGraph } from "../../store/backend.ts";
import type { Operation } from "../jobs.ts";
import { cellCount, type EntryFeature } from "./job.ts";
import { headerNTriples, selectCompounds, spellingNTriples } from "../../resources/dataset.ts";
import { read } from "../../resources/reads.ts";
import { Uris } from "../../resources/uris.ts";
import type { UploadLimits } from "../../resources/upload-limits.ts";
import { Vocab } from "../../store/vocab.ts";
import type { UploadFormat } from "../../tabular/format.ts";
import { headerWhenAllParsedSteps } from "../../tabular/table.ts";
import { chunkedBody, runChunks } from "../chunks.ts";
import { slicer } from "../../threads/turns.ts";

export interface UploadInput {
  readonly bytes: Uint8Array;
  readonly fileName: string;
  /** CSV, or an SD file (its molblocks are the structure cells). */
  readonly format: UploadFormat;
  readonly datasetUri: string;
  readonly base: string;
  /** Checked again with the real counts once the file is parsed (413 before any structure is parsed). */
  readonly limits?: UploadLimits;
}

export function titleOf(fileName: string): string {
  return fileName.replace(/\.(csv|tsv|txt|sdf|sd|mol)$/i, "") || "dataset";
}

function sameFeatures(a: readonly EntryFeature[], b: readonly EntryFeature[]): boolean {
  return a.length === b.length && a.every((f, i) => f.name === b[i]!.name && f.column === b[i]!.column && f.numeric === b[i]!.numeric);
}

export function uploadOperation(store: StoreBackend, input: UploadInput): Operation {
  return async (ctx) => {
    const lap = timer(input.fileName);
    // Steps over every row or compound on this thread pause as they go (93,000 rows: 0.1–0.5 s each in one piece).
    const pause = slicer();
    const { format } = input;
    const prepared = await ctx.run("dataset.prepare", { bytes: input.bytes, format, ...(input.limits ? { limits: input.limits } : {}) });
    lap(format);
    ctx.progress(0.1);
    const title = titleOf(input.fileName);
    const meta = { uri: input.datasetUri, fileName: input.fileName, created: new Date(), base: input.base };
    const entryFeatures: EntryFeature[] = prepared.summary.features.map(({ name, column, numeric }) => ({ name, column, numeric }));
    const uris = new Uris(input.base);
    const vocab = new Vocab(input.base);
    const stage = store.stage(input.datasetUri);
    try {
      // Chunk k: the structure cells k·CHUNK… and the rows that use them (prepared.rows[k]).
      const chunks = prepared.rows.map((rows, k) => ({ rows, cells: prepared.cells[k]! }));
      const { outputs, loads } = await runChunks(
        chunks,
        (c) => cellCount(c.cells),
        (c, onProgress) => ctx.run("dataset.chunk", { cells: c.cells, rows: c.rows, features: entryFeatures, datasetUri: input.datasetUri, base: input.base }, onProgress),
        (f) => ctx.progress(0.1 + 0.8 * f),
        stage,
      );
      lap("structures");
      // When every structure parsed, the typing over all rows is final and the header is
      // quick to write here; otherwise the header job assembles the dataset from the file again.
      const results: (typeof outputs)[number]["results"][number][] = [];
      for (const o of outputs) {
        await pause();
        for (const r of o.results) results.push(r);
      }
      const known = await inSteps(headerWhenAllParsedSteps(prepared.summary, results, title), pause);
      let header: Uint8Array;
      let features: readonly EntryFeature[] = entryFeatures;
      if (known) header = headerNTriples(known, meta);
      else {
        const head = await ctx.run("dataset.header", { bytes: input.bytes, format, results, title, meta });
        header = head.header;
        features = head.features;
      }
      // Rows that spell their compound differently from the SMILES its graph keeps.
      const uriOf = (inchi: string): string => uris.compound(inchi);
      const rowsOf = function* (): Generator<{ line: number; compound: string; smiles: string | null }> {
        const { lines, structureOf } = prepared.summary;
        for (let i = 0; i < lines.length; i++) {
          const r = results[structureOf[i]!]!;
          if (r.ok) yield { line: lines[i]!, compound: uriOf(r.value.inchi), smiles: r.value.smiles };
        }
      };
      // The SMILES of the compounds the store has already, read at once.
      const candidates = new Set<string>();
      for (const r of rowsOf()) {
        await pause();
        if (r.smiles !== null) candidates.add(r.compound);
      }
      const stored = [...candidates].filter((c) => store.has(c));
      const storedSmiles = new Map((await read(store, vocab, "compounds", stored)).map((c, i) => [stored[i]!, c?.smiles]));
      const spellings = await spellingNTriples(input.datasetUri, input.base, rowsOf(), (c) => storedSmiles.get(c));
      header = Buffer.concat([header, spellings]);
      ctx.progress(0.95);
      lap("header");
      let body: Uint8Array;
      const preloaded: StagedGraph[] = [];
      if (sameFeatures(features, entryFeatures)) {
        body = await chunkedBody(header, outputs, loads, stage);
        preloaded.push(stage);
      } else {
        await stage.discard();
        const count = prepared.count > 20_000 ? 2 : 1;
        const parts = await Promise.all(Array.from({ length: count }, (_, index) => ctx.run("dataset.build", { bytes: input.bytes, format, results, title, meta, part: { index, count } })));
        body = await concatBodies([...parts.map((p) => p.datasetNTriples), spellings]);
        lap("rebuild (the skipped rows changed a column's type)");
      }
      lap("load");
      const ops: GraphOp[] = [{ graph: input.datasetUri, ntriples: body }];
      // A compound's graph comes from its first row; only new compounds get one.
      const seen = new Set<string>();
      const fresh = await selectCompounds(outputs.map((o) => o.compounds), (uri) => {
        if (seen.has(uri)) return false;
        seen.add(uri);
        return !store.has(uri);
      });
      if (fresh.graphs.length > 0) ops.push({ graphs: fresh.graphs, nquads: fresh.nquads });
      return { ops, resultUri: input.datasetUri, preloaded };
    } catch (err) {
      await stage.discard();
      throw err;
    }
  };
}

/** Run a generator of steps (tabular/table.ts `finish`) on this thread, pausing between steps. */
async function inSteps<T>(steps: Generator<void, T>, pause: () => Promise<void> | undefined): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await pause();
  }
}

/** With QSARGRAPH_TIMING=1, log how long each phase of an upload took (for bench/upload). */
function timer(label: string): (phase: string) => void {
  if (!process.env.QSARGRAPH_TIMING) return () => undefined;
  let t = performance.now();
  return (phase) => {
    const now = performance.now();
    console.log(`[timing] ${label} ${phase} ${Math.round(now - t)} ms`);
    t = now;
  };
}
