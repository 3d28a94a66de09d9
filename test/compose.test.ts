/**
 * The two serving paths agree (decision: stored and composed pages): every stored page is
 * byte-identical to the page the core composes from the snapshot's lists for the same request.
 * And cursors are keyset positions (decision: pagination): one issued before a rebuild keeps
 * working after it, resuming after the last record it served, skipping nothing that still
 * exists, even when that record is gone.
 */
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { contentTag } from "../api/_core/respond/body-tag.js";
import { composePage } from "../api/_core/compose/compose-page.js";
import { bindingOf, decodeCursor } from "../api/_core/tokens/cursor.js";
import type { ListResource } from "../api/_core/format/layout/manifest.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { bodyKeyOf } from "../api/_core/format/layout/body-index.js";
import { createHandler } from "../api/_core/handle-request.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { GOLDEN_FIXTURE, makeTempDir, removeDir } from "./helpers/build-helpers.js";
import {
  buildDataset,
  compareInstants,
  expectedList,
  generateDataset,
  type AnyRecord,
  type Dataset,
  type Showtime,
  sortRecords,
} from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

let root: string;
beforeAll(() => {
  root = makeTempDir("compose");
});
afterAll(() => removeDir(root));

describe("stored and composed pages", () => {
  test("are byte-identical for every stored page, and a stored page's tag is the tag of its bytes", async () => {
    const dataset = generateDataset({ seed: 99, showtimes: 110 });
    const snapshotDir = path.join(root, "identical");
    await buildDataset(dataset, root, snapshotDir, "data-identical");
    const snapshot = new SnapshotSource(snapshotDir).current();
    let pages = 0;
    for (const resource of ["cinemas", "films", "showtimes", "attributes"] as const) {
      let after: string[] | null = null;
      do {
        const address = snapshot.bodies.find(bodyKeyOf({ kind: "page", resource, after }));
        expect(address, `${resource} after ${JSON.stringify(after)} is stored`).toBeDefined();
        const stored = snapshot.bodies.read(address!);
        const identity = gunzipSync(stored.gzip);
        const list = snapshot.lists.list(resource);
        const composed = composePage(
          snapshot.lists,
          list,
          { after: after ?? undefined, limit: 25, binding: bindingOf(resource) },
          snapshot.manifest.freshness,
        );
        expect(composed.toString(), `${resource} after ${JSON.stringify(after)}`).toBe(identity.toString());
        expect(stored.etag).toBe(contentTag(identity));
        const next: string | null = JSON.parse(identity.toString()).pagination.nextCursor;
        after = next === null ? null : decodeCursor(next)!.after;
        pages++;
      } while (after !== null);
    }
    // Showtimes alone take 5 pages of 25: the loop really walked every list to its end.
    expect(pages).toBe(5 + 1 + 1 + 1);
    snapshot.close();
  });
});

/** Sort-key comparison of the oracle: showtimes by instant then id, the rest by id. */
function isAfter(resource: ListResource, record: AnyRecord, last: AnyRecord): boolean {
  if (resource === "showtimes") {
    const order = compareInstants((record as Showtime).startsAt, (last as Showtime).startsAt);
    if (order !== 0) return order > 0;
  }
  return record.id > last.id;
}

/** A 200 page from the core, asked with the bulk key. */
async function getPage(handle: ReturnType<typeof createHandler>, url: string) {
  const res = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
  expect(res.status, `${url}: ${res.body.toString()}`).toBe(200);
  return JSON.parse(res.body.toString()) as { data: AnyRecord[]; pagination: { nextCursor: string | null } };
}

