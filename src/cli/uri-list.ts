/**
 * `text/uri-list` (RFC 2483): one URI a line, lines ended by CRLF, `#` starting a comment line.
 * The service writes CRLF as the RFC says; a shell's `$(…)` keeps the CR, so the client reads
 * lines ended by CRLF or LF alike and always writes LF.
 */

/** The URIs of a uri-list body (CRLF, LF or a lone CR between lines; comments and blank lines skipped). */
export function parseUriList(text: string): string[] {
  return text
    .split(/\r\n|\n|\r/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** A uri-list body as the client prints it: the URIs, each on a line ended by LF. */
export function toLines(uris: readonly string[]): string {
  return uris.map((u) => `${u}\n`).join("");
}
