/**
 * A rebuild swaps the snapshot folder under a running server. Until the source takes the new
 * manifest, every read must come from the snapshot it opened: never an index of one snapshot
 * with the data of the next (which would serve corrupt bytes). A build killed between the two
 * renames of its swap leaves the old snapshot aside, and whoever opens the folder next (a server,
 * a build) puts it back (decision: a build's swap). A rebuilt snapshot that cannot be opened is
 * not taken: the one in service stays, and the operator's log says so and why; each snapshot taken
 * into service is a log line with its id and counts (docs/operations.md, "Logs").
 */
import { cpSync, existsSync, readdirSync, renameSync, truncateSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createOperationLog } from "../api/_core/log/request-log.js";
import { RECORDS_FILE } from "../api/_core/format/primitives/files.js";
import { startServer } from "../scripts/server/local-server.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { bodyKeyOf } from "../api/_core/format/layout/body-index.js";
import type { Snapshot } from "../api/_core/format/read/snapshot.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { makeTempDir, removeDir, runScript, toNdjson, validRecords, writeFiles } from "./helpers/build-helpers.js";

let work: string;
beforeAll(() => {
  work = makeTempDir("swap");
});
afterAll(() => removeDir(work));

/** A data folder whose film is titled `title`. */
function dataWithTitle(title: string): string {
  const { cinemas, films, attributes, showtimes } = validRecords();
  const dataDir = path.join(work, `data-${title}`);
  writeFiles(dataDir, {
    "cinemas/c.json": JSON.stringify([cinemas]),
    "films/f.json": JSON.stringify([
      { ...films, title },
      { ...films, id: "film-2", title: `${title} II` },
    ]),
    "attributes/a.ndjson": toNdjson([attributes, { ...attributes, id: "lang-en", kind: "language", name: "English" }]),
    "showtimes/s.ndjson": toNdjson([showtimes]),
  });
  return dataDir;
}