describe("a cursor across a rebuild", () => {
  const snapshotDir = () => path.join(root, "rebuilt");
  let before: Dataset;
  let handle: ReturnType<typeof createHandler>;
  const get = (url: string) => getPage(handle, url);

  beforeAll(async () => {
    before = generateDataset({ seed: 5, showtimes: 60 });
    await buildDataset(before, root, snapshotDir(), "data-before");
    handle = createHandler({
      snapshots: new SnapshotSource(snapshotDir()),
      access: fileAccess(writeAccessFile(root)),
      now: () => TEST_NOW,
    });
  });

  /** Pages to the end with one cursor; returns the records served after it. */
  async function drain(resource: ListResource, query: string, cursor: string | null): Promise<AnyRecord[]> {
    const served: AnyRecord[] = [];
    while (cursor !== null) {
      const page = await get(`/v1/${resource}?${query}${query ? "&" : ""}limit=7&cursor=${cursor}`);
      served.push(...page.data);
      cursor = page.pagination.nextCursor;
    }
    return served;
  }

  test("resumes after the last record served, though it was removed, with additions on both sides", async () => {
    const first = await get("/v1/showtimes?limit=10");
    const cinemasFirst = await get("/v1/cinemas?limit=5");
    const last = first.data.at(-1) as Showtime;
    const lastCinema = cinemasFirst.data.at(-1)!;
    const sorted = sortRecords("showtimes", before.showtimes);
    // Additions must not refer to the cinema the rebuild removes; a served end is not a source field.
    const cinemaId = before.cinemas.find((c) => c.id !== lastCinema.id)!.id;
    const add = ({ endsAt: _, ...from }: Showtime & { endsAt?: string }, patch: Partial<Showtime>): Showtime => ({
      ...from,
      cinemaId,
      ...patch,
    });
    const after: Dataset = {
      ...before,
      cinemas: before.cinemas
        .filter((c) => c.id !== lastCinema.id)
        .concat([{ ...before.cinemas[0]!, id: `${lastCinema.id}~added` }]),
      showtimes: [
        // Removed: the last record served, one before it and one after it.
        ...sorted.filter(
          (s) => ![last.id, sorted[3]!.id, sorted[40]!.id].includes(s.id) && s.cinemaId !== lastCinema.id,
        ),
        add(last, { id: `${last.id}~later-twin` }), // same instant, greater id: after the cursor
        add(last, { id: `!${last.id}` }), // same instant, smaller id: before it
        add(sorted[0]!, { id: "added-first", startsAt: "2026-11-01T00:00Z" }),
        add(sorted[0]!, { id: "added-last", startsAt: "2027-01-01T00:00Z" }),
        add(sorted[20]!, { id: "added-middle" }),
      ],
    };
    await buildDataset(after, root, snapshotDir(), "data-after");

    const resumed = await drain("showtimes", "", first.pagination.nextCursor);
    expect(resumed).toEqual(expectedList(after, "showtimes").filter((s) => isAfter("showtimes", s, last)));
    expect(resumed.map((s) => s.id)).toEqual(
      expect.arrayContaining([`${last.id}~later-twin`, "added-last", "added-middle"]),
    );
    expect(resumed.map((s) => s.id)).not.toContain(`!${last.id}`);

    const cinemas = await drain("cinemas", "", cinemasFirst.pagination.nextCursor);
    expect(cinemas).toEqual(expectedList(after, "cinemas").filter((c) => isAfter("cinemas", c, lastCinema)));
    expect(cinemas[0]!.id).toBe(`${lastCinema.id}~added`);
  });

  test("a filtered cursor whose view vanished in the rebuild gives an empty last page, not an error", async () => {
    const film = before.films.find((f) => before.showtimes.filter((s) => s.filmId === f.id).length >= 2)!;
    await buildDataset(before, root, snapshotDir(), "data-again");
    const first = await get(`/v1/showtimes?filmId=${encodeURIComponent(film.id)}&limit=1`);
    expect(first.pagination.nextCursor).not.toBeNull();
    const without: Dataset = {
      ...before,
      films: before.films.filter((f) => f.id !== film.id),
      showtimes: before.showtimes.filter((s) => s.filmId !== film.id),
    };
    await buildDataset(without, root, snapshotDir(), "data-without");
    const page = await get(`/v1/showtimes?filmId=${encodeURIComponent(film.id)}&cursor=${first.pagination.nextCursor}`);
    expect(page).toMatchObject({ data: [], pagination: { nextCursor: null, hasMore: false } });
  });
});

/**
 * Cursors issued by a format-2 server (this fixture, served by the last format-2 build): each URL
 * with the nextCursor its first page carried, and that page's last record.
 */
