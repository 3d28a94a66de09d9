/**
 * A rebuild swaps the snapshot folder under a running server. Until the source takes the new
 * manifest, every read must come from the snapshot it opened: never an index of one snapshot
 * with the data of the next (which would serve corrupt bytes).
 */
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { bodyKeyOf } from "../api/_core/format/layout/body-index.js";
import type { Snapshot } from "../api/_core/format/read/snapshot.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { makeTempDir, removeDir, toNdjson, validRecords, writeFiles } from "./helpers/build-helpers.js";

let work: string;
beforeAll(() => {
  work = makeTempDir("swap");
});
afterAll(() => removeDir(work));

/** A dataset whose film is titled `title`, built into `out` (swapping out what was there). */
async function buildWithTitle(out: string, title: string): Promise<void> {
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
  const result = await runBuild({ dataDir, output: createDiskWriter(out) });
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
