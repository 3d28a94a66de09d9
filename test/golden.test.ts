/**
 * Golden snapshot of the build output for test/fixtures/golden (v1 issue §4, STYLE 11).
 *
 * After an intended change to the output, re-record with
 *     npx vitest run -u test/golden.test.ts
 * and review the diff of test/golden/ like any other code change.
 *
 * Bodies are stored pretty-printed for readable diffs; the test also checks each raw body is
 * compact canonical JSON, so the pretty form pins the bytes, and files.txt pins each body's
 * ETag (a hash of its identity bytes). Gzip bytes are not pinned: zlib's output may differ by
 * CPU and Node version, so body files are listed by identity size and the manifest's
 * snapshotId (a digest of every written byte) is masked.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeBodyFile, etagOf } from "../api/_core/body-file.js";
import { decodeCursor } from "../api/_core/cursor.js";
import { findInPackIndex, listPackIndex } from "../api/_core/keyed-pack.js";
import { BODY_PACK, bodyKeyOf, MANIFEST_FILE, packFiles, VIEW_PACK, viewKeyOf, type BodyKey, type KeyedPackFiles, type ListResource, type ViewFilters } from "../api/_core/layout.js";
import { createDiskWriter } from "../build/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { fixtureRecords, GOLDEN_FIXTURE, listFiles, makeTempDir, removeDir } from "./helpers/build-helpers.js";

let work: string;
let snapshot: string;

interface Body {
  etag: string;
  raw: string;
  json: { data: unknown; pagination?: { nextCursor: string | null; hasMore: boolean } };
}

/** A value of a keyed pack by its key, read the way the server finds it. */
function readPacked(files: KeyedPackFiles, key: Buffer): Buffer {
  const index = readFileSync(path.join(snapshot, files.index));
  const slot = findInPackIndex((offset, length) => index.subarray(offset, offset + length), key);
  if (!slot) throw new Error(`no entry ${key.toString("hex")} in ${files.index}`);
  return readFileSync(path.join(snapshot, files.data)).subarray(slot.offset, slot.offset + slot.length);
}

function readBody(key: BodyKey): Body {
  const stored = decodeBodyFile(readPacked(BODY_PACK, bodyKeyOf(key)));
  const raw = gunzipSync(stored.gzip).toString("utf8");
  return { etag: stored.etag, raw, json: JSON.parse(raw) };
}

const pretty = (body: Body) => `${JSON.stringify(body.json, null, 2)}\n`;

/** Every list the build must precompute: four lists, then a view per cinema, film and pair (v1 issue §4). */
function expectedLists(): Array<{ resource: ListResource; filters: ViewFilters; label: string }> {
  const lists = (["cinemas", "films", "showtimes", "attributes"] as const).map((resource) => ({ resource, filters: {}, label: resource }));
  const views = new Map<string, ViewFilters>();
  for (const s of fixtureRecords("showtimes")) {
    const [cinemaId, filmId] = [s.cinemaId as string, s.filmId as string];
    views.set(JSON.stringify([cinemaId, null]), { cinemaId });
    views.set(JSON.stringify([null, filmId]), { filmId });
    views.set(JSON.stringify([cinemaId, filmId]), { cinemaId, filmId });
  }
  const labelOf = (f: ViewFilters) => ["showtimes", f.cinemaId && `cinemaId=${JSON.stringify(f.cinemaId)}`, f.filmId && `filmId=${JSON.stringify(f.filmId)}`].filter(Boolean).join(" ");
  return [...lists, ...[...views.values()].map((filters) => ({ resource: "showtimes" as const, filters, label: labelOf(filters) }))];
}

/** Labels every entry the body and view packs should hold, following nextCursor from each first page. */
function labelEntries(): { bodies: Map<string, string>; views: Map<string, string> } {
  const bodies = new Map<string, string>();
  const views = new Map<string, string>();
  for (const { resource, filters, label } of expectedLists()) {
    if (filters.cinemaId || filters.filmId) views.set(viewKeyOf(filters).toString("hex"), `view ${label}`);
    let after: string[] | null = null;
    for (let page = 1; ; page++) {
      const key: BodyKey = { kind: "page", resource, filters, after };
      bodies.set(bodyKeyOf(key).toString("hex"), `page ${page} of ${label}`);
      const next: string | null = readBody(key).json.pagination!.nextCursor;
      if (next === null) break;
      after = decodeCursor(next)!.after;
    }
  }
  for (const resource of ["cinemas", "films"] as const) {
    for (const record of fixtureRecords(resource)) bodies.set(bodyKeyOf({ kind: "one", resource, id: record.id as string }).toString("hex"), `one ${resource} ${JSON.stringify(record.id)}`);
  }
  return { bodies, views };
}

/** The files every snapshot holds, whatever its data. */
function expectedFiles(): Map<string, string> {
  const labels = new Map<string, string>([[MANIFEST_FILE, "manifest"]]);
  for (const resource of ["cinemas", "films", "showtimes", "attributes"] as const) {
    for (const [part, file] of Object.entries(packFiles(resource))) labels.set(file, `pack ${resource} ${part}`);
  }
  for (const [name, files] of [["bodies", BODY_PACK], ["views", VIEW_PACK]] as const) {
    labels.set(files.data, `${name} data`);
    labels.set(files.index, `${name} index`);
  }
  return labels;
}

