/**
 * One HTTP suite, two runtimes (after h3's describeMatrix): "core" calls the
 * request core in-process, "socket" goes through the local Node server on an ephemeral
 * port. Socket requests use node:http, not fetch: fetch decompresses bodies, and the tests
 * compare the raw gzip and brotli bytes.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { fileAccess } from "../../api/_core/gate/access.js";
import { createHandler, type CoreOptions } from "../../api/_core/handle-request.js";
import { SnapshotSource } from "../../api/_core/format/read/snapshot-source.js";
import { startServer } from "../../scripts/server/local-server.js";
import { makeTempDir, removeDir } from "./build-helpers.js";
import { buildDataset, generateDataset, type Dataset, type DatasetOptions } from "./dataset.js";

/** The clock every client runs on unless a test sets another: 39 s before a minute ends, so RateLimit's t is 39. */
export const TEST_NOW = new Date("2026-06-15T12:00:21Z");
/** Bounds of the edge-co entitlement and the expiring key, written with offsets: compared as instants. */
export const EDGE_FROM = "2026-06-15T12:00:00+02:00";
export const EDGE_UNTIL = "2026-06-15T14:00:00Z";
export const EXPIRING_AT = "2026-06-15T13:00:00.250Z";

/** Plain test keys; the access file holds only their SHA-256. */
export const KEYS = {
  valid: "cl_test_valid_4f1e9a7c2b",
  valid2: "cl_test_valid2_88d03e1a",
  bulk: "cl_test_bulk_0c6b5f2e",
  revoked: "cl_test_revoked_7a2d9c41",
  expired: "cl_test_expired_31be80f6",
  expiring: "cl_test_expiring_5e7c2d90",
  orphan: "cl_test_orphan_d4a19b3e",
  cancelled: "cl_test_cancelled_92f0c7a5",
  future: "cl_test_future_6b8e1d24",
  past: "cl_test_past_e03f5a71",
  free: "cl_test_free_1c7d4b98",
  tiny: "cl_test_tiny_a59e26f3",
  tiny2: "cl_test_tiny2_b7104c8d",
  tinyLapsed: "cl_test_tinylapsed_3d6a0e52",
  edge: "cl_test_edge_f82c1b07",
  mixed: "cl_test_mixed_47e9d3a6",
} as const;

const paid = (bounds: { validFrom?: string; validUntil?: string } = {}, status = "active") => ({
  plan: "paid",
  status,
  ...bounds,
});

const ORGANIZATIONS = [
  // No rateLimit: the default policy (600 per 60 s) applies and shows in RateLimit-Policy.
  { id: "acme", entitlements: [paid({ validFrom: "2026-01-01T00:00:00Z", validUntil: "2027-01-01T00:00:00Z" })] },
  { id: "bulk", entitlements: [paid()], rateLimit: { requests: 1_000_000_000, windowSeconds: 60 } },
  { id: "cancelled-co", entitlements: [paid({}, "cancelled")] },
  { id: "future-co", entitlements: [paid({ validFrom: "2026-07-01T00:00:00Z" })] },
  { id: "past-co", entitlements: [paid({ validUntil: "2026-06-01T00:00:00Z" })] },
  { id: "free-co", entitlements: [{ plan: "free", status: "active" }] },
  { id: "tiny-co", entitlements: [paid()], rateLimit: { requests: 3, windowSeconds: 60 } },
  { id: "tiny-lapsed", entitlements: [paid({}, "cancelled")], rateLimit: { requests: 1, windowSeconds: 60 } },
  { id: "edge-co", entitlements: [paid({ validFrom: EDGE_FROM, validUntil: EDGE_UNTIL })] },
  { id: "mixed-co", entitlements: [paid({}, "cancelled"), paid({ validFrom: "2026-01-01T00:00:00Z" })] },
];

const KEY_ENTRIES: Array<[keyof typeof KEYS, string, { revoked?: boolean; expiresAt?: string }?]> = [
  ["valid", "acme"],
  ["valid2", "acme"],
  ["bulk", "bulk"],
  ["revoked", "acme", { revoked: true }],
  ["expired", "acme", { expiresAt: "2026-06-01T00:00:00Z" }],
  ["expiring", "acme", { expiresAt: EXPIRING_AT }],
  ["orphan", "ghost-co"],
  ["cancelled", "cancelled-co"],
  ["future", "future-co"],
  ["past", "past-co"],
  ["free", "free-co"],
  ["tiny", "tiny-co"],
  ["tiny2", "tiny-co"],
  ["tinyLapsed", "tiny-lapsed"],
  ["edge", "edge-co"],
  ["mixed", "mixed-co"],
];