/** A dataset whose film is titled `title`, built into `out` (swapping out what was there). */
async function buildWithTitle(out: string, title: string): Promise<void> {
  const result = await runBuild({ dataDir: dataWithTitle(title), output: createDiskWriter(out) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
}

/** The title of film-1 as the snapshot's stored get-one says it. */
function titleIn(snapshot: Snapshot): string {
  const address = snapshot.bodies.find(bodyKeyOf({ kind: "one", resource: "films", id: "film-1" }))!;
  return JSON.parse(gunzipSync(snapshot.bodies.read(address).gzip).toString()).data.title;
}

test("reads stay in the opened snapshot until its manifest is taken again", async () => {
  const out = path.join(work, "snapshot");
  await buildWithTitle(out, "Before");
  const source = new SnapshotSource(out, { recheckMs: 60_000 });
  const opened = source.current();
  await buildWithTitle(out, "After");
  // Nothing was read from the data files before the swap: this is the first look at them.
  expect(titleIn(opened)).toBe("Before");
  expect(source.current(), "within recheckMs the source keeps its snapshot").toBe(opened);
  expect(titleIn(new SnapshotSource(out).current())).toBe("After");
});

test("once recheckMs has passed, the source opens the new snapshot", async () => {
  const out = path.join(work, "rechecked");
  await buildWithTitle(out, "First");
  const source = new SnapshotSource(out, { recheckMs: 0 });
  const first = source.current();
  await buildWithTitle(out, "Second");
  const second = source.current();
  expect(second).not.toBe(first);
  expect(titleIn(second)).toBe("Second");
  expect(second.manifest.snapshotId).not.toBe(first.manifest.snapshotId);
});

test("a build killed between its two renames: the server's open and the next build find the old snapshot", async () => {
  const out = path.join(work, "killed");
  await buildWithTitle(out, "Old");
  const oldId = new SnapshotSource(out).current().manifest.snapshotId;
  const killed = await runScript("test/helpers/build-killed-at-swap.ts", [dataWithTitle("New"), out]);
  expect(killed.code, killed.stderr).toBeNull();
  // What the kill left: no snapshot at --out, the old one aside, the new one staged.
  expect(existsSync(out)).toBe(false);
  const left = readdirSync(work).filter((name) => name.startsWith("killed."));
  const aside = left.find((name) => name.startsWith("killed.previous-"))!;
  expect(left.map((name) => name.replace(/-\d+-[0-9a-z]+$/, "")).sort()).toEqual(["killed.previous", "killed.staging"]);
  // The same state at a second folder, for the next build (the server puts the first one back).
  const second = path.join(work, "killed-second");
  cpSync(path.join(work, aside), path.join(work, aside.replace("killed", "killed-second")), { recursive: true });

  const served = new SnapshotSource(out).current();
  expect([titleIn(served), served.manifest.snapshotId]).toEqual(["Old", oldId]);

  const next = await runBuild({
    dataDir: dataWithTitle("Next"),
    output: createDiskWriter(path.join(work, "next")),
    previous: second,
  });
  expect(next.ok && "history" in next.report && next.report.history).toMatchObject({ generation: 1 });
  expect(readdirSync(second)).toContain("manifest.json");

  // A build into the folder clears what the killed one left beside it.
  await buildWithTitle(out, "Later");
  expect(readdirSync(work).filter((name) => name.startsWith("killed."))).toEqual([]);
});

/** Builds `title` into `out`, then cuts its records file short: a rebuilt snapshot that cannot be opened. */
async function buildBroken(out: string, title: string): Promise<void> {
  await buildWithTitle(out, title);
  truncateSync(path.join(out, RECORDS_FILE), 10);
}

test("a source says when it takes a snapshot into service, and once when a rebuilt one cannot be", async () => {
  const out = path.join(work, "observed");
  await buildWithTitle(out, "Kept");
  const serving: string[] = [];
  const notTaken: Array<[string, string]> = [];
  const source = new SnapshotSource(out, {
    recheckMs: 0,
    onServing: (snapshot) => serving.push(snapshot.manifest.snapshotId),
    onNotTaken: (problem, kept) => notTaken.push([problem.message, kept.manifest.snapshotId]),
  });
  const kept = source.current();
  expect(serving).toEqual([kept.manifest.snapshotId]);
  await buildBroken(out, "Broken");
  expect(source.current(), "the snapshot in service stays").toBe(kept);
  expect(source.current(), "looked at again: still the one in service").toBe(kept);
  expect(titleIn(source.current())).toBe("Kept");
  expect(notTaken).toEqual([[expect.stringMatching(/^records\.blocks: /), kept.manifest.snapshotId]]);
  await buildWithTitle(out, "Next");
  const next = source.current();
  expect(titleIn(next)).toBe("Next");
  expect(serving).toEqual([kept.manifest.snapshotId, next.manifest.snapshotId]);
  expect(notTaken).toHaveLength(1);
});

type LogLine = Record<string, any>;

/** A pino destination that keeps each line, and a wait for the first line with a message (and that `matches`). */
function capturedLog() {
  const lines: LogLine[] = [];
  const waiting: Array<{ wanted: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  const destination = {
    write(text: string) {
      const line = JSON.parse(text);
      lines.push(line);
      for (const wait of waiting.filter((w) => w.wanted(line))) wait.resolve(line);
    },
  };
  const lineWith = (msg: string, matches: (line: LogLine) => boolean = () => true) =>
    new Promise<LogLine>((resolve) => {
      const wanted = (line: LogLine) => line.msg === msg && matches(line);
      const found = lines.find(wanted);
      if (found) resolve(found);
      else waiting.push({ wanted, resolve });
    });
  return { destination, lineWith };
}

/**
 * A rebuild of `out` whose records file is cut short, put in place with the build's two renames
 * once it is broken: a server looking every few ms never sees it whole. Between the renames the
 * folder holds no manifest, which such a server may say too.
 */
async function swapInBroken(out: string, title: string): Promise<void> {
  const next = `${out}.next`;
  await buildBroken(next, title);
  renameSync(out, `${out}.old`);
  renameSync(next, out);
}

const NOT_TAKEN = "the rebuilt snapshot cannot be served; the previous one stays in service";

test("the local server logs each snapshot it serves, and a rebuild it cannot open while the last stays", async () => {
  const out = path.join(work, "served");
  await buildWithTitle(out, "Served");
  const captured = capturedLog();
  const log = await createOperationLog({ level: "info", destination: captured.destination });
  const { server, url } = await startServer({
    snapshotDir: out,
    accessFile: writeAccessFile(work),
    port: 0,
    now: () => TEST_NOW,
    snapshotLog: log,
    snapshotRecheckMs: 10,
  });
  try {
    const first = new SnapshotSource(out).current().manifest;
    expect(await captured.lineWith("snapshot in service")).toEqual({
      level: "info",
      time: expect.any(String),
      snapshotId: first.snapshotId,
      ...first.counts,
      msg: "snapshot in service",
    });
    await swapInBroken(out, "Unreadable");
    const cutShort = (line: LogLine) => String(line.snapshot).startsWith("records.blocks:");
    expect(await captured.lineWith(NOT_TAKEN, cutShort)).toEqual({
      level: "error",
      time: expect.any(String),
      snapshot: expect.stringMatching(/^records\.blocks: has 10 bytes, manifest\.json says \d+$/),
      snapshotId: first.snapshotId,
      msg: NOT_TAKEN,
    });
    const response = await fetch(`${url}/v1/films/film-1`, { headers: { authorization: `Bearer ${KEYS.valid}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { title: string } }).data.title).toBe("Served");
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
