/**
 * Checksummed reads (architecture: "Every byte is checked"): a snapshot file with any byte changed
 * answers every request exactly as the intact snapshot does, or with a 503 database_unavailable
 * whose logged error names the file — never a wrong page, a 404 for a record that exists, a 500 or
 * a garbled gzip body. And a manifest is parsed strictly: an older format asks for a rebuild.
 */
import { cpSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { SHOWTIME_SECTIONS } from "../api/_core/format/layout/sections.js";
import { PagedFileWriter } from "../api/_core/format/primitives/paged-file.js";
import { fileAccess } from "../api/_core/gate/access.js";
import { createHandler, type CoreResponse } from "../api/_core/handle-request.js";
import { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { DATA_FILES, MANIFEST_FILE } from "../api/_core/format/primitives/files.js";
import { encodeManifest, parseManifest, type Manifest } from "../api/_core/format/layout/manifest.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import {
  buildDataset,
  createRandom,
  generateDataset,
  SHOWS_FROM,
  formatInstant,
  type Dataset,
} from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

let root: string;
let accessFile: string;
let intact: string;
let dataset: Dataset;

beforeAll(async () => {
  root = makeTempDir("integrity");
  accessFile = writeAccessFile(root);
  intact = path.join(root, "intact");
  // Few cinemas and films: their clusters span several blocks.
  dataset = generateDataset({ seed: 41, showtimes: 700, cinemas: 1, films: 1 });
  await buildDataset(dataset, root, intact);
});
afterAll(() => removeDir(root));

interface Served {
  status: number;
  etag?: string;
  encoding?: string;
  body: Buffer;
}

function open(dir: string, errors: unknown[] = []) {
  const handle = createHandler({
    snapshots: new SnapshotSource(dir),
    access: fileAccess(accessFile),
    now: () => TEST_NOW,
    onError: (_requestId, error) => errors.push(error),
  });
  return async (url: string, gzip: boolean): Promise<Served> => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${KEYS.bulk}`,
      ...(gzip ? { "accept-encoding": "gzip" } : {}),
    };
    const res: CoreResponse = await handle({ method: "GET", url, headers });
    // An error body carries its own request id: the one part that differs between two equal answers.
    const body =
      res.status === 200 || res.status === 304
        ? Buffer.from(res.body)
        : Buffer.from(res.body.toString().replace(/"requestId":"[^"]+"/, '"requestId":"-"'));
    const served = { status: res.status, etag: res.headers.etag, encoding: res.headers["content-encoding"], body };
    res.release?.();
    return served;
  };
}

/** Stored pages and get-ones, composed pages of every view, and answers that hinge on a lookup (404s, empty lists). */
async function urlsToAsk(): Promise<string[]> {
  const st = dataset.showtimes;
  const enc = encodeURIComponent;
  const after = enc(formatInstant(SHOWS_FROM + 3 * 3600, "", 0));
  const base = [
    "/v1/showtimes",
    "/v1/cinemas",
    "/v1/films",
    "/v1/attributes",
    "/v1/showtimes?limit=100",
    `/v1/showtimes?cinemaId=${enc(st[0]!.cinemaId)}&startsAfter=${after}&limit=100`,
    `/v1/showtimes?cinemaId=${enc(st[1]!.cinemaId)}`,
    `/v1/showtimes?filmId=${enc(st[2]!.filmId)}&startsAfter=${after}&limit=100`,
    `/v1/showtimes?cinemaId=${enc(st[3]!.cinemaId)}&filmId=${enc(st[3]!.filmId)}`,
    `/v1/cinemas/${enc(dataset.cinemas[4]!.id)}`,
    `/v1/films/${enc(dataset.films[5]!.id)}`,
    "/v1/cinemas/no-such-cinema",
    "/v1/films/no-such-film",
    "/v1/showtimes?cinemaId=no-such-cinema",
  ];
  // Page 2 of the stored list and of a composed one, by the cursors the intact snapshot issues.
  const ask = open(intact);
  for (const url of ["/v1/showtimes", `/v1/showtimes?filmId=${enc(st[2]!.filmId)}&limit=30`]) {
    const { nextCursor } = JSON.parse((await ask(url, false)).body.toString()).pagination;
    base.push(`${url}${url.includes("?") ? "&" : "?"}cursor=${nextCursor}`);
  }
  return base;
}

/** Offsets to corrupt in a file of `size` bytes: its ends, its footer and seeded positions between. */
function offsetsIn(size: number, seed: number): number[] {
  const rng = createRandom(seed);
  const spread = Array.from({ length: 24 }, () => rng.int(size));
  return [
    ...new Set(
      [0, 1, size - 1, size - 8, size - 20, size - 32, size - 40, ...spread].filter((at) => at >= 0 && at < size),
    ),
  ];
}

describe("a snapshot file with one byte changed", () => {
  let urls: string[];
  const baseline = new Map<string, Served>();
  const key = (url: string, gzip: boolean) => `${gzip ? "gzip" : "identity"} ${url}`;

  beforeAll(async () => {
    urls = await urlsToAsk();
    const ask = open(intact);
    for (const url of urls) for (const gzip of [false, true]) baseline.set(key(url, gzip), await ask(url, gzip));
  });

  test("the intact snapshot answers every URL asked (the baseline is worth comparing with)", () => {
    // 200 for every URL in both codings, but the two unknown ids (an unknown filter value is an empty 200).
    const unknown = new Set(["/v1/cinemas/no-such-cinema", "/v1/films/no-such-film"]);
    const statuses = Object.fromEntries([...baseline].map(([asked, served]) => [asked, served.status]));
    const expected = Object.fromEntries(
      urls.flatMap((url) => [false, true].map((gzip) => [key(url, gzip), unknown.has(url) ? 404 : 200])),
    );
    expect(statuses).toEqual(expected);
  });

  test.each([MANIFEST_FILE, ...DATA_FILES])(
    "%s: every answer is the intact one or a 503 naming the file",
    async (file) => {
      const size = statSync(path.join(intact, file)).size;
      let detected = 0;
      for (const at of offsetsIn(size, file.length)) {
        const dir = path.join(root, `corrupt-${file}-${at}`);
        cpSync(intact, dir, { recursive: true });
        const bytes = readFileSync(path.join(dir, file));
        bytes[at] = bytes[at]! ^ 0x5a;
        writeFileSync(path.join(dir, file), bytes);
        const errors: unknown[] = [];
        const ask = open(dir, errors);
        for (const url of urls) {
          for (const gzip of [false, true]) {
            const served = await ask(url, gzip);
            const where = `${file} byte ${at}: ${key(url, gzip)}`;
            if (served.status === 503) {
              expect(JSON.parse(served.body.toString()).error.code, where).toBe("database_unavailable");
              const logged = errors.at(-1);
              expect(logged, where).toBeInstanceOf(SnapshotError);
              expect((logged as SnapshotError).file, where).toBe(file);
              detected++;
              continue;
            }
            const want = baseline.get(key(url, gzip))!;
            expect({ ...served, body: served.body.toString("base64") }, where).toEqual({
              ...want,
              body: want.body.toString("base64"),
            });
          }
        }
        removeDir(dir);
      }
      // The requests above read every file: a change nowhere detected would mean no check ran.
      expect(detected).toBeGreaterThan(0);
    },
  );
});

describe("sections that disagree with each other, every checksum intact (a writer's bug)", () => {
  /** The zone directory's (start, length) pairs, as u32 values, changed by `tamper` when written. */
  async function buildWithZoneDirectory(name: string, tamper: (pairs: number[]) => number[]): Promise<string> {
    const dir = path.join(root, name);
    const add = PagedFileWriter.prototype.add;
    const spy = vi.spyOn(PagedFileWriter.prototype, "add").mockImplementation(function (
      this: PagedFileWriter,
      section,
      bytes,
    ) {
      if (section !== SHOWTIME_SECTIONS.zones) return add.call(this, section, bytes);
      const pairs = tamper([...new Uint32Array(Uint8Array.from(bytes).buffer)]);
      return add.call(this, section, new Uint8Array(Uint32Array.from(pairs).buffer));
    });
    try {
      await buildDataset(dataset, root, dir, `${name}-data`);
    } finally {
      spy.mockRestore();
    }
    return dir;
  }

  test("zone lists one showtime short of the showtimes: the build's own read of its output refuses them", async () => {
    const short = (pairs: number[]) => pairs.map((v, i) => (i === pairs.length - 1 ? v - 1 : v));
    await expect(buildWithZoneDirectory("zones-short", short)).rejects.toThrow(
      new SnapshotError("index.pages", "position lists do not match the showtimes"),
    );
  });

  test(
    "a zone list more than the zone table: a local day is a 503 naming index.pages, other pages are " + "served",
    async () => {
      const dir = await buildWithZoneDirectory("zones-extra", (pairs) => [...pairs, pairs.at(-2)! + pairs.at(-1)!, 0]);
      const errors: unknown[] = [];
      const ask = open(dir, errors);
      const day = dataset.showtimes[0]!.startsAt.slice(0, 10);
      const dated = await ask(`/v1/showtimes?date=${day}`, false);
      expect([(await ask("/v1/showtimes", false)).status, dated.status]).toEqual([200, 503]);
      expect(JSON.parse(dated.body.toString()).error.code).toBe("database_unavailable");
      expect(errors.at(-1)).toEqual(
        new SnapshotError("index.pages", "its showtimes by zone do not match its time zones"),
      );
    },
  );
});

describe("manifest.json", () => {
  const valid = (): Manifest => parseManifest(readFileSync(path.join(intact, MANIFEST_FILE), "utf8"));
  const encoded = (change: (m: Record<string, unknown>) => void) => {
    const m = structuredClone(valid()) as unknown as Record<string, unknown>;
    change(m);
    return encodeManifest(m as unknown as Manifest).toString();
  };

  test("as written parses back to what was written", () => {
    expect(parseManifest(encodeManifest(valid()).toString())).toEqual(valid());
  });

  test.each<[string, () => string, RegExp]>([
    ["format 2 (an older build)", () => encoded((m) => (m.format = 2)), /format 2.*rebuild the snapshot/],
    ["format 3 (the previous format)", () => encoded((m) => (m.format = 3)), /format 3.*rebuild the snapshot/],
    ["format 5 (a newer build)", () => encoded((m) => (m.format = 5)), /format 5.*rebuild/],
    ["format as a string", () => encoded((m) => (m.format = "3")), /format "3"/],
    ["no format", () => encoded((m) => delete m.format), /format undefined/],
    [
      "its checksum changed",
      () =>
        encodeManifest(valid())
          .toString()
          .replace(/"checksum": \d+/, '"checksum": 1'),
      /checksum/,
    ],
    [
      "a field changed after the checksum",
      () =>
        encodeManifest(valid())
          .toString()
          .replace(/"defaultLimit": 25/, '"defaultLimit": 26'),
      /checksum/,
    ],
    ["a snapshotId of 31 hex digits", () => encoded((m) => (m.snapshotId = "a".repeat(31))), /wrong shape/],
    ["defaultLimit 0", () => encoded((m) => (m.defaultLimit = 0)), /wrong shape/],
    ["a negative count", () => encoded((m) => ((m.counts as Record<string, number>).films = -1)), /wrong shape/],
    [
      "a fractional byte count",
      () => encoded((m) => ((m.files as Record<string, { bytes: number }>)["records.blocks"]!.bytes = 1.5)),
      /wrong shape/,
    ],
    [
      "a data file not listed",
      () => encoded((m) => delete (m.files as Record<string, unknown>)["bodies.index"]),
      /wrong shape/,
    ],
    ["freshness without observedAt", () => encoded((m) => (m.freshness = {})), /wrong shape/],
    ["not JSON", () => "{", /not JSON/],
    ["an array", () => "[3]", /not a JSON object/],
  ])("with %s is refused", (_label, text, reason) => {
    expect(() => parseManifest(text())).toThrow(reason);
  });

  test("a data file whose size differs from the manifest's is a 503 naming it", async () => {
    const dir = path.join(root, "short-file");
    cpSync(intact, dir, { recursive: true });
    const file = path.join(dir, "records.blocks");
    writeFileSync(file, readFileSync(file).subarray(1));
    const errors: unknown[] = [];
    expect((await open(dir, errors)("/v1/showtimes", false)).status).toBe(503);
    expect(String(errors[0])).toMatch(/records\.blocks: has \d+ bytes, manifest\.json says \d+/);
  });

  test.each([2, 3])(
    "a format-%i snapshot is a 503 for every request, and the error logged says to rebuild",
    async (format) => {
      const dir = path.join(root, `format-${format}`);
      cpSync(intact, dir, { recursive: true });
      writeFileSync(
        path.join(dir, MANIFEST_FILE),
        encoded((m) => (m.format = format)),
      );
      const errors: unknown[] = [];
      const ask = open(dir, errors);
      for (const url of ["/v1/showtimes", "/v1/cinemas/cin-0", "/v1/showtimes?limit=3"])
        expect((await ask(url, false)).status).toBe(503);
      expect(errors).toHaveLength(3);
      for (const error of errors)
        expect(String(error)).toMatch(
          new RegExp(
            `manifest\\.json: is snapshot format ${format}, this server reads format 4: ` +
              "rebuild the snapshot \\(npm run build\\)",
          ),
        );
    },
  );
});
