/**
 * The CSV export's column titles (src/resources/dataset-export.ts distinctTitles): a prediction
 * dataset's predicted value and the measured endpoint share the endpoint's title in the graph;
 * the export tells them apart, and any other repeated title is numbered, so the file uploads again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { distinctTitles } from "../../../src/resources/dataset-export.ts";

test("predicted, measured and confidence columns get titles of their own", () => {
  const m = "http://h/model/abc";
  assert.deepEqual(
    distinctTitles([
      { uri: "http://h/dataset/d/feature/Hamster%20Carcinogenicity", title: "Hamster Carcinogenicity" },
      { uri: `${m}/predicted/value`, title: "Hamster Carcinogenicity" },
      { uri: `${m}/predicted/confidence`, title: "Hamster Carcinogenicity confidence" },
    ]),
    ["Hamster Carcinogenicity (measured)", "Hamster Carcinogenicity (predicted)", "Hamster Carcinogenicity confidence"],
  );
});

test("other titles stay; repeats are numbered in order", () => {
  assert.deepEqual(distinctTitles([{ uri: "a", title: "x" }, { uri: "b", title: "y" }]), ["x", "y"]);
  assert.deepEqual(distinctTitles([{ uri: "a", title: "x" }, { uri: "b", title: "x" }, { uri: "c", title: "x (2)" }]), ["x", "x (2)", "x (2) (2)"]);
  assert.deepEqual(distinctTitles([{ uri: "http://h/model/m/predicted/value", title: "x" }]), ["x"], "a prediction alone keeps its title");
});
