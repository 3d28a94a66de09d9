/**
 * Request logs (docs/operations.md, "Logs"): one pino JSON line per request with the documented
 * fields, the cache outcome, never the key of spec §5; LOG_LEVEL decides whether request lines are
 * written at all.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { staticAccess } from "../api/_core/gate/access.js";
import { ServiceUnavailable } from "../api/_core/respond/errors.js";
import { createHandler, type CoreResponse } from "../api/_core/handle-request.js";
import { createOperationLog, deferredOperationLog } from "../api/_core/log/request-log.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, generateDataset } from "./helpers/dataset.js";
import { scaled } from "./helpers/deadlines.js";

const KEY = "cl_live_secretkeyvalue_do_not_log_0123456789";
const WRONG_KEY = "cl_live_wrongkeyvalue_do_not_log_9876543210";
const ACCESS = JSON.stringify({
  organizations: [{ id: "acme", entitlements: [{ plan: "paid", status: "active" }] }],
  keys: [{ id: "k1", organization: "acme", sha256: createHash("sha256").update(KEY).digest("hex"), revoked: false }],
});

/** A pino destination that keeps each line. */
function capture() {
  const lines: string[] = [];
  return {
    lines,
    destination: { write: (line: string) => void lines.push(line) },
    parsed: () => lines.map((l) => JSON.parse(l)),
  };
}

describe("request log lines", () => {
  let root: string;
  let snapshotDir: string;
  beforeAll(async () => {
    root = makeTempDir("request-log");
    snapshotDir = path.join(root, "snapshot");
    await buildDataset(generateDataset({ seed: 9, showtimes: 40 }), root, snapshotDir);
  });
  afterAll(() => removeDir(root));

  async function logged(requests: Array<{ url: string; key?: string; headers?: Record<string, string> }>) {
    const out = capture();
    const log = await createOperationLog({ level: "info", destination: out.destination });
    const handle = createHandler({
      snapshots: new SnapshotSource(snapshotDir),
      access: staticAccess(ACCESS),
      onLog: log.request,
      onError: log.error,
    });
    const responses: CoreResponse[] = [];
    for (const { url, key, headers } of requests) {
      responses.push(
        await handle({
          method: "GET",
          url,
          headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
        }),
      );
    }
    return { responses, lines: out.lines, entries: out.parsed() };
  }

  test("one line per request with every documented field", async () => {
    const { responses, entries } = await logged([
      { url: "/v1/films?limit=25", key: KEY, headers: { "accept-encoding": "gzip" } },
    ]);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      requestId: responses[0]!.headers["x-request-id"],
      organization: "acme",
      method: "GET",
      path: "/v1/films",
      status: 200,
      bytes: Number(responses[0]!.headers["content-length"]),
      durationMs: expect.any(Number),
      cache: "precomputed",
      msg: "request",
    });
  });

  test.each([
    {
      url: "/v1/showtimes?limit=3",
      headers: {},
      cache: "composed",
      reason: "a limit other than the default is composed per request",
    },
    { url: "/v1/films", headers: {}, cache: "precomputed", reason: "the default first page is stored" },
  ])("cache outcome $cache ($reason)", async ({ url, headers, cache }) => {
    const { entries } = await logged([{ url, key: KEY, headers }]);
    expect(entries[0]!.cache).toBe(cache);
  });

  test("a 304 logs not-modified and zero bytes", async () => {
    const first = await logged([{ url: "/v1/films", key: KEY }]);
    const etag = first.responses[0]!.headers.etag!;
    const { entries } = await logged([{ url: "/v1/films", key: KEY, headers: { "if-none-match": etag } }]);
    expect(entries[0]).toMatchObject({ status: 304, cache: "not-modified", bytes: 0 });
  });

  test(
    "errors have no organization without a valid key and no cache outcome; keys and queries never " + "appear",
    async () => {
      const { lines, entries } = await logged([
        { url: "/v1/films", key: WRONG_KEY },
        { url: "/v1/films" },
        { url: `/v1/films?limit=0&token=${KEY}`, key: KEY },
      ]);
      expect(entries.map((e) => [e.status, e.organization, e.cache])).toEqual([
        [401, undefined, undefined],
        [401, undefined, undefined],
        [400, "acme", undefined],
      ]);
      expect(entries[2]!.path).toBe("/v1/films");
      for (const line of lines) {
        expect(line).not.toContain(KEY);
        expect(line).not.toContain(WRONG_KEY);
        expect(line).not.toMatch(/authorization|bearer/i);
      }
    },
  );
});

