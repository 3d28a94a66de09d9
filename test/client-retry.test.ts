/**
 * The typed client's iterators through rate limits, over a real socket: a 429 is waited out
 * (Retry-After) and the page retried; after maxRetries the ApiError carries the cursor, and the
 * same iterator started from that cursor yields exactly the rest.
 */
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ApiError, createClient } from "../client/index.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, expectedList, generateDataset, type Dataset } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

let root: string;
let server: Server;
let baseUrl: string;
let dataset: Dataset;
/** The server's clock: a fake sleep moves it on, so a window really ends while the test waits no time. */
let clock = TEST_NOW.getTime();

beforeAll(async () => {
  root = makeTempDir("client-retry");
  dataset = generateDataset({ seed: 11, showtimes: 20, films: 4 });
  await buildDataset(dataset, root, path.join(root, "snapshot"));
  ({ server, url: baseUrl } = await startServer({
    snapshotDir: path.join(root, "snapshot"),
    accessFile: writeAccessFile(root),
    port: 0,
    now: () => new Date(clock),
    onError: () => {},
  }));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  removeDir(root);
});

const ids = (records: { id: string }[]) => records.map((r) => r.id);
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

test("a 429 is waited out for Retry-After seconds and the page retried: every record, in order", async () => {
  const waits: number[] = [];
  // tiny-co may send 3 requests a minute: 11 pages need three windows.
  const client = createClient({
    baseUrl,
    apiKey: KEYS.tiny,
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
  });
  const films = await collect(client.films({ limit: 1 }));
  expect(ids(films)).toEqual(ids(expectedList(dataset, "films")));
  // 3 pages a window: a 429 on pages 4, 7 and 10, each waited out for exactly Retry-After (the
  // first window has 39 s left at the test clock's 12:00:21; the next ones start on the minute).
  expect(waits).toEqual([39_000, 60_000, 60_000]);
});

test("after maxRetries the error carries the cursor, and resuming from it yields exactly the rest", async () => {
  clock += 120_000; // a fresh window
  const sleeps: number[] = [];
  const limited = createClient({
    baseUrl,
    apiKey: KEYS.tiny2,
    maxRetries: 2,
    sleep: async (ms) => void sleeps.push(ms),
  });
  const seen: string[] = [];
  let stopped: ApiError | undefined;
  try {
    for await (const film of limited.films({ limit: 2 })) seen.push(film.id);
  } catch (error) {
    stopped = error as ApiError;
  }
  expect(stopped).toBeInstanceOf(ApiError);
  expect(stopped!.code).toBe("rate_limited");
  expect(sleeps).toHaveLength(2);
  expect(stopped!.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  const rest = await collect(createClient({ baseUrl, apiKey: KEYS.bulk }).films({ limit: 2, cursor: stopped!.cursor }));
  expect([...seen, ...ids(rest)]).toEqual(ids(expectedList(dataset, "films")));
});

test("errors that waiting cannot fix are thrown at once, with the cursor of the page", async () => {
  const sleeps: number[] = [];
  const client = createClient({ baseUrl, apiKey: "cl_no_such_key", sleep: async (ms) => void sleeps.push(ms) });
  const error = await collect(client.showtimes()).catch((e: ApiError) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("unauthorized");
  expect((error as ApiError).cursor).toBeUndefined();
  expect(sleeps).toEqual([]);
});
