/**
 * Serving markets in tests (decision: markets): a multi-market folder built in process, an access
 * file whose organizations are entitled to every market, to `gb` alone, or to none, and local
 * servers on it over real sockets.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import type { Market } from "../../api/_core/format/layout/market-rules.js";
import { decodeCursor } from "../../api/_core/tokens/cursor.js";
import { decodeSyncToken } from "../../api/_core/tokens/sync-token.js";
import { runBuild } from "../../build/run-build.js";
import { createDiskWriter } from "../../build/write/output-writer.js";
import { type ServerOptions, startServer } from "../../scripts/server/local-server.js";
import { type Dataset, writeDataset } from "./dataset.js";
import { scaled } from "./deadlines.js";
import { writeMarkets } from "./markets.js";

/** Inside the entitlements' windows and the week the generated datasets show. */
export const MARKETS_NOW = new Date("2026-11-24T12:00:00Z");

export const MARKET_KEYS = {
  /** Paid, naming no markets: every market. */
  every: "cl_test_every_market_4c1e",
  /** Paid for gb only. */
  gb: "cl_test_gb_only_9d2f",
  /** A free plan: no paid entitlement at all. */
  none: "cl_test_no_market_07ab",
} as const;

/** Writes the access file of MARKET_KEYS into `dir`; returns its path. */
export function writeMarketAccess(dir: string): string {
  const organizations = [
    { id: "every-co", entitlements: [{ plan: "paid", status: "active" }] },
    { id: "gb-co", entitlements: [{ plan: "paid", status: "active", markets: ["gb"] }] },
    { id: "none-co", entitlements: [{ plan: "free", status: "active" }] },
  ];
  const keys = Object.entries(MARKET_KEYS).map(([name, key]) => ({
    id: `key-${name}`,
    organization: `${name}-co`,
    sha256: createHash("sha256").update(key).digest("hex"),
    revoked: false,
  }));
  const file = path.join(dir, "access.json");
  writeFileSync(file, JSON.stringify({ organizations, keys }));
  return file;
}

let dataFolders = 0;

/** Builds `dataset` into `out`: with `markets` a multi-market folder, without one snapshot. */
export async function buildFolder(dataset: Dataset, out: string, markets?: Market[]): Promise<void> {
  // A data folder per build: `out` may be built again, with other data.
  const dataDir = `${out}-data-${dataFolders++}`;
  writeDataset(dataDir, dataset);
  if (markets) writeMarkets(dataDir, markets);
  const result = await runBuild({
    dataDir,
    output: createDiskWriter(out),
    gzipLevel: 1,
    gzipWorkers: 0,
    validateWorkers: 0,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
}

export interface Running {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A local server on `snapshotDir` with the market access file, on a free port, its clock at MARKETS_NOW. */
export async function serveFolder(
  snapshotDir: string,
  accessFile: string,
  options: Partial<ServerOptions> = {},
): Promise<Running> {
  const { server, url } = await startServer({
    snapshotDir,
    accessFile,
    port: 0,
    now: () => MARKETS_NOW,
    onError: () => {},
    ...options,
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, server, close };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

/** A GET (or another method) of `target` with `key`, as a client sends it. */
export async function ask(
  base: string,
  target: string,
  key?: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const headers = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...init.headers };
  const response = await fetch(`${base}${target}`, { method: init.method ?? "GET", headers, body: init.body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** What a cursor names: the sort key after which its page starts (a feed's without the snapshot's id). */
function positionOf(cursor: string): string {
  const decoded = decodeCursor(cursor);
  if (!decoded) throw new Error(`not a cursor: ${cursor}`);
  return JSON.stringify(decoded.after.map((part) => part.replace(/^[0-9a-f]{32}\./, "<snapshot>.")));
}

/**
 * A body (or a target) with each cursor and sync token replaced by what it names (the sort key after
 * which the page starts; the history and generation): the parts a market binds its own id, or its
 * snapshot's, into; so a market's answer and a single-market build's of the same data compare byte
 * for byte apart from them.
 */
export function withoutMarketIds(body: string): string {
  return body
    .replace(/"nextCursor":"([^"]+)"/g, (_, cursor: string) => `"nextCursor":${positionOf(cursor)}`)
    .replace(
      /([?&])cursor=([A-Za-z0-9_-]+)/g,
      (_, glue: string, cursor: string) => `${glue}cursor=${positionOf(cursor)}`,
    )
    .replace(/"syncToken":"([^"]+)"/g, (_, token: string) => {
      const decoded = decodeSyncToken(token);
      if (!decoded) throw new Error(`not a sync token: ${token}`);
      return `"syncToken":${JSON.stringify([decoded.history, decoded.generation])}`;
    });
}

type Get = (target: string) => Promise<{ status: number; text: string }>;

/** Every page of a list, following nextCursor: [target, status, body] each. */
async function pages(get: Get, first: string): Promise<Array<[string, number, string]>> {
  const seen: Array<[string, number, string]> = [];
  for (let target: string | undefined = first; target !== undefined; ) {
    const { status, text } = await get(target);
    seen.push([target, status, text]);
    const next = status === 200 ? (JSON.parse(text).pagination?.nextCursor as string | null) : null;
    target = next ? `${first}${first.includes("?") ? "&" : "?"}cursor=${next}` : undefined;
  }
  return seen;
}

/**
 * What an API answers, walked from its lists: every page of every list at the default limit (stored
 * pages) and at 7 (composed), a filtered list of each kind, every record's get-one, and the whole
 * changes feed. Targets are below /v1; `get` puts them under a market's base address or not.
 */
export async function walkApi(get: Get): Promise<Array<[string, number, string]>> {
  const answers: Array<[string, number, string]> = [];
  const ids: Record<string, string[]> = {};
  for (const resource of ["showtimes", "cinemas", "films", "attributes"]) {
    const stored = await pages(get, `/v1/${resource}`);
    ids[resource] = stored.flatMap(([, , text]) => JSON.parse(text).data.map((r: { id: string }) => r.id));
    answers.push(...stored, ...(await pages(get, `/v1/${resource}?limit=7`)));
  }
  const film = ids.films?.[0];
  const cinema = ids.cinemas?.[0];
  const filtered = [
    ...(film
      ? [`/v1/showtimes?filmId=${encodeURIComponent(film)}&limit=5`, `/v1/cinemas?filmId=${encodeURIComponent(film)}`]
      : []),
    ...(cinema ? [`/v1/films?cinemaId=${encodeURIComponent(cinema)}&limit=3`] : []),
    "/v1/showtimes?date=2026-11-23&limit=4",
  ];
  for (const target of filtered) answers.push(...(await pages(get, target)));
  for (const resource of ["showtimes", "cinemas", "films"])
    for (const id of ids[resource] ?? []) {
      const target = `/v1/${resource}/${encodeURIComponent(id)}`;
      const { status, text } = await get(target);
      answers.push([target, status, text]);
    }
  answers.push(...(await pages(get, "/v1/changes?limit=40")));
  return answers;
}

/** Asks `check` every 20 ms until it holds; fails after a deadline scaled to the load beside the run. */
export async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + scaled(ms);
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not so: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
