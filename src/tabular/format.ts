/**
 * Which format an uploaded file is in: CSV or SDF, or recognisably something else (415). Decided
 * from the first bytes, the file name and the media type, in this order:
 *
 * 1. The content's signature: an archive or office document (ZIP: XLSX, ODS; OLE2: XLS), an
 *    image, PDF, gzip/bzip2/xz/7z, UTF-16 text, or binary bytes (NUL or other control bytes in the
 *    first line) → unsupported, whatever the name says.
 * 2. The content of an SD file or molfile: its fourth line is a counts line ending in `V2000` or
 *    `V3000`, or a line `$$$$` comes within the first 64 KiB → SDF, whatever the name says (a
 *    `.csv` or `text/csv` that holds an SD file is read as one).
 * 3. Other content that is no table: JSON (`{`, or `[` then a quote, brace, bracket or blank) or
 *    XML/HTML (`<?xml`, `<!DOCTYPE`, `<html`) → unsupported.
 * 4. The media type (`chemical/x-mdl-sdfile`, `chemical/x-mdl-molfile`) or the file name
 *    (`.sdf`, `.sd`, `.mol`) → SDF.
 * 5. A file name of another known format (`.xlsx`, `.xls`, `.ods`, `.json`, `.xml`, `.smi`,
 *    `.smiles`, `.mol2`, `.pdb`, `.cml`, `.zip`, `.gz`, …) → unsupported. A SMILES file (`.smi`)
 *    is refused rather than read: its lines are `SMILES name` in some files and `id SMILES` in
 *    others (the public collection has both), and it has no header to say which.
 * 6. Anything else → CSV (the CSV reader reports what is wrong with it, by line).
 * Pure and cheap: it reads at most the first 64 KiB.
 */

export type UploadFormat = "csv" | "sdf";

/** The formats an upload may have, for messages. */
export const SUPPORTED_FORMATS = "CSV (text/csv; .csv, .tsv, .txt) or SDF (chemical/x-mdl-sdfile; .sdf, .sd, .mol, V2000 or V3000)";

/** The media types that say "SD file". */
export const SDF_TYPES: readonly string[] = ["chemical/x-mdl-sdfile", "chemical/x-mdl-molfile"];

export type Detected = { readonly format: UploadFormat } | { readonly unsupported: string };

const SNIFF_BYTES = 64 * 1024;

/** Leading bytes of formats that are certainly not CSV or SDF, and what to call them. */
const SIGNATURES: readonly (readonly [readonly number[], string])[] = [
  [[0x50, 0x4b, 0x03, 0x04], "a ZIP archive (an XLSX or ODS spreadsheet is one)"],
  [[0x50, 0x4b, 0x05, 0x06], "a ZIP archive"],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], "an OLE2 document (an XLS spreadsheet is one)"],
  [[0x89, 0x50, 0x4e, 0x47], "a PNG image"],
  [[0x47, 0x49, 0x46, 0x38], "a GIF image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [[0x25, 0x50, 0x44, 0x46], "a PDF document"],
  [[0x1f, 0x8b], "a gzip archive"],
  [[0x42, 0x5a, 0x68], "a bzip2 archive"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "an xz archive"],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], "a 7z archive"],
  [[0xff, 0xfe], "UTF-16 text (CSV and SDF are read as UTF-8)"],
  [[0xfe, 0xff], "UTF-16 text (CSV and SDF are read as UTF-8)"],
];

/** File name endings of formats that are not CSV or SDF. */
const OTHER_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ["xlsx", "an XLSX spreadsheet"], ["xlsm", "an XLSX spreadsheet"], ["xls", "an XLS spreadsheet"], ["ods", "an ODS spreadsheet"],
  ["json", "JSON"], ["jsonld", "JSON-LD"], ["xml", "XML"], ["html", "HTML"], ["htm", "HTML"], ["yaml", "YAML"], ["yml", "YAML"],
  ["smi", "a SMILES file (no header line to name its columns)"], ["smiles", "a SMILES file (no header line to name its columns)"],
  ["mol2", "a Mol2 file"], ["pdb", "a PDB file"], ["cml", "a CML file"], ["cdx", "a ChemDraw file"],
  ["ttl", "Turtle"], ["nt", "N-Triples"], ["zip", "a ZIP archive"], ["gz", "a gzip archive"], ["pdf", "a PDF document"],
]);

const SD_EXTENSIONS: ReadonlySet<string> = new Set(["sdf", "sd", "mol", "sdfile"]);

function startsWith(bytes: Uint8Array, sig: readonly number[]): boolean {
  if (bytes.length < sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[i] !== sig[i]) return false;
  return true;
}

/** The extension of a file name, lower case ("" without one). */
function extension(fileName: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  return m ? m[1]!.toLowerCase() : "";
}

/** Control bytes other than TAB, LF, CR, FF in the first line (the first 1 KiB at most): a binary file. */
function binaryStart(head: Uint8Array): boolean {
  const n = Math.min(head.length, 1024);
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b === 10 || b === 13) return false;
    if (b < 32 && b !== 9 && b !== 12) return true;
  }
  return false;
}

/** The first lines of the head (LF, CRLF or CR), without a BOM. */
function firstLines(text: string, count: number): string[] {
  return text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/, count);
}

/** An SD file or molfile by its content: a V2000/V3000 counts line as line 4, or a `$$$$` line. */
export function looksLikeSdf(text: string): boolean {
  const lines = firstLines(text, 4);
  if (lines.length === 4 && /V[23]000\s*$/.test(lines[3]!)) return true;
  return /(^|[\r\n])\$\$\$\$[ \t]*(\r\n|\r|\n|$)/.test(text);
}

/** Detect the format (see the module comment). `mediaType`: the body's or the part's Content-Type, if any. */
export function detectFormat(bytes: Uint8Array, fileName: string, mediaType = ""): Detected {
  const head = bytes.subarray(0, SNIFF_BYTES);
  for (const [sig, what] of SIGNATURES) if (startsWith(head, sig)) return { unsupported: what };
  if (binaryStart(head)) return { unsupported: "a binary file" };
  // A cut in the middle of a UTF-8 sequence only garbles the last character.
  const text = new TextDecoder("utf-8").decode(head);
  if (looksLikeSdf(text)) return { format: "sdf" };
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start.startsWith("{") || /^\[[\s"{[\]]/.test(start)) return { unsupported: "JSON" };
  if (/^<(\?xml|!doctype|html)/i.test(start)) return { unsupported: "XML or HTML" };
  const type = mediaType.toLowerCase();
  const ext = extension(fileName);
  if (SDF_TYPES.includes(type) || SD_EXTENSIONS.has(ext)) return { format: "sdf" };
  const other = OTHER_EXTENSIONS.get(ext);
  if (other) return { unsupported: `${other} (by its name '.${ext}')` };
  return { format: "csv" };
}
