/**
 * Golden snapshot of the build output for test/fixtures/golden: the files a build writes, pinned.
 *
 * After an intended change to the output, re-record with
 *     npx vitest run -u test/golden.test.ts
 * and review the diff of test/golden/ like any other code change.
 *
 * Bodies are stored pretty-printed for readable diffs; the test also checks each raw body is
 * compact canonical JSON, so the pretty form pins the bytes, and bodies.txt pins each stored
 * body's ETag (a hash of its identity bytes). Compressed bytes are not pinned: zlib's output may
 * differ by CPU and Node version, so record blocks are listed by their decoded size, stored
 * bodies by their identity size, and the manifest's snapshotId and file digests are masked.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { contentTag } from "../api/_core/respond/body-tag.js";
import { composeListInto } from "../api/_core/compose/compose-list.js";
import { composePage } from "../api/_core/compose/compose-page.js";
import { bindingOf, decodeCursor } from "../api/_core/tokens/cursor.js";
import {
  BODIES_FILE,
  BODY_INDEX_FILE,
  HISTORY_FILE,
  INDEX_FILE,
  MANIFEST_FILE,
  RECORDS_FILE,
} from "../api/_core/format/primitives/files.js";
import type { ListResource } from "../api/_core/format/layout/manifest.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { readManifest, Snapshot } from "../api/_core/format/read/snapshot.js";
import { bodyKeyOf, type BodyKey } from "../api/_core/format/layout/body-index.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { parseListRequest } from "../api/_core/endpoints/parse-request.js";
import { runBuild } from "../build/run-build.js";
import { fixtureRecords, GOLDEN_FIXTURE, listFiles, makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { expectedList, type Dataset } from "./helpers/dataset.js";

let work: string;
let snapshotDir: string;
let snapshot: Snapshot;

interface Body {
  raw: string;
  json: { data: unknown; pagination?: { nextCursor: string | null; hasMore: boolean } };
}

function parse(bytes: Buffer): Body {
  const raw = bytes.toString("utf8");
  return { raw, json: JSON.parse(raw) };
}

/** A stored body, read the way the server finds it. */
function storedBody(key: BodyKey): Body & { etag: string } {
  const address = snapshot.bodies.find(bodyKeyOf(key));
  if (!address) throw new Error(`no stored body for ${JSON.stringify(key)}`);
  const stored = snapshot.bodies.read(address);
  return { ...parse(gunzipSync(stored.gzip)), etag: stored.etag };
}

/** A page the core composes for a list request's query (filtered lists are not stored). */
function composedPage(resource: ListResource, rawQuery: string): Body {
  const out = new PageBuffer();
  composeListInto(snapshot.lists, parseListRequest(resource, rawQuery), snapshot.manifest.freshness, out);
  return parse(out.finish());
}

const pretty = (body: Body) => `${JSON.stringify(body.json, null, 2)}\n`;

/** Labels every stored body the snapshot should hold, following nextCursor from each first page. */
function expectedBodies(): Map<string, string> {
  const labels = new Map<string, string>();
  for (const resource of ["cinemas", "films", "showtimes", "attributes"] as const) {
    let after: string[] | null = null;
    for (let page = 1; ; page++) {
      const key: BodyKey = { kind: "page", resource, after };
      labels.set(bodyKeyOf(key).toString("hex"), `page ${page} of ${resource}`);
      const next: string | null = storedBody(key).json.pagination!.nextCursor;
      if (next === null) break;
      after = decodeCursor(next)!.after;
    }
  }
  for (const resource of ["cinemas", "films"] as const) {
    for (const record of fixtureRecords(resource))
      labels.set(
        bodyKeyOf({ kind: "one", resource, id: record.id as string }).toString("hex"),
        `one ${resource} ${JSON.stringify(record.id)}`,
      );
  }
  return labels;
}

