#!/usr/bin/env python3
"""The notebook floor of issue 16: what a toxicologist gets from the free tools in a notebook.

For each named data set, 10-fold cross-validation of a random forest from scikit-learn on RDKit
features, the way such a notebook does it; the service's default model (bench/quality.ts) must
beat these figures on the same files. This script is not part of `npm test` or CI (they have no
Python packages); run it by hand.

How to run (from the repository's root):

  where PyPI can be reached (not tried here: the project's machines reach no PyPI):
    python3 -m venv /tmp/nb && /tmp/nb/bin/pip install -r bench/notebook/requirements.txt \
      && /tmp/nb/bin/python bench/notebook/floor.py <set…>

  on the project's machines (Debian 12, which reach Debian's packages but not PyPI), the same
  versions come from Debian, for the system's Python:
    apt-get install -y --no-install-recommends python3-rdkit python3-sklearn python3-pandas
    nice -n 10 /usr/bin/python3 bench/notebook/floor.py <set…>

  sets: names of `DATASETS` in bench/quality-data.ts (read from that file, so both benches use
  the same files, columns and positive classes), e.g. `kazius epafhm hansen`; `all` runs every
  one. Options: --trees=N (default 500; fewer for a quick try), --seed=N (default 1: the folds'
  shuffle and the forest), --grouped (not the issue's protocol: folds that keep the rows of one
  structure together, see below).

What it does, per set:
  - reads the CSV under fixtures/data/; keeps the rows whose value is not empty (regression:
    and is a finite number) and whose SMILES RDKit reads (an empty SMILES counts as unreadable);
    classification: the positive label is 1, any other label 0. Nothing is de-duplicated: a
    compound listed twice (LOAEL's two sources, say) stays twice (as in bench/quality.ts, whose
    folds keep the two in one fold; see --grouped).
  - classification: Morgan fingerprint radius 2, 2048 bits → RandomForestClassifier(500 trees,
    n_jobs=2, random_state=1; other settings scikit-learn's defaults); AUC on predict_proba and
    accuracy with the positive class when its probability is > 0.5 (a tie is negative, as
    scikit-learn's predict has it).
  - regression: the same bits + RDKit's 2D descriptors (rdkit.Chem.Descriptors.descList; a value
    that is NaN, infinite, beyond float32's range (the forest works in float32) or that raises
    is replaced by its column's median over the whole set) → RandomForestRegressor(500 trees,
    n_jobs=2, random_state=1); RMSE and R².
  - folds: KFold(10, shuffle=True, random_state=1), plain 10-fold as in the issue's notebook
    (not stratified); every compound is predicted once, out of fold, and the metrics are over
    all these predictions pooled (as the service's cross-validation reports them); the mean ±
    standard deviation of the per-fold metric follows, to show the spread. Plain folds split a
    structure listed twice across training and test fold, which flatters the forest on sets with
    many such rows (LOAEL); --grouped instead shuffles the distinct structures (RDKit canonical
    SMILES) with the seed and deals them to the 10 folds in turn, as the service's folds keep
    one standard InChI together.
  - prints one line per set: n, metrics, wall time (features, cross-validation, total).
"""
import math
import os
import re
import sys
import time

import numpy as np
import pandas as pd
import rdkit
import sklearn
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import Descriptors, rdFingerprintGenerator
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.metrics import accuracy_score, mean_squared_error, r2_score, roc_auc_score
from sklearn.model_selection import KFold

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DATA = os.path.join(ROOT, "fixtures", "data")
SPECS_FILE = os.path.join(ROOT, "bench", "quality-data.ts")
FLOAT32_MAX = float(np.finfo(np.float32).max)