/** Writes the test access file into `dir` and returns its path. */
export function writeAccessFile(dir: string): string {
  const keys = KEY_ENTRIES.map(([name, organization, extra]) => ({
    id: `key-${name}`,
    organization,
    sha256: createHash("sha256").update(KEYS[name]).digest("hex"),
    revoked: extra?.revoked ?? false,
    ...(extra?.expiresAt ? { expiresAt: extra.expiresAt } : {}),
  }));
  const file = path.join(dir, "access.json");
  writeFileSync(file, JSON.stringify({ organizations: ORGANIZATIONS, keys }, null, 2));
  return file;
}

/** Headers carrying a key with the usual scheme word. */
export function auth(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...extra };
}

export interface TestResponse {
  status: number;
  /** Lowercase names; repeated fields joined with ", ". */
  headers: Record<string, string>;
  /** The bytes as sent: still gzip or brotli when a coding was applied. */
  body: Buffer;
  json<T = any>(): T;
}

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
}

export interface Client {
  request(path: string, init?: RequestInit): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface ClientConfig {
  snapshotDir: string;
  accessFile: string;
  now?: () => Date;
  snapshots?: SnapshotSource;
  onError?: CoreOptions["onError"];
  corsOrigins?: CoreOptions["corsOrigins"];
}

export interface Runtime {
  name: "core" | "socket";
  open(config: ClientConfig): Promise<Client>;
}

function toResponse(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): TestResponse {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return { status, headers: flat, body, json: () => JSON.parse(body.toString("utf8")) };
}

const lowercaseKeys = (headers: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
const quiet: CoreOptions["onError"] = () => {};

export const coreRuntime: Runtime = {
  name: "core",
  async open(config) {
    const handle = createHandler({
      snapshots: config.snapshots ?? new SnapshotSource(config.snapshotDir),
      access: fileAccess(config.accessFile),
      now: config.now ?? (() => TEST_NOW),
      onError: config.onError ?? quiet,
      corsOrigins: config.corsOrigins,
    });
    return {
      async request(url, init = {}) {
        const response = await handle({ method: init.method ?? "GET", url, headers: lowercaseKeys(init.headers) });
        return toResponse(response.status, response.headers, response.body);
      },
      close: async () => {},
    };
  },
};

const socketRuntime: Runtime = {
  name: "socket",
  async open(config) {
    const { server, url } = await startServer({
      snapshotDir: config.snapshotDir,
      accessFile: config.accessFile,
      port: 0,
      snapshots: config.snapshots,
      now: config.now ?? (() => TEST_NOW),
      onError: config.onError ?? quiet,
      corsOrigins: config.corsOrigins,
    });
    const base = new URL(url);
    return {
      request(requestPath, init = {}) {
        return new Promise((resolve, reject) => {
          // agent: false, one connection per request: nothing lingers when the server closes.
          const options = {
            host: base.hostname,
            port: base.port,
            path: requestPath,
            method: init.method ?? "GET",
            headers: init.headers,
            agent: false,
          };
          const req = httpRequest(options, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve(toResponse(res.statusCode!, res.headers, Buffer.concat(chunks))));
            res.on("error", reject);
          });
          req.on("error", reject);
          req.end();
        });
      },
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
};

/** Runs the same suite in-process and over a real socket. */
export function describeMatrix(name: string, suite: (runtime: Runtime) => void): void {
  for (const runtime of [coreRuntime, socketRuntime]) describe(`${name} [${runtime.name}]`, () => suite(runtime));
}

/** A client opened before the enclosing describe's tests and closed after them. */
export function useClient(runtime: Runtime, config: () => ClientConfig): Client {
  let client: Client | undefined;
  beforeAll(async () => {
    client = await runtime.open(config());
  });
  afterAll(async () => client?.close());
  return {
    request: (url, init) => client!.request(url, init),
    close: async () => {},
  };
}

export interface HttpFixture {
  root: string;
  snapshotDir: string;
  accessFile: string;
  dataset: Dataset;
}

/** Builds a dataset and writes the access file once per test file; removed after it. */
export function useHttpFixture(options: DatasetOptions = { seed: 20_261_123, showtimes: 90 }): HttpFixture {
  const fixture = {} as HttpFixture;
  beforeAll(async () => {
    fixture.root = makeTempDir("http");
    fixture.snapshotDir = path.join(fixture.root, "snapshot");
    fixture.dataset = generateDataset(options);
    fixture.accessFile = writeAccessFile(fixture.root);
    await buildDataset(fixture.dataset, fixture.root, fixture.snapshotDir);
  });
  afterAll(() => removeDir(fixture.root));
  return fixture;
}