const FORMAT_2_CURSORS: Array<[url: string, cursor: string, lastId: string]> = [
  [
    "/v1/showtimes?limit=7",
    "I9toi6IF6fDcyZ1XWzEsIlcteW5YcTVsdFczRG1MYjMiLCIwMTAxNzcyODIwMDAwIiwic3QtZ2ItMDMwNi0xODAwIl0",
    "st-gb-0306-1800",
  ],
  ["/v1/showtimes", "1er-44fRMjdShmJbWzEsIlcteW5YcTVsdFczRG1MYjMiLCIwMTAxNzcyOTA4MjAwIiwic3QtdGllLWEiXQ", "st-tie-a"],
  [
    "/v1/showtimes?cinemaId=gb-lon-prince-charles&limit=3",
    "HUsYpCzMu0xTOde2WzEsInk5eWpRb0MtNzRaR1EtR28iLCIwMTAxNzcyODIwMDAwIiwic3QtZ2ItMDMwNi0xODAwIl0",
    "st-gb-0306-1800",
  ],
  [
    "/v1/showtimes?filmId=film-arrival-2016&startsAfter=2026-03-06T00:00Z&limit=2",
    "nOelRltOvtOCmZOGWzEsImF4cDRDLUJndHVjTzFESlgiLCIwMTAxNzcyODAzODAwIiwic3QtZGUtMDMwNi0xNDMwIl0",
    "st-de-0306-1430",
  ],
  ["/v1/cinemas?limit=1", "Oof_V1odKFb2O3b2WzEsIkRKQmwtbG1ITlpPZG5mUmQiLCJkZS1iZXItZGVscGhpIl0", "de-ber-delphi"],
  [
    "/v1/films?limit=2",
    "PAHwl2FjWxtgPOkVWzEsInBvVVB3eXlveHhLOU1sTHgiLCJmaWxtLWFycml2YWwtMjAxNiJd",
    "film-arrival-2016",
  ],
  ["/v1/attributes?limit=3", "0BMGUFpkDmpvF2hTWzEsImxMU1FjMUVlS0hfZFc5d2ciLCJldmVudC1wcmVtaWVyZSJd", "event-premiere"],
];

describe("a cursor issued by a format-2 snapshot", () => {
  let handle: ReturnType<typeof createHandler>;
  const get = (url: string) => getPage(handle, url);

  beforeAll(async () => {
    const snapshotDir = path.join(root, "golden");
    const result = await runBuild({ dataDir: GOLDEN_FIXTURE, output: createDiskWriter(snapshotDir), gzipWorkers: 0 });
    expect(result.ok).toBe(true);
    handle = createHandler({
      snapshots: new SnapshotSource(snapshotDir),
      access: fileAccess(writeAccessFile(root)),
      now: () => TEST_NOW,
    });
  });

  test.each(FORMAT_2_CURSORS)(
    "%s: continues where the format-2 page ended, as the format-3 cursor does",
    async (url, cursor, lastId) => {
      const first = await get(url);
      expect(first.data.at(-1)!.id).toBe(lastId);
      const withCursor = (c: string) => `${url}${url.includes("?") ? "&" : "?"}cursor=${c}`;
      const resumed = await get(withCursor(cursor));
      // The records right after lastId in the whole list (the fixture's lists fit in a page of 100).
      const query = new URL(url, "http://x").searchParams;
      const limit = Number(query.get("limit") ?? 25);
      query.set("limit", "100");
      const all = (await get(`${url.split("?")[0]}?${query}`)).data.map((r) => r.id);
      const at = all.indexOf(lastId);
      expect(resumed.data.map((r) => r.id)).toEqual(all.slice(at + 1, at + 1 + limit));
      expect(resumed).toEqual(await get(withCursor(first.pagination.nextCursor!)));
    },
  );
});

