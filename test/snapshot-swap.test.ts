/**
 * A rebuild swaps the snapshot folder under a running server. Until the reader takes the new
 * manifest, every read must come from the snapshot it opened: never an index of one snapshot
 * with the data of the next (which would serve corrupt bytes).
 */
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SnapshotReader } from "../api/_core/snapshot-reader.js";
import { createDiskWriter } from "../build/output-writer.js";
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
    "films/f.json": JSON.stringify([{ ...films, title }, { ...films, id: "film-2", title: `${title} II` }]),
    "attributes/a.ndjson": toNdjson([attributes, { ...attributes, id: "lang-en", kind: "language", name: "English" }]),
    "showtimes/s.ndjson": toNdjson([showtimes]),
  });
  const result = await runBuild({ dataDir, output: createDiskWriter(out) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
}

test("reads stay in the opened snapshot until its manifest is taken again", async () => {
  const out = path.join(work, "snapshot");
  await buildWithTitle(out, "Before");
  const reader = new SnapshotReader(out, { recheckMs: 60_000 });
  reader.manifest();
  await buildWithTitle(out, "After");
  // Nothing was read from the packs before the swap: this is the first look at them.
  const body = reader.body({ kind: "one", resource: "films", id: "film-1" });
  expect(JSON.parse(gunzipSync(body!.gzip).toString()).data.title).toBe("Before");
  const fresh = new SnapshotReader(out);
  expect(JSON.parse(gunzipSync(fresh.body({ kind: "one", resource: "films", id: "film-1" })!.gzip).toString()).data.title).toBe("After");
});
