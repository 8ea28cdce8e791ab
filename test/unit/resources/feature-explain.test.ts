/**
 * What a mined substructure says in words (src/resources/feature-explain.ts): the p-value proper
 * from the stored statistic, the class name of ot:effect, the sentence, and p written with two
 * significant digits. Expected values by hand: a statistic of 3.841459 (the 95 % quantile of χ²
 * with one degree of freedom, standard tables) is p = 0.05 → "5.0e−2"; with two degrees of
 * freedom (LAST-PM, three classes) the upper tail is e^(−x/2), so x = 2·ln(1000) gives 1.0e−3;
 * Kuiper's stored 1 − Q = 0.9979 is p = 2.1e−3.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { explainSubstructure, formatP, substructureFacts, type MinedEndpoint } from "../../../src/resources/feature-explain.ts";
import { Vocab } from "../../../src/store/vocab.ts";

const OT = "http://www.opentox.org/api/1.1#";
const v = new Vocab("http://x");
const hamster: MinedEndpoint = { uri: "http://x/dataset/a/feature/H", title: "Hamster Carcinogenicity", classes: ["false", "true"], sizes: [40, 45], instances: 85 };

describe("formatP", () => {
  it("writes two significant digits in scientific notation with a true minus sign", () => {
    assert.deepEqual([formatP(0.0021), formatP(0.05), formatP(1), formatP(3.14e-20), formatP(0.000999)], ["2.1e\u22123", "5.0e\u22122", "1.0e0", "3.1e\u221220", "1.0e\u22123"]);
  });
});

describe("substructureFacts", () => {
  it("reads the stored properties; class counts sorted by class; the miner from the creator", () => {
    const props = new Map<string, string[]>([
      [`${OT}smarts`, ["[#7&A]-[#7&A]"]],
      [`${OT}pValue`, ["0.95"]],
      [`${OT}effect`, ["2"]],
      [v.qg.statistic.value, ["3.841459"]],
      [v.qg.support.value, ["12"]],
      [v.qg.classCount.value, ["true=10", "false=2"]],
    ]);
    assert.deepEqual(substructureFacts(props, v, "http://x/algorithm/miner/bbrc"), {
      smarts: "[#7&A]-[#7&A]", miner: "bbrc", storedPValue: 0.95, statistic: 3.841459, support: 12, effect: "2", classCounts: [["false", 2], ["true", 10]],
    });
    assert.equal(substructureFacts(new Map(), v, undefined), undefined, "no SMARTS: not a substructure");
  });
});

describe("explainSubstructure", () => {
  it("BBRC: p from the statistic at one degree of freedom, the class by name, the sentence", () => {
    const x = explainSubstructure({ smarts: "N", miner: "bbrc", storedPValue: 0.95, statistic: 3.841459, support: 12, effect: "2", classCounts: [["false", 2], ["true", 10]] }, hamster);
    assert.equal(x.pText, "5.0e\u22122");
    assert.equal(x.df, 1);
    assert.equal(x.effectClass, "true");
    assert.equal(x.sentence, "more frequent in compounds with Hamster Carcinogenicity = true (p = 5.0e\u22122, χ² test, 12 of 85 compounds contain it)");
    assert.match(x.storedEffect, /^2: class 2 of false, true, i\.e\. true/);
  });
  it("LAST-PM with three classes: k − 1 = 2 degrees of freedom", () => {
    const three: MinedEndpoint = { ...hamster, classes: ["high", "low", "mid"], sizes: [10, 10, 10], instances: 30 };
    const x = explainSubstructure({ smarts: "N", miner: "last", statistic: 2 * Math.log(1000), support: 7, effect: "1", classCounts: [] }, three);
    assert.equal(x.df, 2);
    assert.equal(x.pText, "1.0e\u22123");
    assert.equal(x.effectClass, "high");
  });
  it("regression: Kuiper's p = 1 − stored; activating = lower values", () => {
    const numeric: MinedEndpoint = { uri: "http://x/f", title: "LC50", classes: [], sizes: [500], instances: 500 };
    const x = explainSubstructure({ smarts: "N", miner: "bbrc", storedPValue: 0.9979, statistic: 0.9979, support: 30, effect: "activating", classCounts: [] }, numeric);
    assert.equal(x.sentence, "compounds that contain it have lower values of LC50 than the training data as a whole (median) (p = 2.1e\u22123, Kuiper test, 30 of 500 compounds contain it)");
    const y = explainSubstructure({ smarts: "N", storedPValue: 1, effect: "deactivating", classCounts: [] }, numeric);
    assert.equal(y.direction, "higher");
    assert.equal(y.pText, "< 1.1e\u221216", "1 − 1 cannot tell p");
  });
  it("without the endpoint: the class from the counts' names, no total", () => {
    const x = explainSubstructure({ smarts: "N", miner: "bbrc", statistic: 3.841459, support: 1, effect: "1", classCounts: [["false", 1], ["true", 0]] }, null);
    assert.equal(x.sentence, "more frequent in compounds with the endpoint = false (p = 5.0e\u22122, χ² test, 1 compound contains it)");
  });
});
