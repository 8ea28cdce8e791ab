/**
 * A full or read-only disk (README "Durability"; docs/ARCHITECTURE.md "Store and durability"):
 * the real server on a data directory on a real 32 MiB tmpfs (test/helpers/disk.ts: mounted in a
 * private mount namespace, so it is unmounted however the test ends), filled with a filler file
 * until the kernel answers ENOSPC, and remounted read-only for EROFS.
 *
 * 1. Acknowledged before: hamster_carcinogenicity.csv (85 compounds, as in the reference data) and
 *    one compound.
 * 2. The disk fills up while kazius.csv uploads: its task ends in Error 507 naming the disk and
 *    the reason; nothing of it is stored (datasets and quads as before, read through SPARQL,
 *    whose replica follows the journal); reads go on.
 * 3. New compounds are POSTed until one gets 507; the ones answered 201 are acknowledged. Space
 *    returns: the task's final state and the refused compound are written, without a restart.
 * 4. Full again while another upload runs, SIGKILL, restart on the full disk: it starts (the
 *    interrupted task's state cannot be written: it is served from memory), serves everything
 *    acknowledged, still answers 507. The interrupted state is written once space returns (5.).
 * 5. SIGKILL, the disk remounted read-only, restart: it starts and serves; writes get 507
 *    "read-only". The disk made writable again and the space freed, the next writes succeed
 *    without a restart (assertServesNormally).
 * 6. SIGKILL, restart: every acknowledged resource is there, nothing of the failed writes.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { assertServesNormally, get, HAMSTER, KAZIUS, postCompound as post, sparqlSelect, storeSnapshot, uploadDataset, uploadFile, uriList, waitForTask } from "../helpers/server.ts";
import { useServer, type ServerHandle } from "../helpers/use-server.ts";
/** Compounds in neither hamster_carcinogenicity.csv nor the checks of assertServesNormally. */
const NEW_SMILES = [
  "CC1(C)C2CCC1(C)C(=O)C2",
  "OC1CCCCC1",
  "CC(C)(C)c1ccc(O)cc1",
  "FC(F)(F)c1ccccc1",
  "C1CCC2(CC1)OCCO2",
  "CCCCCCCCCCCCCCCC(=O)O",
  "OCC(O)CO",
  "CC(=O)OCC",
  "C#CC(C)(C)O",
  "O=C1CCCCC1",
  "CSCC",
  "CCOC(=O)C(C)(C)C",
  "N#Cc1ccc(Br)cc1",
  "CC(C)CC(C)(C)C",
];

// The data directory on a 32 MiB tmpfs (srv.disk); ended with SIGKILL, as the test's own crashes.
const srv = useServer({ disk: 32 << 20, kill: true });

async function crashAndRestart(srv: ServerHandle, between?: () => void): Promise<void> {
  await srv.kill();
  assert.equal(srv.proc.signalCode, "SIGKILL");
  between?.();
  await srv.restart();
}

/** POST a SMILES; the answer as text/plain (a refusal: "507 InsufficientStorage: …"). */
const postCompound = (base: string, smiles: string): Promise<Response> => post(base, smiles, { accept: "text/plain" });

/** The first group of `re` in `text` (which must match). */
function captured(re: RegExp, text: string): string {
  const m = re.exec(text)?.[1];
  assert.ok(m !== undefined, `${re} in ${text}`);
  return m;
}

/** `s` as a literal in a regular expression. */
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The 507 report for a write to the journal of `dataDir` (text/plain: "507 InsufficientStorage: …"). */
function diskReport(dataDir: string, what: string, reason: "is full (ENOSPC)" | "is read-only (EROFS)"): RegExp {
  return new RegExp(`^507 InsufficientStorage: could not write ${esc(what)} to ${esc(dataDir)}/journal-\\d+\\.qgj: the disk holding ${esc(dataDir)} ${esc(reason)}\\. Nothing of it was stored`);
}

