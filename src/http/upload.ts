/**
 * Request intake of files and forms: the CSV or SD file of `POST /dataset` (a multipart part
 * `file`, or a raw `text/csv` or `chemical/x-mdl-sdfile` body) and the multipart forms of algorithm parameters (http/request-params.ts).
 *
 * - Multipart bodies are parsed by formidable (through koa-body) with limits that fit what the
 *   routes take: at most one file part, and only under the expected name; a few small text
 *   fields. Each limit has its own answer: too many parts or files → 400 naming them; a file over
 *   the upload size → 413 naming the limit and its option; text fields over their size → 413.
 * - A multipart body must declare its Content-Length (411 otherwise), and one larger than the
 *   limits allow is refused (413) before a byte is parsed: Node then delivers at most that many
 *   bytes, so nothing a library keeps (part headers included) can grow past it.
 * - The file part is collected in memory (formidable's `fileWriteStreamHandler`), never written
 *   to a temporary file: nothing is left on disk on any path, success or failure. The whole file
 *   is needed in memory anyway (the upload job reads it), and the limits bound it.
 * - The file name comes from the Content-Disposition (the part's, or the request's for a raw
 *   body; `?filename=` wins) parsed by the `content-disposition` package: quoted-string escapes
 *   (`filename="a \"b\".csv"`), RFC 8187 `filename*`, raw UTF-8, and a browser's `%22` for `"`.
 * - The file's format comes from its first bytes, its name and its media type
 *   (tabular/format.ts): CSV, SDF, or another format, refused with 415 naming the supported ones.
 * - The file's shape is checked against the upload limits (resources/upload-limits.ts) before the
 *   request creates a task: a cheap scan of the bytes (tabular/shape.ts; an SD file's records and
 *   tags are counted there too, no molblock is read).
 */
import { nextTurn } from "../threads/turns.ts";
import { acceptFormFields, FORM_TOKEN_FIELD } from "./auth.ts";
import type { Context } from "koa";
import { koaBody } from "koa-body";
import contentDisposition from "content-disposition";
import { Writable } from "node:stream";
import type { Config } from "../config.ts";
import { BadRequest, LengthRequired, PayloadTooLarge, UnsupportedMediaType } from "../errors.ts";
import { checkUploadLimits, estimatedCounts, maxValues, type UploadLimits } from "../resources/upload-limits.ts";
import { scanSdShape, scanShape } from "../tabular/shape.ts";
import { detectFormat, SDF_TYPES, SUPPORTED_FORMATS, type UploadFormat } from "../tabular/format.ts";
import { readBytes } from "./body.ts";

export interface UploadedFile {
  readonly bytes: Buffer;
  readonly fileName: string;
  /** The part's Content-Type (multipart), when it has one. */
  readonly type?: string;
}

export interface MultipartLimits {
  /** What takes the form, for messages (e.g. "POST /dataset"). */
  readonly what: string;
  /** The name of the one file part accepted; without it, no file part is. */
  readonly fileField?: string;
  /** Largest file, in bytes. */
  readonly maxFileBytes: number;
  /** The 413 of a file over `maxFileBytes` (or of a body whose declared size cannot hold one). */
  readonly tooLarge: (declared?: number) => PayloadTooLarge;
  /** Text fields at most. */
  readonly maxFields: number;
  /** Bytes of all text fields together at most. */
  readonly maxFieldBytes: number;
}

export interface MultipartBody {
  readonly fields: ReadonlyMap<string, readonly string[]>;
  readonly file?: UploadedFile;
}