def read_specs():
    """The `DATASETS` entries of bench/quality-data.ts: name → {path, smiles, value[, positive]}."""
    text = open(SPECS_FILE, encoding="utf8").read()
    block = re.search(r"export const DATASETS[^=]*=\s*\{(.*?)\n\};", text, re.S)
    if block is None:
        sys.exit(f"{SPECS_FILE}: no `export const DATASETS … = {{ … }};` block")
    specs = {}
    for m in re.finditer(r'^\s*"?([\w-]+)"?\s*:\s*\{([^}]*)\}', block.group(1), re.M):
        fields = dict(re.findall(r'(\w+)\s*:\s*"((?:[^"\\]|\\.)*)"', m.group(2)))
        if not {"path", "smiles", "value"} <= fields.keys():
            sys.exit(f"{SPECS_FILE}: entry {m.group(1)} lacks path, smiles or value")
        specs[m.group(1)] = fields
    if not specs:
        sys.exit(f"{SPECS_FILE}: no entries read from DATASETS")
    return specs


def read_rows(spec):
    """(molecules, y, counts of the rows left out) of one data set."""
    table = pd.read_csv(os.path.join(DATA, spec["path"]), dtype=str, keep_default_na=False)
    for col in (spec["smiles"], spec["value"]):
        if col not in table.columns:
            sys.exit(f"{spec['path']}: no column {col!r} in {list(table.columns)}")
    positive = spec.get("positive")
    mols, y = [], []
    no_value = unreadable = 0
    for smiles, v in zip(table[spec["smiles"]], table[spec["value"]]):
        v = v.strip()
        if v == "":
            no_value += 1
            continue
        if positive is not None:
            value = 1.0 if v == positive else 0.0
        else:
            try:
                value = float(v)
            except ValueError:
                value = math.nan
            if not math.isfinite(value):
                no_value += 1
                continue
        smiles = smiles.strip()
        mol = Chem.MolFromSmiles(smiles) if smiles else None
        if mol is None:
            unreadable += 1
            continue
        mols.append(mol)
        y.append(value)
    return mols, np.array(y), {"rows": len(table), "no value": no_value, "unreadable SMILES": unreadable}


def morgan_bits(mols):
    gen = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)
    x = np.zeros((len(mols), 2048), dtype=np.uint8)
    row = np.zeros(2048)
    for i, mol in enumerate(mols):
        DataStructs.ConvertToNumpyArray(gen.GetFingerprint(mol), row)
        x[i] = row
    return x


def descriptors(mols):
    """RDKit's 2D descriptors; bad values → the column's median.

    Returns (matrix, cells replaced, names of the descriptors bad for every compound)."""
    x = np.empty((len(mols), len(Descriptors.descList)))
    for i, mol in enumerate(mols):
        for j, (_, fn) in enumerate(Descriptors.descList):
            try:
                x[i, j] = fn(mol)
            except Exception:
                x[i, j] = np.nan
    bad = ~np.isfinite(x) | (np.abs(np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)) > FLOAT32_MAX)
    for j in range(x.shape[1]):
        good = x[~bad[:, j], j]
        x[bad[:, j], j] = np.median(good) if good.size else 0.0
    # a descriptor bad for every compound is a constant 0: say which (e.g. Ipc, which raises in
    # rdkit 2022.09 with numpy ≥ 1.24 because it uses the removed alias numpy.float)
    dead = [Descriptors.descList[j][0] for j in range(x.shape[1]) if bad[:, j].all()]
    return x, int(bad.sum()), dead


def grouped_folds(mols, seed):
    """10 (train, test) index pairs that keep the rows of one canonical SMILES in one fold."""
    keys = [Chem.MolToSmiles(m) for m in mols]
    distinct = sorted(set(keys))
    order = np.random.RandomState(seed).permutation(len(distinct))
    fold_of = {k: int(r) % 10 for k, r in zip(distinct, order)}
    fold = np.array([fold_of[k] for k in keys])
    rows = np.arange(len(keys))
    return [(rows[fold != f], rows[fold == f]) for f in range(10)]


