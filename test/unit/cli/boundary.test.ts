/**
 * The command-line client is a client: src/cli/ imports its own modules, version.ts and
 * packages, nothing else of the service (docs/ARCHITECTURE.md places cli/ at the top, which the
 * layer check alone would let import everything).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { posix } from "node:path";
import { importsOf, readSources } from "../../helpers/layers.ts";

test("src/cli imports only src/cli and version.ts of the service", () => {
  const src = new URL("../../../src", import.meta.url).pathname;
  const files = readSources(src).filter((f) => f.path.startsWith("cli/"));
  assert.ok(files.length >= 5, `${files.length} files in src/cli`);
  const outside = files.flatMap((f) =>
    importsOf(f.source)
      .map(({ specifier }) => posix.normalize(posix.join(posix.dirname(f.path), specifier)))
      .filter((target) => !target.startsWith("cli/") && target !== "version.ts")
      .map((target) => `${f.path} imports ${target}`),
  );
  assert.deepEqual(outside, []);
});
