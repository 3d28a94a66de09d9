/**
 * The changes feed's contract (decision: changes feed), case by case: a full copy, an empty catch-up
 * with the same token, the 410 of a token too old, foreign or from a rolled-back future, the 400 of
 * a malformed one, cursors bound to `since` and `limit`, a cursor outliving its snapshot, pages
 * kept under 4 MB, and builds that change nothing keeping the snapshot and the token.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { instantKeyOf } from "../api/_core/format/primitives/date-time.js";
import { ChangesFeed, type FeedPosition } from "../api/_core/format/query/changes.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { FreshnessFold } from "../api/_core/format/read/freshness.js";
import { readManifest, Snapshot } from "../api/_core/format/read/snapshot.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler } from "../api/_core/handle-request.js";
import { decodeSyncToken } from "../api/_core/tokens/sync-token.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { makeTempDir, removeDir, runBuildCli } from "./helpers/build-helpers.js";
import { type Dataset, formatInstant, generateDataset, SHOWS_FROM, writeDataset } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("feed");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

interface Body {
  data: Array<{ op: string; type: string; id: string; record?: Record<string, unknown> }>;
  pagination: { nextCursor: string | null; hasMore: boolean };
  syncToken: string | null;
  dropBefore: string | null;
  error?: { code: string; details?: Record<string, unknown> };
}

async function build(
  dataset: Dataset,
  out: string,
  options: {
    previous?: string;
    keep?: { generations: number; days: number };
    dropBefore?: string;
    /** Body workers; any: the history stage scans the previous snapshot in a worker too. */
    workers?: number;
  } = {},
) {
  const dataDir = makeTempDir("feed-data");
  writeDataset(dataDir, dataset);
  const result = await runBuild({
    dataDir,
    output: createDiskWriter(out),
    previous: options.previous,
    keep: options.keep,
    dropBefore:
      options.dropBefore === undefined
        ? undefined
        : { text: options.dropBefore, key: instantKeyOf(options.dropBefore) },
    gzipLevel: 1,
    gzipWorkers: options.workers ?? 0,
  });
  removeDir(dataDir);
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
  if ("markets" in result) throw new Error("the dataset has no markets.json");
  return result;
}

function serve(dir: string): (url: string) => Promise<{ status: number; body: Body }> {
  const handle: Handler = createHandler({
    snapshots: new SnapshotSource(dir),
    access: fileAccess(accessFile),
    now: () => TEST_NOW,
  });
  return async (url) => {
    const response = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
    return { status: response.status, body: JSON.parse(Buffer.from(response.body).toString()) };
  };
}

/** Every page of a sync: the changes in order, and the token of the last page. */
async function drain(get: ReturnType<typeof serve>, query: string) {
  const changes: Body["data"] = [];
  const pages: Body[] = [];
  let cursor: string | null = null;
  do {
    const { status, body } = await get(`/v1/changes?${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(status, JSON.stringify(body)).toBe(200);
    pages.push(body);
    changes.push(...body.data);
    cursor = body.pagination.nextCursor;
  } while (cursor);
  return { changes, pages, token: pages.at(-1)!.syncToken! };
}

const base = generateDataset({ seed: 11, showtimes: 40, cinemas: 2, films: 2 });

describe("a full copy", () => {
  test(
    "every record once, as an upsert, attributes, cinemas and films before showtimes; the token on the " +
      "last page only",
    async () => {
      const dir = path.join(root, "full");
      await build(base, dir);
      const { changes, pages } = await drain(serve(dir), "limit=7");
      const count = base.cinemas.length + base.films.length + base.attributes.length + base.showtimes.length;
      expect(changes).toHaveLength(count);
      expect(new Set(changes.map((c) => `${c.type}/${c.id}`)).size).toBe(count);
      expect(changes.every((c) => c.op === "upsert")).toBe(true);
      const firstShowtime = changes.findIndex((c) => c.type === "showtime");
      expect(changes.slice(firstShowtime).every((c) => c.type === "showtime")).toBe(true);
      expect(pages.slice(0, -1).every((p) => p.syncToken === null && p.pagination.hasMore)).toBe(true);
      expect(pages.at(-1)!.pagination).toEqual({ nextCursor: null, hasMore: false });
      expect(pages.every((p) => p.data.length <= 7)).toBe(true);
    },
  );

  test("catching up on the snapshot in service: an empty page and the same token", async () => {
    const dir = path.join(root, "same");
    await build(base, dir);
    const get = serve(dir);
    const { token } = await drain(get, "limit=5000");
    const { status, body } = await get(`/v1/changes?since=${token}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      data: [],
      pagination: { nextCursor: null, hasMore: false },
      syncToken: token,
      dropBefore: null,
    });
  });
});