describe("refusals of a known key name its organization", () => {
  const TINY = "cl_live_tiny_do_not_log_00000000000000000";
  const LAPSED = "cl_live_lapsed_do_not_log_000000000000000";
  const REVOKED = "cl_live_revoked_do_not_log_0000000000000";
  const EXPIRED = "cl_live_expired_do_not_log_0000000000000";
  const ORPHAN = "cl_live_orphan_do_not_log_00000000000000";
  const hash = (key: string) => createHash("sha256").update(key).digest("hex");
  const access = JSON.stringify({
    organizations: [
      {
        id: "tiny-co",
        entitlements: [{ plan: "paid", status: "active" }],
        rateLimit: { requests: 1, windowSeconds: 60 },
      },
      { id: "lapsed-co", entitlements: [{ plan: "paid", status: "cancelled" }] },
      { id: "paying-co", entitlements: [{ plan: "paid", status: "active" }] },
    ],
    keys: [
      { id: "t", organization: "tiny-co", sha256: hash(TINY), revoked: false },
      { id: "l", organization: "lapsed-co", sha256: hash(LAPSED), revoked: false },
      { id: "key-revoked", organization: "paying-co", sha256: hash(REVOKED), revoked: true },
      {
        id: "key-expired",
        organization: "paying-co",
        sha256: hash(EXPIRED),
        revoked: false,
        expiresAt: "2026-11-23T12:00:10Z",
      },
      { id: "key-orphan", organization: "gone-co", sha256: hash(ORPHAN), revoked: false },
    ],
  });
  let root: string;
  beforeAll(async () => {
    root = makeTempDir("request-log-refusals");
    await buildDataset(generateDataset({ seed: 9, showtimes: 10 }), root, path.join(root, "snapshot"));
  });
  afterAll(() => removeDir(root));

  test("429 and 403 carry the organization; a 401 of an unknown key has none", async () => {
    const out = capture();
    const log = await createOperationLog({ level: "info", destination: out.destination });
    const handle = createHandler({
      snapshots: new SnapshotSource(path.join(root, "snapshot")),
      access: staticAccess(access),
      now: () => new Date("2026-11-23T12:00:10Z"),
      onLog: log.request,
    });
    for (const key of [TINY, TINY, LAPSED, "cl_unknown"])
      await handle({ method: "GET", url: "/v1/films", headers: { authorization: `Bearer ${key}` } });
    expect(out.parsed().map((e) => [e.status, e.organization])).toEqual([
      [200, "tiny-co"],
      [429, "tiny-co"],
      [403, "lapsed-co"],
      [401, undefined],
    ]);
  });

  test.each([
    { key: REVOKED, keyId: "key-revoked", organization: "paying-co", keyRefused: "revoked" },
    { key: EXPIRED, keyId: "key-expired", organization: "paying-co", keyRefused: "expired", reason: "at the instant" },
    { key: ORPHAN, keyId: "key-orphan", organization: "gone-co", keyRefused: "no such organization" },
  ])("a known key refused ($keyRefused): the 401's line names its id and organization", async (known) => {
    const out = capture();
    const log = await createOperationLog({ level: "info", destination: out.destination });
    const handle = createHandler({
      snapshots: new SnapshotSource(path.join(root, "snapshot")),
      access: staticAccess(access),
      now: () => new Date("2026-11-23T12:00:10Z"),
      onLog: log.request,
    });
    const response = await handle({
      method: "GET",
      url: "/v1/films",
      headers: { authorization: `Bearer ${known.key}` },
    });
    expect(JSON.parse(response.body.toString()).error.message).toBe(
      "The API key is not valid (unknown, revoked or expired).",
    );
    const [line] = out.parsed();
    expect(line).toMatchObject({ status: 401, keyId: known.keyId, organization: known.organization });
    expect(line.keyRefused).toBe(known.keyRefused);
    expect(out.lines[0]).not.toContain(known.key);
    expect(out.lines[0]).not.toContain(hash(known.key).slice(0, 16));
  });
});

