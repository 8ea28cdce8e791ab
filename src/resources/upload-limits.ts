/**
 * The limits of one upload (README "Upload limits"): rows, columns and the triples its dataset
 * would add to the store. Checked twice: in the POST request from a cheap scan of the bytes
 * (tabular/shape.ts: counts that can only be too high), before any task exists, and in the upload
 * job from the parsed file (jobs/dataset.ts), before any structure is parsed. Over a limit → 413
 * naming the count, the limit and the option that raises it. Pure: runs in workers too.
 */
import { PayloadTooLarge } from "../errors.ts";

export interface UploadLimits {
  /** Data rows (MAX_UPLOAD_ROWS). */
  readonly rows: number;
  /** Columns, the structure column included (MAX_UPLOAD_COLUMNS). */
  readonly columns: number;
  /** Triples of the dataset and its compounds' graphs (MAX_UPLOAD_TRIPLES). */
  readonly triples: number;
}

export interface UploadCounts {
  /** Data rows. */
  readonly rows: number;
  /** Columns of the header (one is the structure column; the others are the features). */
  readonly columns: number;
  /** Feature values present (non-missing cells); at most rows × (columns − 1). */
  readonly values: number;
  /** Distinct structure cells (each may become a compound graph); at most rows. */
  readonly structures: number;
}

/**
 * Triples an upload adds, from the dataset graph's shape (resources/dataset.ts):
 *
 *   T = 5·rows + 3·values + 4·structures + 12·features + 9
 *
 * A data entry is 4 triples (`ot:dataEntry`, `a ot:DataEntry`, `ot:compound`, `qg:line`) and its
 * line may be named once in a warning (duplicate structure, cell count), or its compound named
 * once from a name column (`rdfs:label`, tabular/names.ts): 5 per row; a value is 3
 * (`ot:values`, `ot:feature`, `ot:value`); a new compound's own graph is 4 (type, InChI, InChIKey,
 * SMILES); a feature about 12 (types, title, description, sources, column, index, a few accepted
 * values); the dataset node 9. Before parsing, the counts come from the bytes (tabular/shape.ts:
 * lines, non-empty cells) and every structure is taken as new: then T is an upper estimate
 * (known compounds and repeated structures make it smaller; only unusually long warnings, many
 * accepted values of a text column, or rows both named and in a warning can make the real count larger).
 */
export function uploadTriples(c: UploadCounts): number {
  const features = Math.max(0, c.columns - 1);
  return 5 * c.rows + 3 * c.values + 4 * c.structures + 12 * features + 9;
}

/** Counts before parsing, from a scan of the bytes: every row a new structure. */
export function estimatedCounts(shape: { readonly rows: number; readonly columns: number; readonly values: number }): UploadCounts {
  return { rows: shape.rows, columns: shape.columns, values: shape.values, structures: shape.rows };
}

/** The most values an upload within `limits` can have (3 triples each): a scan may stop past it. */
export function maxValues(limits: UploadLimits): number {
  return Math.ceil(limits.triples / 3);
}

const fmt = (n: number): string => n.toLocaleString("en");

/**
 * Throw 413 when the counts pass a limit: columns first, then rows, then triples. `stopped`: the
 * count at which counting stopped, once it passed its limit (the file has more than counted);
 * `estimated`: the counts come from the bytes, before parsing; `records`: the file is an SD file
 * (its rows are records, its columns the molfile and the distinct tags).
 */
export function checkUploadLimits(c: UploadCounts, limits: UploadLimits, o: { readonly stopped?: "columns" | "rows" | "values" | null; readonly estimated?: boolean; readonly records?: boolean } = {}): void {
  if (c.columns > limits.columns) {
    const count = o.stopped === "columns" ? `more than ${fmt(limits.columns)} columns` : `${fmt(c.columns)} columns`;
    const what = o.records ? " (the molfile and the distinct SD tags)" : "";
    throw new PayloadTooLarge(`the file has ${count}${what}; the limit is ${fmt(limits.columns)} (raise it with MAX_UPLOAD_COLUMNS or --max-upload-columns)`, { field: "file" });
  }
  if (c.rows > limits.rows) {
    const unit = o.records ? "records" : "data rows";
    const count = o.stopped === "rows" ? `more than ${fmt(limits.rows)} ${unit}` : `${fmt(c.rows)} ${unit}`;
    const how = o.estimated ? (o.records ? " (counted as '$$$$' lines)" : " (counted as non-empty lines after the header)") : "";
    throw new PayloadTooLarge(`the file has ${count}${how}; the limit is ${fmt(limits.rows)} rows (raise it with MAX_UPLOAD_ROWS or --max-upload-rows)`, { field: "file" });
  }
  const triples = uploadTriples(c);
  if (triples > limits.triples) {
    const partial = o.stopped === "values";
    const counted = `${fmt(c.rows)} rows, ${fmt(c.values)} values, ${fmt(c.structures)} distinct structures, ${fmt(Math.max(0, c.columns - 1))} features`;
    const how = o.estimated
      ? `${partial ? "more than" : "about"} ${fmt(triples)} triples (estimated as 5·rows + 3·values + 4·structures + 12·features + 9 from ${partial ? "the first " : ""}${fmt(c.rows)} rows with ${fmt(c.values)} values, every structure taken as new)`
      : `${fmt(triples)} triples (${counted}; 5·rows + 3·values + 4·structures + 12·features + 9)`;
    throw new PayloadTooLarge(`the dataset would add ${how} to the store; the limit is ${fmt(limits.triples)} triples (raise it with MAX_UPLOAD_TRIPLES or --max-upload-triples)`, { field: "file" });
  }
}