/** Part headers and boundaries around the fields and the file: a generous allowance. */
const FRAMING_BYTES = 64 * 1024;
/** What formidable's `filter` sees of a part (its part headers are there too, untyped). */
interface Part {
  readonly name: string | null;
  originalFilename: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/** File names longer than this are refused (a file system's limit). */
const MAX_FILE_NAME = 255;

/** formidable's error codes (formidable/src/FormidableError.js) that have their own answer. */
const FORMIDABLE = { aborted: 1002, maxFieldsSize: 1006, maxFields: 1007, totalFileSize: 1009, malformed: 1012, noBoundary: 1013, transferEncoding: 1014, maxFiles: 1015, fileSize: 1016 } as const;

const quoted = (names: readonly string[]): string => {
  const shown = names.slice(0, 5).map((n) => `'${n}'`).join(", ");
  return names.length > 5 ? `${shown}, … (${names.length} in all)` : shown;
};

/**
 * Parse a multipart/form-data body within `o`'s limits. Text fields come back by name; the file
 * part named `o.fileField` (at most one) with its bytes and file name.
 */
export async function readMultipart(ctx: Context, o: MultipartLimits): Promise<MultipartBody> {
  const length = ctx.get("Content-Length");
  if (length === "") {
    ctx.req.resume();
    throw new LengthRequired(`a multipart body needs a Content-Length${o.fileField ? " (or send the CSV itself as a text/csv body, which may be chunked)" : ""}`, { field: "Content-Length" });
  }
  const declared = Number(length);
  if (!Number.isSafeInteger(declared) || declared < 0) throw new BadRequest(`malformed Content-Length '${length}'`, { field: "Content-Length" });
  if (declared > o.maxFileBytes + o.maxFieldBytes + FRAMING_BYTES) {
    ctx.req.resume();
    throw o.tooLarge(declared);
  }
  // The file part is copied into one buffer as it arrives (bounded by the declared length; its
  // memory is committed page by page): joining 200 MiB of chunks at the end held the event loop
  // for ≈190 ms (copy and page faults, measured). Only the first file part gets it.
  let target: { readonly file: object; readonly bytes: Buffer; size: number } | undefined;
  const refused: string[] = [];
  const options = {
    maxFiles: 1,
    maxFileSize: o.maxFileBytes,
    maxTotalFileSize: o.maxFileBytes,
    allowEmptyFiles: true,
    minFileSize: 0,
    maxFields: o.maxFields,
    maxFieldsSize: o.maxFieldBytes,
    // Called for each file part before anything is kept: other names are refused (after the
    // parse, naming them all), and the file name is read properly from the part's header.
    filter: (part: Part): boolean => {
      if (o.fileField === undefined || part.name !== o.fileField) {
        refused.push(part.name ?? "(no name)");
        return false;
      }
      const header = part.headers?.["content-disposition"];
      const name = header === undefined ? undefined : partFileName(header);
      if (name !== undefined) part.originalFilename = name;
      return true;
    },
    fileWriteStreamHandler: (file?: object): Writable => {
      const mine = target === undefined && file !== undefined ? (target = { file, bytes: Buffer.allocUnsafe(Math.min(declared, o.maxFileBytes)), size: 0 }) : undefined;
      return new Writable({
        write(chunk: Buffer, _encoding, done): void {
          if (!mine) return done(); // a second file part: refused (maxFiles), its bytes dropped
          if (mine.size + chunk.length > mine.bytes.length) return done(o.tooLarge());
          chunk.copy(mine.bytes, mine.size);
          mine.size += chunk.length;
          done();
        },
      });
    },
  };
  try {
    await koaBody({ multipart: true, urlencoded: false, json: false, text: false, formidable: options })(ctx, async () => undefined);
  } catch (err) {
    throw multipartError(err, o);
  }
  const f = o.fileField === undefined ? undefined : ctx.request.files?.[o.fileField];
  const file = Array.isArray(f) ? f[0] : f;
  if (refused.length > 0) {
    const parts = `the file part${refused.length > 1 ? "s" : ""} ${quoted(refused)}`;
    if (!o.fileField) throw new BadRequest(`${o.what} takes no files; the form has ${parts}`, { field: refused[0]! });
    if (!file) throw new BadRequest(`expected the CSV in the multipart field '${o.fileField}'; got ${parts}`, { field: o.fileField });
    throw new BadRequest(`${o.what} takes one file, in the part '${o.fileField}'; the form also has ${parts}`, { field: refused[0]! });
  }
  const fields = new Map<string, string[]>();
  for (const [name, value] of Object.entries((ctx.request.body ?? {}) as Record<string, unknown>)) {
    fields.set(name, (Array.isArray(value) ? value : [value]).map(String));
  }
  if (!file) return { fields };
  const bytes = target?.file === file ? target.bytes.subarray(0, target.size) : Buffer.alloc(0);
  return { fields, file: { bytes, fileName: file.originalFilename ?? "", ...(file.mimetype ? { type: file.mimetype } : {}) } };
}

function multipartError(err: unknown, o: MultipartLimits): Error {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  const message = typeof e.message === "string" ? e.message : String(err);
  switch (e.code) {
    case FORMIDABLE.maxFiles:
      return new BadRequest(`the form has more than one file part '${o.fileField}'; ${o.what} takes one file`, { field: o.fileField ?? "file" });
    case FORMIDABLE.maxFields:
      return new BadRequest(`the form has more than ${o.maxFields} text fields; ${o.what} takes ${o.fileField ? `the file in the part '${o.fileField}' and ` : ""}at most ${o.maxFields} fields`, { field: "body" });
    case FORMIDABLE.maxFieldsSize:
      return new PayloadTooLarge(`the form's text fields exceed ${o.maxFieldBytes} bytes together${o.fileField ? ` (a part '${o.fileField}' without a Content-Type is read as a text field: send it as a file)` : ""}`, { field: "body" });
    case FORMIDABLE.fileSize:
    case FORMIDABLE.totalFileSize:
      return o.tooLarge();
    case FORMIDABLE.aborted:
      return new BadRequest("the request body was cut short", { field: "body" });
    case FORMIDABLE.malformed:
    case FORMIDABLE.noBoundary:
    case FORMIDABLE.transferEncoding:
      return new BadRequest(`malformed multipart body: ${message}`, { field: "body" });
    default:
      return err instanceof BadRequest || err instanceof PayloadTooLarge ? err : new BadRequest(`the multipart body could not be read: ${message}`, { field: "body" });
  }
}

/**
 * The `filename` of a Content-Disposition value (RFC 6266, RFC 7578), or undefined when it has
 * none. A value the package cannot parse is a TypeError. Header text arrives as one character per
 * byte (latin1): a raw UTF-8 name is decoded as UTF-8 when it is valid UTF-8; `filename*` (RFC
 * 8187) is decoded by the package.
 */
export function dispositionFileName(latin1: string): string | undefined {
  const name = contentDisposition.parse(latin1).parameters.filename;
  if (name === undefined || /filename\*/i.test(latin1)) return name;
  const utf8 = Buffer.from(name, "latin1").toString("utf8");
  return utf8.includes("\uFFFD") ? name : utf8;
}

/** A multipart part's file name (formidable decoded its header as UTF-8); undefined if unparseable. */
function partFileName(header: string): string | undefined {
  try {
    // Browsers write `"` in a file name as %22 (HTML, multipart/form-data encoding algorithm).
    return dispositionFileName(Buffer.from(header, "utf8").toString("latin1"))?.replace(/%22/g, '"');
  } catch {
    return undefined; // formidable's own reading stands
  }
}

/** The limits of one upload, from the configuration. */
export function uploadLimits(config: Config): UploadLimits {
  return { rows: config.maxUploadRows, columns: config.maxUploadColumns, triples: config.maxUploadTriples };
}

const CSV_TYPES = ["text/csv", "text/plain", "text/tab-separated-values", "application/csv", "application/vnd.ms-excel"];
/** The media types of a raw upload body: CSV, and SD files. */
const BODY_TYPES = [...CSV_TYPES, ...SDF_TYPES];

/** At most this many text fields may come with the file (none is used). */
const UPLOAD_FIELDS = 8;

/**
 * The file of a `POST /dataset`, read and checked before any task exists: size (413), form (400,
 * 411, 415), file name (400), format (415), and the upload limits on the scanned shape (413).
 */
export async function readUpload(ctx: Context, config: Config): Promise<UploadedFile & { readonly format: UploadFormat }> {
  const limit = config.maxUploadBytes;
  const mib = Math.round(limit / 1024 / 1024);
  const tooLarge = (declared?: number): PayloadTooLarge =>
    new PayloadTooLarge(`upload ${declared !== undefined && declared > limit ? `of ${declared} bytes ` : ""}exceeds the size limit of ${mib} MiB (raise it with MAX_UPLOAD_MB or --max-upload-mb)`, { field: "file" });
  const fromQuery = new URLSearchParams(ctx.querystring).getAll("filename");
  if (fromQuery.length > 1) throw new BadRequest("give the query parameter 'filename' once", { field: "filename" });
  let file: UploadedFile;
  if (ctx.is("multipart")) {
    const form = await readMultipart(ctx, { what: "POST /dataset", fileField: "file", maxFileBytes: limit, tooLarge, maxFields: UPLOAD_FIELDS, maxFieldBytes: 64 * 1024 });
    // A browser form's API token (http/auth.ts) is checked before anything else.
    acceptFormFields(ctx, form.fields);
    if (!form.file) {
      const names = [...form.fields.keys()].filter((n) => n !== FORM_TOKEN_FIELD);
      if (form.fields.has("file")) throw new BadRequest("the part 'file' came as a text field (it has no Content-Type header): send the CSV or SD file as a file part (curl -F file=@data.csv)", { field: "file" });
      throw new BadRequest(`expected the CSV or SD file in the multipart field 'file'${names.length > 0 ? `; got field(s) ${quoted(names)}` : ""}`, { field: "file" });
    }
    file = form.file;
  } else if (BODY_TYPES.includes(ctx.request.type)) {
    const header = ctx.get("Content-Disposition");
    let fromHeader: string | undefined;
    try {
      fromHeader = header ? dispositionFileName(header) : undefined;
    } catch (err) {
      ctx.req.resume();
      throw new BadRequest(`malformed Content-Disposition header: ${(err as Error).message}`, { field: "Content-Disposition" });
    }
    file = { bytes: await readBytes(ctx.req, limit, () => tooLarge(Number(ctx.get("Content-Length") || 0))), fileName: fromHeader ?? "", type: ctx.request.type };
  } else {
    throw new UnsupportedMediaType(`POST /dataset takes multipart/form-data with a field 'file', or the file itself as the body: ${SUPPORTED_FORMATS}; got '${ctx.request.type || "no Content-Type"}'`, { field: "Content-Type" });
  }
  return checkUploadFile(file, fromQuery[0] ?? file.fileName, config);
}

/**
 * An uploaded file checked as POST /dataset checks it (also the batch file of POST /model/{id}):
 * its name (400), not empty (400), its format (415), the upload limits on its scanned shape (413).
 */
export async function checkUploadFile(file: UploadedFile, name: string, config: Config): Promise<UploadedFile & { readonly format: UploadFormat }> {
  const given = name.trim();
  if (given.length > MAX_FILE_NAME) throw new BadRequest(`the file name has ${given.length} characters; at most ${MAX_FILE_NAME} are accepted`, { field: "filename" });
  if (file.bytes.length === 0) throw new BadRequest("the uploaded file is empty", { field: "file" });
  const detected = detectFormat(file.bytes, given, file.type);
  if ("unsupported" in detected) {
    throw new UnsupportedMediaType(`the uploaded file is ${detected.unsupported}; POST /dataset reads ${SUPPORTED_FORMATS}`, { field: "file" });
  }
  const { format } = detected;
  const fileName = given || `upload.${format}`;
  const limits = uploadLimits(config);
  const shapeLimits = { maxColumns: limits.columns, maxRows: limits.rows, maxValues: maxValues(limits) };
  // Paced like every sliced piece of main-thread work (threads/turns.ts).
  const shape = format === "sdf" ? await scanSdShape(file.bytes, shapeLimits, nextTurn) : await scanShape(file.bytes, shapeLimits, nextTurn);
  checkUploadLimits(estimatedCounts(shape), limits, { stopped: shape.stopped, estimated: true, records: format === "sdf" });
  return { bytes: file.bytes, fileName, format };
}