describe("a composed page's entity tag", () => {
  const snapshotDir = () => path.join(root, "tags");
  let handle: ReturnType<typeof createHandler>;
  const request = (url: string, headers: Record<string, string> = {}) =>
    handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}`, ...headers } });

  beforeAll(async () => {
    await buildDataset(generateDataset({ seed: 21, showtimes: 60 }), root, snapshotDir(), "data-tags-a");
    handle = createHandler({
      snapshots: new SnapshotSource(snapshotDir()),
      access: fileAccess(writeAccessFile(root)),
      now: () => TEST_NOW,
    });
  });

  test("is the same on every request for the page in one snapshot, and a match is a 304 carrying it", async () => {
    const url = "/v1/showtimes?limit=7&startsAfter=2026-11-30T00:00Z";
    const first = await request(url);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const again = await request(url);
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.headers.etag).toBe(first.headers.etag);
    // The same page asked with its parameters in another order: the same page, the same tag.
    const reordered = await request("/v1/showtimes?startsAfter=2026-11-30T00:00Z&limit=7");
    expect(reordered.body.equals(first.body)).toBe(true);
    expect(reordered.headers.etag).toBe(first.headers.etag);
    const revalidated = await request(url, { "if-none-match": first.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(first.headers.etag);
  });

  test("differs between pages of one snapshot", async () => {
    const tags = new Set<string>();
    for (const url of [
      "/v1/showtimes?limit=7",
      "/v1/showtimes?limit=8",
      "/v1/showtimes?limit=7&startsAfter=2026-11-30T00:00Z",
      "/v1/cinemas?limit=2",
    ]) {
      tags.add((await request(url)).headers.etag!);
    }
    expect(tags.size).toBe(4);
  });

  test("a small body's 304 names the identity coding its 200 was sent in, though gzip is accepted", async () => {
    const url = "/v1/showtimes?limit=1&startsAfter=2026-11-30T00:00Z";
    const first = await request(url, { "accept-encoding": "gzip" });
    // Too small to be worth compressing: sent as identity.
    expect(first.headers["content-encoding"]).toBeUndefined();
    const revalidated = await request(url, { "accept-encoding": "gzip", "if-none-match": first.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(first.headers.etag);
  });

  test(
    "a URL asked again is kept, and from then on served from the cache in any coding, reading no " + "record",
    async () => {
      const source = new SnapshotSource(snapshotDir());
      const cached = createHandler({
        snapshots: source,
        access: fileAccess(writeAccessFile(root)),
        now: () => TEST_NOW,
      });
      const get = async (headers: Record<string, string> = {}) =>
        cached({
          method: "GET",
          url: "/v1/showtimes?limit=20",
          headers: { authorization: `Bearer ${KEYS.bulk}`, ...headers },
        });
      const reads = vi.spyOn(source.current().lists.showtimes, "render");
      const first = await get();
      // Asked once, a URL is only remembered; asked again, its page is composed once more and kept.
      const second = await get();
      expect(reads).toHaveBeenCalledTimes(2);
      const again = await get();
      const gzipped = await get({ "accept-encoding": "gzip" });
      expect(reads).toHaveBeenCalledTimes(2);
      for (const body of [second.body, again.body]) expect(body.equals(first.body)).toBe(true);
      expect(gzipped.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzipped.body).equals(first.body)).toBe(true);
      expect(gzipped.headers.etag).toBe(first.headers.etag!.replace(/"$/, '-gzip"'));
    },
  );

  test("a page composed in a lent buffer stays intact until released, whatever is composed meanwhile", async () => {
    const handle = createHandler({
      snapshots: new SnapshotSource(snapshotDir()),
      access: fileAccess(writeAccessFile(root)),
      now: () => TEST_NOW,
    });
    const get = async (url: string) =>
      handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
    const first = await get("/v1/showtimes?limit=30");
    const copy = Buffer.from(first.body);
    expect(first.release).toBeTypeOf("function");
    // Not released: the next page must go into another buffer.
    const second = await get("/v1/showtimes?limit=31");
    expect(first.body.equals(copy)).toBe(true);
    expect(second.body.equals(copy)).toBe(false);
    // Released: its buffer may be reused, and the next page is still right.
    first.release!();
    second.release!();
    const third = await get("/v1/showtimes?limit=30");
    expect(third.body.equals(copy)).toBe(true);
  });

  test("changes when a rebuild changes the snapshot, though the URL was seen before", async () => {
    const url = "/v1/showtimes?limit=5&startsAfter=2026-11-30T00:00Z";
    const before = await request(url);
    const dataset = generateDataset({ seed: 22, showtimes: 60 });
    await buildDataset(dataset, root, snapshotDir(), "data-tags-b");
    const after = await request(url);
    expect(after.status).toBe(200);
    expect(after.body.equals(before.body)).toBe(false);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await request(url, { "if-none-match": before.headers.etag! })).status).toBe(200);
  });
});
