/**
 * The data sets of the quality benches (bench/quality.ts, bench/quality-explore.ts): which CSV of
 * fixtures/data, its SMILES and endpoint columns, and for classification the positive label.
 * Rows without a value (or with one that is not a number, for regression) are left out.
 */
import { readFileSync } from "node:fs";

const DATA = new URL("../fixtures/data/", import.meta.url).pathname;

export interface DatasetSpec {
  readonly path: string;
  readonly smiles: string;
  readonly value: string;
  /** Classification: the label of the positive class. */
  readonly positive?: string;
}

export const DATASETS: Record<string, DatasetSpec> = {
  kazius: { path: "lazar/test/data/kazius.csv", smiles: "SMILES", value: "Mutagenicity", positive: "1" },
  hansen: { path: "lazar/data/parts/hansen.csv", smiles: "SMILES", value: "Mutagenicity", positive: "mutagenic" },
  epafhm: { path: "lazar/test/data/EPAFHM_log10.csv", smiles: "STRUCTURE_SMILES", value: "-log10(LC50_mmol)" },
  loael: { path: "lazar/test/data/loael_log10.csv", smiles: "SMILES", value: "-log10(LOAEL)" },
  daphnia: { path: "lazar-public-data/regression/daphnia_magna_mmol_log10.csv", smiles: "SMILES", value: "-log[LC50_mmol/L]" },
  // Held-out sets of issue 16 (bench/notebook/floor.py gives each its notebook floor). Regression
  // values are already log units: -log10 of LOAEL and MRDD in mmol/kg bw/day (the LOAEL column is
  // named plain "LOAEL" but holds -log10 values: it equals loael_log10.csv on shared compounds),
  // log10 of solubility in mol/L (ESOL), logD at pH 7.4 (Lipophilicity). Daphnia's copy in
  // lazar/data/Acute_toxicity-Daphnia_magna.csv holds the same SMILES and values as `daphnia`;
  // Hansen's in lazar-public-data/classification/mutagenicity.csv the same as `hansen`.
  efsa: { path: "lazar/data/parts/efsa.csv", smiles: "SMILES", value: "Mutagenicity", positive: "mutagenic" },
  "loael-paper": { path: "lazar-public-data/regression/training_log10.csv", smiles: "SMILES", value: "LOAEL" },
  mrdd: {
    path: "lazar/data/Maximum_Recommended_Daily_Dose-Human.csv",
    smiles: "SMILES",
    value: "-log10(Maximum_Recommended_Daily_Dose-Human [mmol/kg-bw/day])",
  },
  esol: { path: "moleculenet/delaney-processed.csv", smiles: "smiles", value: "measured log solubility in mols per litre" },
  lipophilicity: { path: "moleculenet/lipophilicity.csv", smiles: "smiles", value: "exp" },
};

/** One CSV line's fields (double quotes group, "" escapes a quote). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") out.push(cur), (cur = "");
    else cur += c;
  }
  out.push(cur);
  return out;
}

/** The rows of a data set with a value (for regression: a number), as the file writes them. */
export function readDatasetRows(spec: DatasetSpec): { smiles: string; value: string }[] {
  const lines = readFileSync(DATA + spec.path, "utf8").split(/\r?\n/).filter((l) => l.trim());
  const header = csvFields(lines[0]!);
  const si = header.indexOf(spec.smiles);
  const vi = header.indexOf(spec.value);
  if (si < 0 || vi < 0) throw new Error(`${spec.path}: no column ${spec.smiles} or ${spec.value} in ${header.join(",")}`);
  return lines.slice(1).flatMap((l) => {
    const f = csvFields(l);
    const value = f[vi]!.trim();
    if (value === "" || (spec.positive === undefined && !Number.isFinite(Number(value)))) return [];
    return [{ smiles: f[si]!.trim(), value }];
  });
}

/** The rows with a value: SMILES, and 1/0 (the positive class or not) or the number. */
export function readDataset(spec: DatasetSpec): { smiles: string[]; y: Float64Array } {
  const rows = readDatasetRows(spec);
  return { smiles: rows.map((r) => r.smiles), y: Float64Array.from(rows, (r) => (spec.positive !== undefined ? (r.value === spec.positive ? 1 : 0) : Number(r.value))) };
}