def cross_validate(x, y, classification, trees, seed, folds):
    """Out-of-fold predictions (probability of the positive class, or value) and per-fold metric."""
    pred = np.empty(len(y))
    per_fold = []
    for train, test in folds:
        if classification:
            model = RandomForestClassifier(n_estimators=trees, n_jobs=2, random_state=seed)
            model.fit(x[train], y[train])
            # column of class 1 (a training fold always holds both classes in these sets)
            pred[test] = model.predict_proba(x[test])[:, list(model.classes_).index(1.0)]
            per_fold.append(roc_auc_score(y[test], pred[test]) if len(set(y[test])) == 2 else math.nan)
        else:
            model = RandomForestRegressor(n_estimators=trees, n_jobs=2, random_state=seed)
            model.fit(x[train], y[train])
            pred[test] = model.predict(x[test])
            per_fold.append(math.sqrt(mean_squared_error(y[test], pred[test])))
    return pred, np.array(per_fold)


def run(name, spec, trees, seed, grouped):
    t0 = time.perf_counter()
    mols, y, counts = read_rows(spec)
    classification = "positive" in spec
    x = morgan_bits(mols)
    extra = ""
    if not classification:
        d, replaced, dead = descriptors(mols)
        x = np.hstack([x.astype(np.float64), d])
        extra = f", {d.shape[1]} descriptors ({replaced} values → median"
        extra += f"; constant, failed for every compound: {' '.join(dead)})" if dead else ")"
    t1 = time.perf_counter()
    if grouped:
        folds = grouped_folds(mols, seed)
    else:
        folds = list(KFold(n_splits=10, shuffle=True, random_state=seed).split(x))
    pred, per_fold = cross_validate(x, y, classification, trees, seed, folds)
    t2 = time.perf_counter()
    left = ", ".join(f"{k} {v}" for k, v in counts.items() if k != "rows" and v)
    head = f"{name + (' (grouped)' if grouped else ''):<14} n {len(y)} of {counts['rows']} rows" + (f" (left out: {left})" if left else "")
    if classification:
        auc = roc_auc_score(y, pred)
        acc = accuracy_score(y, pred > 0.5)
        metrics = (f"AUC {auc:.3f} accuracy {acc:.3f} (positives {int(y.sum())}; "
                   f"per fold AUC {np.nanmean(per_fold):.3f} ± {np.nanstd(per_fold):.3f})")
    else:
        rmse = math.sqrt(mean_squared_error(y, pred))
        metrics = (f"RMSE {rmse:.3f} R² {r2_score(y, pred):.3f} "
                   f"(per fold RMSE {per_fold.mean():.3f} ± {per_fold.std():.3f})")
    print(f"{head}: {metrics}; 2048 bits{extra}; time {t2 - t0:.1f} s "
          f"(features {t1 - t0:.1f} s, 10 folds {t2 - t1:.1f} s)", flush=True)


def main(argv):
    options = {"trees": 500, "seed": 1, "grouped": False}
    names = []
    for a in argv:
        m = re.fullmatch(r"--(trees|seed)=(\d+)", a)
        if m:
            options[m.group(1)] = int(m.group(2))
        elif a == "--grouped":
            options["grouped"] = True
        elif a.startswith("-"):
            sys.exit(f"unknown option {a}; known: --trees=N, --seed=N, --grouped")
        else:
            names.append(a)
    specs = read_specs()
    if not names:
        sys.exit(__doc__.split("What it does")[0] + "known sets: " + " ".join(specs))
    if names == ["all"]:
        names = list(specs)
    unknown = [n for n in names if n not in specs]
    if unknown:
        sys.exit(f"unknown data set(s) {' '.join(unknown)}; known: {' '.join(specs)}")
    RDLogger.DisableLog("rdApp.*")  # unreadable SMILES are counted, not logged one by one
    print(f"# notebook floor: Python {sys.version.split()[0]}, rdkit {rdkit.__version__}, "
          f"scikit-learn {sklearn.__version__}, numpy {np.__version__}, pandas {pd.__version__}; "
          f"{options['trees']} trees, {'grouped 10 folds' if options['grouped'] else 'KFold(10, shuffle)'}, "
          f"seed {options['seed']}, n_jobs 2", flush=True)
    for name in names:
        run(name, specs[name], options["trees"], options["seed"], options["grouped"])


if __name__ == "__main__":
    main(sys.argv[1:])