describe("tokens", () => {
  test.each([
    ["garbage", "not-a-token"],
    ["a token with one character changed", "CHANGED"],
    ["too long", "a".repeat(300)],
  ])("%s is a 400 naming since", async (_, value) => {
    const dir = path.join(root, "tokens");
    await build(base, dir);
    const get = serve(dir);
    const { token } = await drain(get, "limit=5000");
    const since =
      value === "CHANGED" ? `${token.slice(0, -2)}${token.endsWith("A") ? "B" : "A"}${token.slice(-1)}` : value;
    const { status, body } = await get(`/v1/changes?since=${since}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "bad_request", details: { parameter: "since" } });
  });

  const expired = { code: "not_found", details: { reason: "sync_token_expired", restart: "/v1/changes" } };

  test("a token older than the history kept is a 410 that says to start a full copy", async () => {
    const dir = path.join(root, "retention");
    const keep = { generations: 1, days: 0 };
    await build(base, dir, { keep });
    const first = (await drain(serve(dir), "limit=5000")).token;
    let dataset = base;
    for (let k = 1; k <= 3; k++) {
      // A day later each time (a build's time is its drop-before instant), with a showtime gone.
      dataset = { ...dataset, showtimes: dataset.showtimes.slice(1) };
      await build(dataset, dir, {
        previous: dir,
        keep,
        dropBefore: formatInstant(SHOWS_FROM - (4 - k) * 86_400, "", 0),
      });
    }
    const { status, body } = await serve(dir)(`/v1/changes?since=${first}`);
    expect(status).toBe(410);
    expect(body.error).toMatchObject(expired);
  });

  test("a token of a history that began afresh is a 410", async () => {
    const dir = path.join(root, "restarted");
    await build(base, dir);
    const token = (await drain(serve(dir), "limit=5000")).token;
    await build({ ...base, showtimes: base.showtimes.slice(3) }, dir);
    const { status, body } = await serve(dir)(`/v1/changes?since=${token}`);
    expect(status).toBe(410);
    expect(body.error).toMatchObject(expired);
  });

  /** Builds `dataset` with the CLI into `out` as an operator rebuilds in place: no --previous. */
  async function rebuildInPlace(dataset: Dataset, out: string, ...flags: string[]) {
    const data = makeTempDir("in-place-data");
    writeDataset(data, dataset);
    const result = await runBuildCli(["--data", data, "--out", out, "--quiet", ...flags]);
    removeDir(data);
    expect(result.code, result.stderr).toBe(0);
    return result;
  }

  test("a rebuild in place (--out holds the snapshot in service, no --previous) carries its history", async () => {
    const dir = path.join(root, "in-place");
    await build(base, dir);
    const token = (await drain(serve(dir), "limit=5000")).token;
    const rebuilt = await rebuildInPlace({ ...base, showtimes: base.showtimes.slice(3) }, dir);
    expect(rebuilt.stdout).toContain("history: generation 1 (0 records changed, 3 deletions)");
    const { changes } = await drain(serve(dir), `since=${token}`);
    const gone = base.showtimes.slice(0, 3).map((s) => `delete ${s.id}`);
    expect(changes.map((c) => `${c.op} ${c.id}`).sort()).toEqual(gone.sort());
  });

  test("--new-history begins a history afresh in place: the old tokens are 410s", async () => {
    const dir = path.join(root, "in-place-new");
    await build(base, dir);
    const token = (await drain(serve(dir), "limit=5000")).token;
    const rebuilt = await rebuildInPlace({ ...base, showtimes: base.showtimes.slice(3) }, dir, "--new-history");
    expect(rebuilt.stdout).toContain("history: begun afresh at generation 0 (--new-history)");
    const { status, body } = await serve(dir)(`/v1/changes?since=${token}`);
    expect(status).toBe(410);
    expect(body.error).toMatchObject(expired);
  });

  test("a token from a later snapshot than the one serving (a rollback) is a 410", async () => {
    const [older, newer] = [path.join(root, "older"), path.join(root, "newer")];
    await build(base, older);
    await build({ ...base, showtimes: base.showtimes.slice(2) }, newer, { previous: older });
    const token = (await drain(serve(newer), "limit=5000")).token;
    const { status, body } = await serve(older)(`/v1/changes?since=${token}`);
    expect(status).toBe(410);
    expect(body.error).toMatchObject(expired);
  });
});

describe("cursors", () => {
  test("bound to since and limit: another limit or token with it is a 400 naming cursor", async () => {
    const dir = path.join(root, "cursors");
    await build(base, dir);
    const get = serve(dir);
    const first = await get("/v1/changes?limit=3");
    const cursor = first.body.pagination.nextCursor!;
    expect((await get(`/v1/changes?limit=3&cursor=${cursor}`)).status).toBe(200);
    expect((await get(`/v1/changes?limit=3&cursor=${cursor}x`)).body.error).toMatchObject({
      details: { parameter: "cursor" },
    });
    const otherLimit = await get(`/v1/changes?limit=4&cursor=${cursor}`);
    expect(otherLimit.status).toBe(400);
    expect(otherLimit.body.error).toMatchObject({ details: { parameter: "cursor" } });
    const token = (await drain(get, "limit=5000")).token;
    expect((await get(`/v1/changes?since=${token}&limit=3&cursor=${cursor}`)).status).toBe(400);
    const list = await get("/v1/showtimes?limit=3");
    expect(
      (await get(`/v1/changes?limit=3&cursor=${(list.body.pagination as { nextCursor: string }).nextCursor}`)).status,
    ).toBe(400);
  });

  test("a cursor from a snapshot no longer served is a 410 pointing at the start of its sync", async () => {
    const dir = path.join(root, "stale");
    await build(base, dir);
    const before = serve(dir);
    const token = (await drain(before, "limit=5000")).token;
    const fullCursor = (await before("/v1/changes?limit=3")).body.pagination.nextCursor!;
    await build({ ...base, showtimes: base.showtimes.slice(1) }, dir, { previous: dir });
    const after = serve(dir);
    const full = await after(`/v1/changes?limit=3&cursor=${fullCursor}`);
    expect(full.status).toBe(410);
    expect(full.body.error).toMatchObject({
      code: "not_found",
      details: { reason: "sync_page_expired", restart: "/v1/changes" },
    });
    // A catch-up's cursor: restart from its own token.
    await build({ ...base, showtimes: base.showtimes.slice(2) }, dir, { previous: dir });
    const again = serve(dir);
    const catchUp = (await again(`/v1/changes?since=${token}&limit=1`)).body.pagination.nextCursor!;
    await build({ ...base, showtimes: base.showtimes.slice(3) }, dir, { previous: dir });
    const stale = await serve(dir)(`/v1/changes?since=${token}&limit=1&cursor=${catchUp}`);
    expect(stale.status).toBe(410);
    expect(stale.body.error!.details).toEqual({ reason: "sync_page_expired", restart: `/v1/changes?since=${token}` });
  });
});

describe("pages", () => {
  test("cut at any size, a catch-up's pages hold the same changes in the same order as one page", async () => {
    const dir = path.join(root, "cut");
    await build(base, dir);
    // Deletions, moved showtimes (scattered upserts) and new ones: every phase of a catch-up.
    const next: Dataset = {
      ...base,
      showtimes: [
        ...base.showtimes.slice(6).map((s, i) => (i % 5 === 0 ? { ...s, screenName: `Moved ${i}` } : s)),
        ...base.showtimes.slice(0, 3).map((s, i) => ({ ...s, id: `new-${i}` })),
      ],
    };
    const token = (await drain(serve(dir), "limit=5000")).token;
    await build(next, dir, { previous: dir });
    const snapshot = new Snapshot(readManifest(dir), dir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    try {
      const since = decodeSyncToken(token)!.generation;
      const feed = new ChangesFeed(snapshot.lists, snapshot.history, since);
      const fold = () => new FreshnessFold(snapshot.lists.dictionaries.observed, snapshot.lists.dictionaries.updated);
      const whole = new PageBuffer();
      expect(feed.writePage({ phase: 0, index: 0 }, 5000, 4_000_000, whole, fold()).next).toBeUndefined();
      const all = JSON.parse(`[${whole.lend().toString()}]`) as Body["data"];
      expect(
        new Set(all.map((c) => `${c.op} ${c.type}`)),
        JSON.stringify(all.map((c) => c.op + c.type + c.id)),
      ).toEqual(new Set(["delete showtime", "upsert showtime"]));
      for (const maxBytes of [1, 200, 700, 1500]) {
        const seen: Body["data"] = [];
        let at: FeedPosition | undefined = { phase: 0, index: 0 };
        while (at) {
          const out = new PageBuffer();
          const page = feed.writePage(at, 5000, maxBytes, out, fold());
          const changes = JSON.parse(`[${out.lend().toString()}]`) as Body["data"];
          expect(changes).toHaveLength(page.count);
          // Over the bound only when one change alone is larger.
          if (page.count > 1) expect(out.length).toBeLessThanOrEqual(maxBytes);
          seen.push(...changes);
          at = page.next;
        }
        expect(seen, `pages of at most ${maxBytes} bytes`).toEqual(all);
      }
    } finally {
      snapshot.close();
    }
  });

  test("stop before 4 MB, whatever the limit", async () => {
    const dir = path.join(root, "large");
    const url = (i: number) => `https://tickets.example.com/${String(i).padStart(2020, "x")}`;
    const big: Dataset = {
      ...base,
      showtimes: Array.from({ length: 2200 }, (_, i) => ({
        ...base.showtimes[i % 40]!,
        id: `big-${i}`,
        bookingUrl: url(i),
      })),
    };
    await build(big, dir);
    const get = serve(dir);
    let cursor: string | null = null;
    let pages = 0;
    let changes = 0;
    const ids = new Set<string>();
    do {
      const response = await createHandler({
        snapshots: new SnapshotSource(dir),
        access: fileAccess(accessFile),
        now: () => TEST_NOW,
      })({
        method: "GET",
        url: `/v1/changes?limit=5000${cursor ? `&cursor=${cursor}` : ""}`,
        headers: { authorization: `Bearer ${KEYS.bulk}` },
      });
      expect(response.body.length).toBeLessThanOrEqual(4_000_000 + 2048);
      const body = JSON.parse(Buffer.from(response.body).toString()) as Body;
      changes += body.data.length;
      for (const change of body.data) ids.add(`${change.type} ${change.id}`);
      cursor = body.pagination.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(changes).toBe(2200 + big.cinemas.length + big.films.length + big.attributes.length);
    // Each change once: none lost or repeated where a page stopped on its size.
    expect(ids.size).toBe(changes);
    void get;
  });
});

describe("builds", () => {
  test(
    "the same data with --previous is the same snapshot and the same token; a change is one more " + "generation",
    async () => {
      const dir = path.join(root, "idempotent");
      const first = await build(base, dir);
      const token = (await drain(serve(dir), "limit=5000")).token;
      const again = await build(base, dir, { previous: dir });
      expect(again.ok && again.manifest.snapshotId).toBe(first.ok && first.manifest.snapshotId);
      expect((await drain(serve(dir), "limit=5000")).token).toBe(token);
      const changed = await build({ ...base, showtimes: base.showtimes.slice(1) }, dir, { previous: dir });
      expect(changed.ok && changed.manifest.history.generation).toBe(1);
      const { changes } = await drain(serve(dir), `since=${token}`);
      expect(changes).toEqual([
        { op: "delete", type: "showtime", id: base.showtimes[0]!.id, cinemaId: base.showtimes[0]!.cinemaId },
      ]);
    },
  );

  test(
    "the history is the same whether the previous snapshot is scanned in a worker or on the build's " + "thread",
    async () => {
      const previous = path.join(root, "scan-previous");
      await build(base, previous);
      const next: Dataset = {
        ...base,
        showtimes: [
          ...base.showtimes.slice(4).map((s, i) => (i % 3 === 0 ? { ...s, screenName: `Moved ${i}` } : s)),
          { ...base.showtimes[0]!, id: "added" },
        ],
      };
      const [here, worker] = [path.join(root, "scan-here"), path.join(root, "scan-worker")];
      const a = await build(next, here, { previous });
      const b = await build(next, worker, { previous, workers: 1 });
      expect(a.report.history).toEqual(b.report.history);
      expect(a.report.history).toMatchObject({ generation: 1, deletes: 4 });
      expect(readFileSync(path.join(worker, "history.pages"))).toEqual(readFileSync(path.join(here, "history.pages")));
    },
  );

  test("the drop-before instant never moves back within a history, and what it leaves out is no deletion", async () => {
    const dir = path.join(root, "drop");
    const late = formatInstant(SHOWS_FROM + 6 * 3600, "", 0);
    await build(base, dir, { dropBefore: late });
    const token = (await drain(serve(dir), "limit=5000")).token;
    const earlier = await build(base, dir, { previous: dir, dropBefore: formatInstant(SHOWS_FROM, "", 0) });
    expect(earlier.ok && readManifest(dir).dropBefore).toBe(earlier.ok && earlier.manifest.dropBefore);
    const { changes, pages } = await drain(serve(dir), `since=${token}`);
    expect(changes).toEqual([]);
    expect(pages.at(-1)!.dropBefore! >= late.slice(0, 16)).toBe(true);
  });

  test.each([
    ["a folder that does not exist", (dir: string) => path.join(dir, "missing"), 2, /--previous .*cannot be read/],
    [
      "a snapshot of format 3",
      (dir: string) => dir,
      0,
      /history: begun afresh at generation 0 \(the previous snapshot is snapshot format 3/,
    ],
  ])("--previous, %s", async (_, previousOf, code, message) => {
    const dir = path.join(root, `previous-${code}`);
    await build(base, dir);
    const manifest = path.join(dir, "manifest.json");
    if (code === 0)
      writeFileSync(
        manifest,
        (await import("node:fs")).readFileSync(manifest, "utf8").replace('"format": 4', '"format": 3'),
      );
    const data = makeTempDir("prev-data");
    writeDataset(data, base);
    const result = await runBuildCli([
      "--data",
      data,
      "--out",
      path.join(root, `out-${code}`),
      "--previous",
      previousOf(dir),
      "--quiet",
    ]);
    removeDir(data);
    expect(result.code, result.stderr).toBe(code);
    expect(code === 0 ? result.stdout : result.stderr).toMatch(message);
  });
});