/** Wait until the store holds the task's Error state (seen through SPARQL: written to the journal). */
async function taskWritten(base: string, task: string): Promise<void> {
  const status = `SELECT ?s WHERE { GRAPH <${task}> { <${task}> <http://www.opentox.org/api/1.1#hasStatus> ?s } }`;
  for (let i = 0; (await sparqlSelect(base, status))[0]?.s?.value !== "Error"; i++) {
    assert.ok(i < 300, `the Error state of ${task} is written within 30 s of space returning`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/**
 * POST new compounds (those already stored answer 200) until one is refused; each must be
 * stored (201, added to `acknowledged`) or refused with the full-disk 507 naming it.
 */
async function postUntilRefused(base: string, dataDir: string, smilesList: readonly string[], acknowledged: Set<string>): Promise<{ smiles: string; uri: string }> {
  for (const smiles of smilesList) {
    const c = await postCompound(base, smiles);
    const text = (await c.text()).trim();
    if (c.status === 201) acknowledged.add(text);
    if (c.status !== 507) {
      assert.ok(c.status === 201 || c.status === 200, text);
      continue;
    }
    const uri = captured(/could not write the change to <([^>]+)>/, text);
    assert.ok(uri.startsWith(`${base}/compound/InChI=`), text);
    assert.match(text, diskReport(dataDir, `the change to <${uri}>`, "is full (ENOSPC)"));
    return { smiles, uri };
  }
  assert.fail(`no 507 within ${smilesList.length} new compounds on a full disk`);
}

test("a full or read-only disk: 507 on every write with the reason, reads go on, writes succeed again without a restart, and a crash keeps exactly what was acknowledged", async () => {
  const d = srv.disk;
  const dataDir = srv.dataDir;
  const base = srv.base;

  // 1. Acknowledged.
  const hamster = await uploadDataset(base, HAMSTER);
  assert.equal((await uriList(hamster)).length, 85);
  const first = await postCompound(base, "C1CC2CCC1C2");
  assert.equal(first.status, 201, await first.clone().text());
  const firstCompound = (await first.text()).trim();
  const acknowledgedCompounds = new Set([firstCompound]);
  const before = await storeSnapshot(base);

  // 2. The disk fills up while an upload runs (kazius.csv: 4069 structures to parse, seconds of
  //    work; filling the tmpfs takes milliseconds): its progress writes fail without stopping it,
  //    its result cannot be written, nor its final state — which it serves from memory.
  const r = await uploadFile(base, readFileSync(KAZIUS), "kazius.csv");
  assert.equal(r.status, 202, await r.clone().text());
  const task = (await r.text()).trim();
  d.fill();
  assert.equal(d.free(), 0, "the disk is full");
  const done = await waitForTask(task);
  assert.equal(done.status, 507, done.body);
  // The dataset graph, its new compounds' graphs and the task's graph: one commit.
  const failedDataset = captured(/could not write the change to <([^>]+)> and \d+ other graphs/, done.body);
  assert.ok(failedDataset.startsWith(`${base}/dataset/`), done.body);
  assert.match(done.body, diskReport(dataDir, captured(/could not write (the change to <[^>]+> and \d+ other graphs)/, done.body), "is full (ENOSPC)"));
  assert.equal((await get(failedDataset, "text/uri-list")).status, 404);
  assert.deepEqual(await storeSnapshot(base), before, "nothing of the failed upload is stored (nor seen by the SPARQL replica)");
  assert.equal((await uriList(hamster)).length, 85, "reads go on");
  assert.equal((await get(firstCompound, "chemical/x-daylight-smiles")).status, 200);

  // 3. New compounds until one cannot be written (the journal's last page may hold a few).
  let refused = await postUntilRefused(base, dataDir, NEW_SMILES, acknowledgedCompounds);
  assert.ok(!(await uriList(`${base}/compound`)).includes(refused.uri), "the refused compound is not stored");

  // Space returns: the task's final state is written by itself (the replica sees it), and the
  // compound refused before is stored now — no restart.
  d.release();
  await taskWritten(base, task);
  const stored = await postCompound(base, refused.smiles);
  assert.equal(stored.status, 201, await stored.clone().text());
  acknowledgedCompounds.add(refused.uri);

  // 4. Full again while an upload runs, then a crash: the service starts on the full disk
  //    (the interrupted task's state cannot be written), serves everything acknowledged (the
  //    first task's 507 report too) and still refuses with 507.
  const second = await uploadFile(base, readFileSync(KAZIUS), "kazius.csv");
  assert.equal(second.status, 202, await second.clone().text());
  const interrupted = (await second.text()).trim();
  d.fill();
  const refusedAgain = await postUntilRefused(base, dataDir, NEW_SMILES, acknowledgedCompounds);
  const whenFull = await storeSnapshot(base);
  const compoundsWhenFull = (await uriList(`${base}/compound`)).sort();
  for (const c of acknowledgedCompounds) assert.ok(compoundsWhenFull.includes(c), c);
  await crashAndRestart(srv);
  assert.deepEqual(await storeSnapshot(base), whenFull);
  assert.deepEqual((await uriList(`${base}/compound`)).sort(), compoundsWhenFull);
  const again = await postCompound(base, refusedAgain.smiles);
  assert.equal(again.status, 507);
  assert.match((await again.text()).trim(), diskReport(dataDir, `the change to <${refusedAgain.uri}>`, "is full (ENOSPC)"));
  const failedTask = await waitForTask(task);
  assert.equal(failedTask.status, 507, "the task's 507 report was written when space returned");
  assert.equal(failedTask.body, done.body);
  const interruptedReport = await waitForTask(interrupted);
  assert.equal(interruptedReport.status, 500);
  assert.match(interruptedReport.body, /^500 InternalError: interrupted by restart/, "served from memory: the disk could not take it");
  refused = refusedAgain;

  // 5. Read-only at start-up (a remount read-only needs the journal closed: the server is down).
  await crashAndRestart(srv, () => d.remount("ro"));
  let writable = false;
  try {
    assert.match(srv.output(), new RegExp(`the disk holding ${esc(dataDir)} is read-only \\(EROFS\\)`), "the start-up log says so");
    assert.equal((await uriList(hamster)).length, 85);
    const ro = await postCompound(base, refused.smiles);
    assert.equal(ro.status, 507);
    assert.match((await ro.text()).trim(), diskReport(dataDir, `the change to <${refused.uri}>`, "is read-only (EROFS)"));
    const upload = await uploadFile(base, readFileSync(HAMSTER), "hamster_carcinogenicity.csv", "file", "text/plain");
    assert.equal(upload.status, 507, "no task can be created");
    assert.match((await upload.text()).trim(), /^507 InsufficientStorage: could not write the change to <[^>]+\/task\/[^>]+> to .*is read-only \(EROFS\)/);
    d.remount("rw");
    writable = true;
  } finally {
    if (!writable) d.remount("rw");
  }
  d.release();
  await assertServesNormally(base);
  await taskWritten(base, interrupted);
  const now = await postCompound(base, refused.smiles);
  assert.equal(now.status, 201, "the compound refused before is stored now");
  acknowledgedCompounds.add(refused.uri);
  const datasets = await uriList(`${base}/dataset`);
  assert.equal(datasets.length, 2, "hamster, and hamster again from assertServesNormally");
  const acknowledged = await storeSnapshot(base);
  const compounds = (await uriList(`${base}/compound`)).sort();

  // 6. A crash: exactly what was acknowledged.
  await crashAndRestart(srv);
  assert.deepEqual(await storeSnapshot(base), acknowledged);
  assert.deepEqual((await uriList(`${base}/compound`)).sort(), compounds);
  for (const c of acknowledgedCompounds) assert.ok(compounds.includes(c), `${c} is still there`);
  for (const ds of datasets) assert.equal((await uriList(ds)).length, 85);
  assert.equal((await get(failedDataset, "text/uri-list")).status, 404);
  assert.equal((await waitForTask(task)).status, 507);
  assert.match((await waitForTask(interrupted)).body, /^500 InternalError: interrupted by restart/);
  await srv.stop();
});