beforeAll(async () => {
  work = makeTempDir("golden");
  snapshot = path.join(work, "snapshot");
  const result = await runBuild({ dataDir: GOLDEN_FIXTURE, output: createDiskWriter(snapshot) });
  if (!result.ok) throw new Error(`the golden fixture is invalid:\n${JSON.stringify(result.problems, null, 2)}`);
});
afterAll(() => removeDir(work));

describe("golden build of test/fixtures/golden", () => {
  test("the file list: every file accounted for, with sizes", async () => {
    const labels = expectedFiles();
    const files = listFiles(snapshot);
    expect(files).toEqual([...labels.keys()].sort());
    const lines = files.map((file) => {
      // The body pack holds gzip bytes, which zlib may vary by CPU and version: its entries are pinned below.
      const size = file === BODY_PACK.data ? "(gzip bytes, see bodies.txt)" : `${readFileSync(path.join(snapshot, file)).length} bytes`;
      return `${file.padEnd(30)} ${size}  ${labels.get(file)}`;
    });
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("golden/files.txt");
  });

  test("the body and view packs: every entry accounted for, each body with its size and ETag", async () => {
    const labels = labelEntries();
    const describe = (files: KeyedPackFiles, expected: Map<string, string>, line: (value: Buffer) => string) => {
      const entries = listPackIndex(readFileSync(path.join(snapshot, files.index)));
      expect(entries.map((e) => e.key), `entries of ${files.index}`).toEqual([...expected.keys()].sort());
      const data = readFileSync(path.join(snapshot, files.data));
      const end = entries.reduce((max, e) => Math.max(max, e.offset + e.length), 0);
      expect(end, `${files.data} holds exactly its entries`).toBe(data.length);
      return entries.map((e) => `${e.key.slice(0, 12)}  ${line(data.subarray(e.offset, e.offset + e.length))}  ${expected.get(e.key)}`);
    };
    const bodies = describe(BODY_PACK, labels.bodies, (value) => {
      const stored = decodeBodyFile(value);
      const identity = gunzipSync(stored.gzip);
      expect(stored.etag, "every body carries the ETag of its bytes").toBe(etagOf(identity));
      return `${String(identity.length).padStart(5)} bytes identity, etag ${stored.etag}`;
    });
    const views = describe(VIEW_PACK, labels.views, (value) => `${String(value.length / 4).padStart(3)} showtimes`);
    await expect(`${[...bodies, ...views].join("\n")}\n`).toMatchFileSnapshot("golden/bodies.txt");
  });

  test("manifest.json (snapshotId masked: it digests gzip bytes)", async () => {
    const manifest = JSON.parse(readFileSync(path.join(snapshot, MANIFEST_FILE), "utf8")) as { snapshotId: string };
    expect(manifest.snapshotId).toMatch(/^[0-9a-f]{32}$/);
    manifest.snapshotId = "<digest>";
    await expect(`${JSON.stringify(manifest, null, 2)}\n`).toMatchFileSnapshot("golden/manifest.json");
  });

  const FIRST_PAGES: Array<[string, ListResource, ViewFilters]> = [
    ["cinemas-page-1", "cinemas", {}],
    ["films-page-1", "films", {}],
    ["attributes-page-1", "attributes", {}],
    ["showtimes-page-1", "showtimes", {}],
    ["showtimes-grand-rex-page-1", "showtimes", { cinemaId: "fr/paris/Le Grand Rex ★" }],
  ];

  test.each(FIRST_PAGES)("%s", async (name, resource, filters) => {
    const body = readBody({ kind: "page", resource, filters, after: null });
    expect(JSON.stringify(body.json), "bodies are compact canonical JSON").toBe(body.raw);
    await expect(pretty(body)).toMatchFileSnapshot(`golden/${name}.json`);
  });

  test("showtimes-page-2: reached through page 1's cursor, starting after the tie-break by id", async () => {
    const first = readBody({ kind: "page", resource: "showtimes", filters: {}, after: null });
    const cursor = decodeCursor(first.json.pagination!.nextCursor!)!;
    // st-tie-a and st-tie-b share an instant; the page boundary falls between them, by id.
    expect(cursor.after[1]).toBe("st-tie-a");
    const second = readBody({ kind: "page", resource: "showtimes", filters: {}, after: cursor.after });
    expect(JSON.stringify(second.json)).toBe(second.raw);
    expect(second.json.pagination).toEqual({ nextCursor: null, hasMore: false });
    await expect(pretty(second)).toMatchFileSnapshot("golden/showtimes-page-2.json");
  });

  test("cinema-grand-rex: a get-one whose id holds '/', spaces and Unicode", async () => {
    const body = readBody({ kind: "one", resource: "cinemas", id: "fr/paris/Le Grand Rex ★" });
    expect(JSON.stringify(body.json)).toBe(body.raw);
    await expect(pretty(body)).toMatchFileSnapshot("golden/cinema-grand-rex.json");
  });
});
