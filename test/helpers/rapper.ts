/**
 * rapper (Raptor 2, Debian package raptor2-utils): an RDF parser written independently of the
 * service's (Oxigraph, n3), used to check that what the service serves parses elsewhere too.
 */
import { spawn } from "node:child_process";
import { ensureDebianBinary } from "./debian.ts";

export const RAPPER = "/usr/bin/rapper";

export function ensureRapper(): string {
  return ensureDebianBinary(RAPPER, "raptor2-utils");
}

/** rapper's names of the syntaxes the service serves, by media type. */
export const RAPPER_SYNTAX: Readonly<Record<string, string>> = {
  "text/turtle": "turtle",
  "application/n-triples": "ntriples",
  "application/rdf+xml": "rdfxml",
};

export interface RapperRun {
  readonly code: number | null;
  /** The triples rapper read, as N-Triples. */
  readonly ntriples: string;
  readonly stderr: string;
}

/**
 * `rapper -q -i <syntax> -o ntriples <input> <base>`: `input` a file path, or a text given on
 * stdin (`-`).
 */
export function runRapper(syntax: string, base: string, input: { readonly file: string } | { readonly text: string }): Promise<RapperRun> {
  const source = "file" in input ? input.file : "-";
  const child = spawn(ensureRapper(), ["-q", "-i", syntax, "-o", "ntriples", source, base], { stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  const done = new Promise<RapperRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, ntriples: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
  // rapper may stop reading at a syntax error: its exit code tells, not the broken pipe
  child.stdin.on("error", () => undefined);
  child.stdin.end("text" in input ? input.text : "");
  return done;
}