beforeAll(async () => {
  work = makeTempDir("golden");
  snapshotDir = path.join(work, "snapshot");
  const result = await runBuild({ dataDir: GOLDEN_FIXTURE, output: createDiskWriter(snapshotDir) });
  if (!result.ok) throw new Error(`the golden fixture is invalid:\n${JSON.stringify(result.problems, null, 2)}`);
  snapshot = new Snapshot(readManifest(snapshotDir), snapshotDir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
});
afterAll(() => {
  snapshot?.close();
  removeDir(work);
});

describe("golden build of test/fixtures/golden", () => {
  test("the file list: six files, with sizes", async () => {
    const files = listFiles(snapshotDir);
    expect(files).toEqual([BODIES_FILE, BODY_INDEX_FILE, HISTORY_FILE, INDEX_FILE, MANIFEST_FILE, RECORDS_FILE].sort());
    const sizes: Record<string, string> = {
      [BODIES_FILE]: "(gzip bytes, see bodies.txt)",
      [RECORDS_FILE]: "(may hold deflate bytes, see blocks.txt)",
      [MANIFEST_FILE]: "(digests of the others, see manifest.json)",
    };
    const lines = files.map(
      (file) => `${file.padEnd(16)} ${sizes[file] ?? `${readFileSync(path.join(snapshotDir, file)).length} bytes`}`,
    );
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("golden/files.txt");
  });

  test("index.pages: every section, with its size", async () => {
    const sections = [
      ...(snapshot.lists.cinemas as unknown as { index: { sections: Map<string, { length: number }> } }).index.sections,
    ];
    const lines = sections.map(([name, { length }]) => `${name.padEnd(32)} ${String(length).padStart(6)} bytes`);
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("golden/sections.txt");
  });

  test("records.blocks: every block, its cinema, records and decoded size; the records are the fixture's", async () => {
    const names = {
      byCinema: fixtureRecords("cinemas")
        .map((c) => c.id as string)
        .sort(),
    };
    const films = fixtureRecords("films")
      .map((f) => f.id as string)
      .sort();
    const lines = (["byCinema"] as const).flatMap((clustering) =>
      snapshot.lists.showtimes
        .describeBlocks(clustering)
        .map(
          (b) =>
            `${clustering.padEnd(8)}  records ${String(b.firstRecord).padStart(2)}..` +
            `${String(b.firstRecord + b.count - 1).padStart(2)}  ${String(b.bytes).padStart(5)} bytes  ` +
            `${b.attributeSets.length} attribute sets  ${JSON.stringify(names[clustering][b.cluster])}`,
        ),
    );
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("golden/blocks.txt");
    // Every showtime, rendered from the blocks, is the fixture's record in canonical form, with its
    // end where its film has a running time (decision: showtime ends).
    const fixture = {
      cinemas: fixtureRecords("cinemas"),
      films: fixtureRecords("films"),
      showtimes: fixtureRecords("showtimes"),
    } as unknown as Dataset;
    const all = snapshot.lists.list("showtimes");
    const rendered = JSON.parse(
      composePage(
        snapshot.lists,
        all,
        { limit: 100, binding: bindingOf("showtimes") },
        snapshot.manifest.freshness,
      ).toString(),
    ).data as unknown[];
    expect(rendered.map((s) => JSON.stringify(s)).sort()).toEqual(
      expectedList(fixture, "showtimes")
        .map((s) => JSON.stringify(s))
        .sort(),
    );
    // And each film's list, read through its positions, holds that film's records in list order
    // (decision: ordering), the first 25 of them.
    for (const film of films) {
      const page = JSON.parse(composedPage("showtimes", `filmId=${encodeURIComponent(film)}`).raw).data as unknown[];
      expect(page, film).toEqual(expectedList(fixture, "showtimes", { filmId: film }).slice(0, 25));
    }
  });

  test("bodies.blocks: every stored body accounted for, with its size and ETag", async () => {
    const labels = expectedBodies();
    const entries = snapshot.bodies.entries();
    expect(entries.map((e) => e.key)).toEqual([...labels.keys()].sort());
    const lines = entries.map((entry) => {
      const stored = snapshot.bodies.read(entry);
      const identity = gunzipSync(stored.gzip);
      expect(stored.etag, "every body carries the ETag of its bytes").toBe(contentTag(identity));
      return (
        `${entry.key.slice(0, 12)}  ${String(identity.length).padStart(5)} bytes identity, ` +
        `etag ${stored.etag}  ${labels.get(entry.key)}`
      );
    });
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("golden/bodies.txt");
  });

  test("manifest.json (snapshotId and digests masked: they digest compressed bytes)", async () => {
    const manifest = JSON.parse(readFileSync(path.join(snapshotDir, MANIFEST_FILE), "utf8"));
    expect(manifest.snapshotId).toMatch(/^[0-9a-f]{32}$/);
    manifest.snapshotId = "<digest>";
    manifest.checksum = "<checksum>";
    for (const file of Object.values(manifest.files) as Array<{ digest: unknown }>) file.digest = "<digest>";
    manifest.files[BODIES_FILE].bytes = "<bytes>";
    manifest.files[RECORDS_FILE].bytes = "<bytes>";
    await expect(`${JSON.stringify(manifest, null, 2)}\n`).toMatchFileSnapshot("golden/manifest.json");
  });

  const FIRST_PAGES: Array<[string, ListResource]> = [
    ["cinemas-page-1", "cinemas"],
    ["films-page-1", "films"],
    ["attributes-page-1", "attributes"],
    ["showtimes-page-1", "showtimes"],
  ];

  test.each(FIRST_PAGES)("%s: stored, and the same bytes as the page the core composes", async (name, resource) => {
    const body = storedBody({ kind: "page", resource, after: null });
    expect(JSON.stringify(body.json), "bodies are compact canonical JSON").toBe(body.raw);
    expect(composedPage(resource, "").raw).toBe(body.raw);
    await expect(pretty(body)).toMatchFileSnapshot(`golden/${name}.json`);
  });

  test("showtimes-grand-rex-page-1: a cinema's page, composed from its cluster", async () => {
    const body = composedPage("showtimes", `cinemaId=${encodeURIComponent("fr/paris/Le Grand Rex ★")}`);
    expect(JSON.stringify(body.json)).toBe(body.raw);
    await expect(pretty(body)).toMatchFileSnapshot("golden/showtimes-grand-rex-page-1.json");
  });

  test("showtimes-page-2: reached through page 1's cursor, starting after the tie-break by id", async () => {
    const first = storedBody({ kind: "page", resource: "showtimes", after: null });
    const cursor = decodeCursor(first.json.pagination!.nextCursor!)!;
    // st-tie-a and st-tie-b share an instant; the page boundary falls between them, by id.
    expect(cursor.after[1]).toBe("st-tie-a");
    const second = storedBody({ kind: "page", resource: "showtimes", after: cursor.after });
    expect(JSON.stringify(second.json)).toBe(second.raw);
    expect(second.json.pagination).toEqual({ nextCursor: null, hasMore: false });
    await expect(pretty(second)).toMatchFileSnapshot("golden/showtimes-page-2.json");
  });

  test("cinema-grand-rex: a get-one whose id holds '/', spaces and Unicode", async () => {
    const body = storedBody({ kind: "one", resource: "cinemas", id: "fr/paris/Le Grand Rex ★" });
    expect(JSON.stringify(body.json)).toBe(body.raw);
    await expect(pretty(body)).toMatchFileSnapshot("golden/cinema-grand-rex.json");
  });
});
