/**
 * What the client reads from the service's RDF (src/cli/rdf.ts): a prediction dataset's entries
 * and a cross-validation's pooled statistics. The N-Triples below are written by hand in the
 * shapes README "Models and predictions (lazar)" and "Cross-validation and reports" document (a
 * predicted entry with value, confidence and neighbours; a training compound with
 * `qg:measured true` and its measured value under the endpoint; one without neighbours, with
 * confidence 0 and a reason), with the service's vocabulary under another base than the client's
 * server, and entries out of line order.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseNTriples, readPredictions, readStatistics } from "../../../src/cli/rdf.ts";
import { QG_NS } from "../../../src/store/vocab.ts";

const B = "https://qsar.example.org";
const OT = "http://www.opentox.org/api/1.1#";
const QG = QG_NS;
const PD = `${B}/dataset/pred00000001`;
const M = `${B}/model/model0000001`;
const ENDPOINT = `${B}/dataset/train0000001/feature/Hamster%20Carcinogenicity`;
const XSD = "http://www.w3.org/2001/XMLSchema#";

const nt = `
<${PD}> <${OT}predictedVariables> <${M}/predicted/value> .
<${PD}> <${OT}predictedVariables> <${M}/predicted/confidence> .
<${PD}> <${OT}dataEntry> <${PD}#e3> .
<${PD}> <${OT}dataEntry> <${PD}#e1> .
<${PD}> <${OT}dataEntry> <${PD}#e2> .
<${PD}#e1> <${OT}compound> <${B}/compound/InChI=1S/C6H8N2/c7-8-6-4-2-1-3-5-6/h1-5,8H,7H2> .
<${PD}#e1> <${QG}line> "1"^^<${XSD}integer> .
<${PD}#e1> <${OT}values> <${PD}#e1v0> .
<${PD}#e1v0> <${OT}feature> <${M}/predicted/value> .
<${PD}#e1v0> <${OT}value> "false" .
<${PD}#e1> <${OT}values> <${PD}#e1v1> .
<${PD}#e1v1> <${OT}feature> <${M}/predicted/confidence> .
<${PD}#e1v1> <${OT}value> "0.3663658823781071"^^<${XSD}double> .
<${PD}#e1> <${QG}numberOfNeighbours> "16"^^<${XSD}integer> .
<${PD}#e2> <${OT}compound> <${B}/compound/InChI=1S/CH6N2/c1-3-2/h3H,2H2,1H3> .
<${PD}#e2> <${QG}line> "2"^^<${XSD}integer> .
<${PD}#e2> <${QG}measured> "true"^^<${XSD}boolean> .
<${PD}#e2> <${OT}values> <${PD}#e2v0> .
<${PD}#e2v0> <${OT}feature> <${ENDPOINT}> .
<${PD}#e2v0> <${OT}value> "true" .
<${PD}#e3> <${OT}compound> <${B}/compound/InChI=1S/Xe> .
<${PD}#e3> <${QG}line> "3"^^<${XSD}integer> .
<${PD}#e3> <${QG}numberOfNeighbours> "0"^^<${XSD}integer> .
<${PD}#e3> <${OT}values> <${PD}#e3v0> .
<${PD}#e3v0> <${OT}feature> <${M}/predicted/confidence> .
<${PD}#e3v0> <${OT}value> "0.0"^^<${XSD}double> .
<${PD}#e3> <${QG}reason> "outside the applicability domain: no neighbour with a similarity above 0.3" .
`;

describe("readPredictions", () => {
  it("predicted, measured and unpredicted entries, in line order", () => {
    assert.deepEqual(readPredictions(parseNTriples(nt), PD), [
      { compound: `${B}/compound/InChI=1S/C6H8N2/c7-8-6-4-2-1-3-5-6/h1-5,8H,7H2`, status: "predicted", value: "false", confidence: 0.3663658823781071, neighbours: 16, reason: null },
      { compound: `${B}/compound/InChI=1S/CH6N2/c1-3-2/h3H,2H2,1H3`, status: "measured", value: "true", confidence: null, neighbours: null, reason: null },
      { compound: `${B}/compound/InChI=1S/Xe`, status: "unpredicted", value: null, confidence: 0, neighbours: 0, reason: "outside the applicability domain: no neighbour with a similarity above 0.3" },
    ]);
  });

  it("another dataset's entries are not read", () => {
    assert.deepEqual(readPredictions(parseNTriples(nt), `${B}/dataset/other0000001`), []);
  });
});

describe("readStatistics", () => {
  it("the cross-validation's xsd:double qg: values, by name; other triples ignored", () => {
    const cv = `${B}/validation/crossvalidation/cv0000000001`;
    const text = `
<${cv}> <${QG}accuracy> "0.8285714285714286"^^<${XSD}double> .
<${cv}> <${QG}numInstances> "85"^^<${XSD}double> .
<${cv}> <${QG}numFolds> "10"^^<${XSD}integer> .
<${cv}> <${QG}algorithmParams> "" .
<${cv}#p1> <${QG}confidence> "0.5"^^<${XSD}double> .
<${cv}> <${OT}trainingDataset> <${B}/dataset/train0000001> .
`;
    assert.deepEqual([...readStatistics(parseNTriples(text), cv)], [
      ["accuracy", 0.8285714285714286],
      ["numInstances", 85],
    ]);
  });

  it("a server of an earlier version (its terms under <BASE>/ontology#) is read as well", () => {
    const cv = `${B}/validation/crossvalidation/cv0000000001`;
    const text = `<${cv}> <${B}/ontology#accuracy> "0.75"^^<${XSD}double> .\n`;
    assert.deepEqual([...readStatistics(parseNTriples(text), cv)], [["accuracy", 0.75]]);
  });
});