describe("LOG_LEVEL", () => {
  /** One request line's fields, as the core passes them. */
  const ENTRY = { requestId: "r-1", method: "GET", path: "/v1/films", status: 200, bytes: 1, durationMs: 1 };

  test.each([
    { level: undefined, written: ["info", "warn", "error"], reason: "info by default" },
    { level: "debug", written: ["info", "warn", "error"], reason: "more verbose includes requests" },
    { level: "INFO", written: ["info", "warn", "error"], reason: "case does not matter" },
    { level: "warn", written: ["warn", "error"], reason: "request lines are info" },
    { level: "error", written: ["error"], reason: "only failures" },
    { level: "silent", written: [], reason: "tests run silent" },
  ])("$level → lines written: $written ($reason)", async ({ level, written }) => {
    const out = capture();
    const log = await createOperationLog({ level, destination: out.destination });
    expect(log.request !== undefined).toBe(written.includes("info"));
    log.request?.(ENTRY);
    log.warn("a warning");
    log.error("r-2", new Error("a failure"));
    expect(out.parsed().map((line) => line.level)).toEqual(written);
  });

  test("a condition only an operator can fix is logged by its message, without a stack", async () => {
    const out = capture();
    const log = await createOperationLog({ level: "error", destination: out.destination });
    log.error("r-3", new ServiceUnavailable("no gateway secret: the fix"));
    expect(out.parsed()).toEqual([
      {
        level: "error",
        time: expect.any(String),
        requestId: "r-3",
        problem: "no gateway secret: the fix",
        msg: "service unavailable",
      },
    ]);
  });

  test("an unknown level falls back to info and says so once", async () => {
    const out = capture();
    const log = await createOperationLog({ level: "loud", destination: out.destination });
    log.request!(ENTRY);
    expect(out.parsed()).toEqual([
      {
        level: "warn",
        time: expect.any(String),
        msg: 'LOG_LEVEL "loud" is not one of trace, debug, info, warn, error, fatal, silent; using info',
      },
      { level: "info", time: expect.any(String), ...ENTRY, msg: "request" },
    ]);
  });
});

describe('lines about the snapshot in service (docs/operations.md, "Logs")', () => {
  const SERVING = {
    snapshotId: "9bec71b15496768f422816239edd6a25",
    counts: { cinemas: 3, films: 5, showtimes: 40, attributes: 7 },
  };

  test("a snapshot taken into service: its id and its records per list, at info", async () => {
    const out = capture();
    const log = await createOperationLog({ level: "info", destination: out.destination });
    log.serving(SERVING);
    expect(out.parsed()).toEqual([
      {
        level: "info",
        time: expect.any(String),
        snapshotId: SERVING.snapshotId,
        cinemas: 3,
        films: 5,
        showtimes: 40,
        attributes: 7,
        msg: "snapshot in service",
      },
    ]);
  });

  test("a rebuilt snapshot that cannot be opened: why, and the id of the one still served, at error", async () => {
    const out = capture();
    const log = await createOperationLog({ level: "warn", destination: out.destination });
    log.serving(SERVING);
    log.notTaken("index.pages: has 10 bytes, manifest.json says 4096", SERVING.snapshotId);
    expect(out.parsed()).toEqual([
      {
        level: "error",
        time: expect.any(String),
        snapshot: "index.pages: has 10 bytes, manifest.json says 4096",
        snapshotId: SERVING.snapshotId,
        msg: "the rebuilt snapshot cannot be served; the previous one stays in service",
      },
    ]);
  });
});

describe("the deferred log of the Vercel function", () => {
  test("lines logged while pino loads are written afterwards, in order, with the time they happened", async () => {
    const out = capture();
    const log = deferredOperationLog({ level: "info", destination: out.destination });
    const entry = (requestId: string) => ({
      requestId,
      method: "GET",
      path: "/v1/films",
      status: 200,
      bytes: 1,
      durationMs: 1,
    });
    const before = new Date().toISOString();
    log.request!(entry("first"));
    log.warn("second");
    log.request!(entry("third"));
    const after = new Date().toISOString();
    const deadline = Date.now() + scaled(10_000);
    while (out.lines.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const lines = out.parsed();
    expect(lines.map((l) => l.requestId ?? l.msg)).toEqual(["first", "second", "third"]);
    for (const line of lines) expect(line.time >= before && line.time <= after).toBe(true);
  });

  test("silent loads nothing and logs nothing, where another level loads pino and logs", async () => {
    // pino counted as it is imported: request-log.ts loads it on demand, through this mock.
    let loads = 0;
    vi.resetModules();
    vi.doMock("pino", async () => {
      loads++;
      return vi.importActual<typeof import("pino")>("pino");
    });
    try {
      const { deferredOperationLog: deferred } = await import("../api/_core/log/request-log.js");
      const silentOut = capture();
      const silent = deferred({ level: "silent", destination: silentOut.destination });
      const warnOut = capture();
      const warn = deferred({ level: "warn", destination: warnOut.destination });
      for (const log of [silent, warn]) {
        log.request?.({ requestId: "r-1", method: "GET", path: "/v1/films", status: 200, bytes: 1, durationMs: 1 });
        log.warn("ignored when silent");
        log.error("r-2", new Error("ignored when silent"));
      }
      // The warn log's two lines arrive once pino has loaded: by then a silent log would have written too.
      const deadline = Date.now() + scaled(10_000);
      while (warnOut.lines.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(warnOut.parsed().map((line) => [line.level, line.msg])).toEqual([
        ["warn", "ignored when silent"],
        ["error", "request failed"],
      ]);
      expect(loads).toBe(1);
      expect(silent.request).toBeUndefined();
      expect(silentOut.lines).toEqual([]);
    } finally {
      vi.doUnmock("pino");
      vi.resetModules();
    }
  });
});
