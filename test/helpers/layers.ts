/**
 * The import-direction check of docs/ARCHITECTURE.md: the layer order is read from the document
 * itself (its fenced block marked `layers`: one layer per line, top first; the names on a line
 * are peers — folders under src/ or files at its root), so that the document and the check
 * cannot drift apart. A module may import modules of its own unit (the same folder, or the same
 * root file) and of units on lower lines; never a unit above it, never a peer on its own line.
 * Every unit under src/ must be on some line. Type-only imports count: they couple the code too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";

export interface SourceFile {
  /** Path relative to src/, with "/" separators. */
  readonly path: string;
  readonly source: string;
}

export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly reason: string;
}

/** The lines of the first ```layers block of `markdown`, each split into its names. */
export function parseLayers(markdown: string): string[][] {
  const m = /^```layers[ \t]*\n([\s\S]*?)^```/m.exec(markdown);
  if (!m) throw new Error("no ```layers block in the document");
  return m[1]!
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter((l) => l !== "")
    .map((l) => l.split(/\s+/));
}

/** Every .ts file under `dir`, as SourceFiles relative to it. */
export function readSources(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".ts")) out.push({ path: relative(dir, p).split(sep).join("/"), source: readFileSync(p, "utf8") });
    }
  };
  walk(dir);
  return out;
}

/** Static imports and re-exports (with or without bindings, type-only too) and dynamic `import("…")` with a literal. */
const IMPORT = /(?:^|[;\n])\s*(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The relative specifiers a module imports, with their line numbers. */
export function importsOf(source: string): { specifier: string; line: number }[] {
  const out: { specifier: string; line: number }[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const specifier = (m[1] ?? m[2])!;
    if (!specifier.startsWith(".")) continue;
    const at = m.index! + m[0].indexOf(specifier);
    out.push({ specifier, line: source.slice(0, at).split("\n").length });
  }
  return out;
}

/** The unit of a path relative to src/: its first segment (a folder, or a root file). */
function unitOf(path: string): string {
  return path.split("/")[0]!;
}

export function checkImports(files: readonly SourceFile[], layers: readonly (readonly string[])[]): Violation[] {
  const level = new Map<string, number>();
  layers.forEach((names, i) => names.forEach((n) => level.set(n, i)));
  const violations: Violation[] = [];
  const unplaced = new Set<string>();
  for (const f of files) {
    const unit = unitOf(f.path);
    const own = level.get(unit);
    if (own === undefined) {
      if (!unplaced.has(unit)) violations.push({ file: f.path, line: 1, specifier: "", reason: `${unit} is on no line of the layer order` });
      unplaced.add(unit);
      continue;
    }
    for (const { specifier, line } of importsOf(f.source)) {
      const target = posix.normalize(posix.join(posix.dirname(f.path), specifier));
      if (target.startsWith("../")) {
        violations.push({ file: f.path, line, specifier, reason: "imports from outside src/" });
        continue;
      }
      const to = unitOf(target);
      if (to === unit) continue;
      const theirs = level.get(to);
      if (theirs === undefined) violations.push({ file: f.path, line, specifier, reason: `${to} is on no line of the layer order` });
      else if (theirs === own) violations.push({ file: f.path, line, specifier, reason: `${unit} and ${to} are peers (one line): neither may import the other` });
      else if (theirs < own) violations.push({ file: f.path, line, specifier, reason: `${unit} may not import ${to}, which is above it` });
    }
  }
  return violations;
}
