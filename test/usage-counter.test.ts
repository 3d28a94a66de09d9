/**
 * Usage counted where each request is decided (decision: usage), at unit level: the outcome buckets
 * at each bound, the operation of a target as the route table names it (held to the table), the
 * gateway's hand-off header, and the counter: rows by day, market, organization, operation and
 * outcome on an injected clock; writes batched, one at a time, waiting their deadline at most (passed
 * by hand); a batch the store did not take written again under its id, counted once even when the
 * first write landed late; what is given up counted as lost, exactly, and said.
 */
import { describe, expect, test } from "vitest";
import { matchRoute, ROUTES, templateOf } from "../api/_core/endpoints/routes.js";
import { SINGLE_MARKET } from "../api/_core/usage/market.js";
import { OPERATION_PATHS, operationOf } from "../api/_core/usage/operation.js";
import { type Outcome, outcomeOf } from "../api/_core/usage/outcome.js";
import { settlementHeader, settlementOf } from "../api/_core/usage/settlement.js";
import { usageCounter } from "../api/_core/usage/usage-counter.js";
import { memoryUsageStore, type UsageBatch, type UsageStore } from "../api/_core/usage/usage-store.js";
import { heldDeadlines } from "./helpers/usage-store-contract.js";

describe("outcomes", () => {
  test.each<[number, Outcome]>([
    [200, "2xx"],
    [204, "2xx"],
    [299, "2xx"],
    [303, "2xx"],
    [304, "304"],
    [305, "2xx"],
    [399, "2xx"],
    [400, "400-404"],
    [401, "400-404"],
    [402, "400-404"],
    [403, "403"],
    [404, "400-404"],
    [405, "400-404"],
    [413, "400-404"],
    [428, "400-404"],
    [429, "429"],
    [430, "400-404"],
    [499, "400-404"],
    [500, "5xx"],
    [503, "5xx"],
    [599, "5xx"],
  ])("%i is %s", (status, outcome) => {
    expect(outcomeOf(status)).toBe(outcome);
  });
});

describe("operations", () => {
  test("each operation's path is its route's template, and every route has one", () => {
    expect(OPERATION_PATHS).toEqual(Object.fromEntries(ROUTES.map((route) => [route.operationId, templateOf(route)])));
  });

  test.each([
    ["/v1/showtimes", "listShowtimes"],
    ["/v1/showtimes?limit=2&cursor=a/b", "listShowtimes"],
    ["/v1/showtimes/st-1", "getShowtime"],
    ["/v1/films/no%2Fsuch", "getFilm"],
    ["/v1/films/no%2Fsuch?x=/y", "getFilm"],
    ["/v1/cinemas/c-1", "getCinema"],
    ["/v1/attributes", "listAttributes"],
    ["/v1/changes?since=x", "listChanges"],
    ["/v1/films/", "other"],
    ["/v1/films/a/b", "other"],
    ["/v1/filmsx", "other"],
    ["/v1/film", "other"],
    ["/v1", "other"],
    ["/v1/", "other"],
    ["/", "other"],
    ["", "other"],
    ["v1/films", "other"],
    ["//v1/films", "other"],
    ["/mcp", "mcp"],
    ["/mcp?x=1", "mcp"],
    ["/mcpx", "other"],
  ])("%s is %s", (url, operation) => {
    expect(operationOf(url)).toBe(operation);
  });

  test("an MCP tools/call is its tool's", () => {
    expect(operationOf("/mcp", "find_showtimes")).toBe("find_showtimes");
  });

  test("a path names an operation exactly where the route table routes it", () => {
    const segments = ["", "v1", "films", "cinemas", "showtimes", "x", "%2F", "changes", "attributes"];
    const paths: string[] = [];
    for (const a of segments)
      for (const b of segments) for (const c of segments) paths.push(`/${a}/${b}/${c}`, `/${a}/${b}`);
    const byEndpoint = new Map(ROUTES.map((route) => [route.endpoint, route.operationId as string]));
    for (const path of paths) {
      const routed = matchRoute(path);
      expect([path, operationOf(path)]).toEqual([path, routed ? byEndpoint.get(routed.endpoint) : "other"]);
    }
  });
});

describe("the gateway's hand-off header", () => {
  test("says the day, the organization (any text) and the operation, and is read back", () => {
    const settlement = { day: "2026-11-27", organization: "Zürich Kino:1 %", operation: "getFilm" };
    expect(settlementHeader(settlement)).toBe("2026-11-27 Z%C3%BCrich%20Kino%3A1%20%25 getFilm");
    expect(settlementOf(settlementHeader(settlement))).toEqual(settlement);
  });

  test.each([
    [undefined],
    [""],
    ["2026-11-27 acme"],
    ["2026-11-27  listFilms"],
    ["26-11-27 acme listFilms"],
    ["2026-11-27 acme list Films"],
    ["2026-11-27 %E0%A4%A acme"],
    ["2026-11-27 %E0%A4%A listFilms"],
  ])("%j is no settlement", (value) => {
    expect(settlementOf(value)).toBeUndefined();
  });
});

/** A store whose writes the test decides: taken (by the memory store behind it), refused, or held unanswered. */
function scriptedStore() {
  const memory = memoryUsageStore("scripted");
  const sent: UsageBatch[] = [];
  let mode: "take" | "refuse" | "hold" = "take";
  const held: Array<() => Promise<boolean>> = [];
  const store: UsageStore = {
    name: "scripted",
    add(batch, signal) {
      sent.push(batch);
      if (mode === "refuse") return Promise.reject(new Error("connection refused"));
      if (mode === "hold") {
        held.push(() => memory.add(batch, signal));
        return new Promise(() => {});
      }
      return memory.add(batch, signal);
    },
    read: (query) => memory.read(query),
  };
  return {
    store,
    sent,
    setMode: (next: typeof mode) => (mode = next),
    /** Does every held write now, as a store that was slow does them after all. */
    landLate: () => Promise.all(held.splice(0).map((land) => land())),
  };
}

const NOON = Date.parse("2026-11-27T12:00:00Z");
const DAY = { from: "2026-11-26", to: "2026-11-28" };

/** A counter on `store` whose batches are `<ids>-1`, `<ids>-2`… (two counters on one store name theirs apart). */
function counterOn(store: UsageStore, options: { clock?: () => number; ids?: string } = {}) {
  const reports: string[] = [];
  const deadlines = heldDeadlines();
  const prefix = options.ids ?? "batch";
  let id = 0;
  const counter = usageCounter({
    store,
    timeoutMs: 50,
    wait: deadlines.wait,
    report: (message) => reports.push(message),
    newId: () => `${prefix}-${++id}`,
    clock: options.clock ?? (() => NOON),
  });
  return { counter, reports, deadlines };
}

const get = (url: string, status: number, bytes: number, organization?: string) => ({
  url,
  status,
  bytes,
  organization,
});

describe("the counter", () => {
  test("counts each request in its row: day, market, organization, operation, outcome", async () => {
    const store = memoryUsageStore();
    const { counter } = counterOn(store);
    counter.count(get("/v1/films", 200, 100, "acme"));
    counter.count(get("/v1/films?limit=2", 200, 50, "acme"));
    counter.count(get("/v1/films", 304, 0, "acme"));
    counter.count(get("/v1/films/x", 404, 30, "acme"));
    counter.count(get("/v1/films", 429, 40, "beta"));
    counter.count(get("/v1/films", 401, 60));
    counter.count({ ...get("/mcp", 200, 700, "acme"), tool: "find_films" });
    await counter.flush();
    const row = (organization: string, operation: string, outcome: string, requests: number, bytes: number) => ({
      day: "2026-11-27",
      market: SINGLE_MARKET,
      organization,
      operation,
      outcome,
      requests,
      bytes,
    });
    expect(await store.read(DAY)).toEqual([
      row("", "listFilms", "400-404", 1, 60),
      row("acme", "find_films", "2xx", 1, 700),
      row("acme", "getFilm", "400-404", 1, 30),
      row("acme", "listFilms", "2xx", 2, 150),
      row("acme", "listFilms", "304", 1, 0),
      row("beta", "listFilms", "429", 1, 40),
    ]);
  });

  test("a request is counted on the UTC day of its clock: the last millisecond, then the next day", async () => {
    const store = memoryUsageStore();
    let now = Date.parse("2026-11-27T23:59:59.999Z");
    const { counter } = counterOn(store, { clock: () => now });
    counter.count(get("/v1/films", 200, 1, "acme"));
    now += 1;
    counter.count(get("/v1/films", 200, 1, "acme"));
    await counter.flush();
    expect((await store.read(DAY)).map((r) => [r.day, r.requests])).toEqual([
      ["2026-11-27", 1],
      ["2026-11-28", 1],
    ]);
  });

  test("a request handed on is counted cdn, and settled by the answer's own count under the same row", async () => {
    const store = memoryUsageStore();
    let now = Date.parse("2026-11-27T23:59:59.999Z");
    const gateway = counterOn(store, { clock: () => now, ids: "gateway" }).counter;
    const fn = counterOn(store, { clock: () => now, ids: "function" }).counter;
    const hits = [gateway.handOff("/v1/films", "acme"), gateway.handOff("/v1/films", "acme")];
    const missed = gateway.handOff("/v1/films/x", "acme");
    const message = gateway.handOff("/mcp", "acme");
    // The function answers after midnight: still the gateway's day.
    now += 1;
    // As the header carries them to the function.
    fn.count({ ...get("/v1/films/x", 404, 30), settles: settlementOf(settlementHeader(missed)) });
    fn.count({ ...get("/mcp", 200, 500), tool: "find_films", settles: settlementOf(settlementHeader(message)) });
    await Promise.all([gateway.flush(), fn.flush()]);
    expect(hits).toHaveLength(2);
    expect((await store.read(DAY)).map((r) => [r.day, r.operation, r.outcome, r.requests, r.bytes])).toEqual([
      ["2026-11-27", "find_films", "2xx", 1, 500],
      ["2026-11-27", "getFilm", "400-404", 1, 30],
      ["2026-11-27", "listFilms", "cdn", 2, 0],
    ]);
  });

  test("writes one at a time: what is counted while one runs goes in one write after it", async () => {
    const scripted = scriptedStore();
    const { counter, deadlines } = counterOn(scripted.store);
    counter.count(get("/v1/films", 200, 1, "acme"));
    const first = counter.flush();
    counter.count(get("/v1/films", 200, 1, "acme"));
    const [second, third] = [counter.flush(), counter.flush()];
    expect(second).toBe(third);
    await Promise.all([first, second]);
    expect(scripted.sent.map((batch) => batch.entries.map((e) => e.requests))).toEqual([[2]]);
    counter.count(get("/v1/films", 200, 1, "acme"));
    await counter.flush();
    expect(scripted.sent.map((batch) => batch.id)).toEqual(["batch-1", "batch-2"]);
    expect(deadlines.waiting()).toBe(0);
  });

  test("a write waits its deadline and no longer; written again under its id, it is counted once", async () => {
    const scripted = scriptedStore();
    const { counter, deadlines, reports } = counterOn(scripted.store);
    scripted.setMode("hold");
    counter.count(get("/v1/films", 200, 10, "acme"));
    const waiting = deadlines.started();
    const write = counter.flush();
    // Held by the store, the write waits on its deadline and ends when that passes, not before.
    await waiting;
    expect(scripted.sent).toHaveLength(1);
    deadlines.pass();
    await write;
    expect(reports).toEqual([
      "usage: scripted unavailable (no answer within 50 ms); the counts of 1 request and whatever is counted " +
        "meanwhile are held in memory and written when it is back",
    ]);
    // The slow store does the write after all; the next write sends the same batch again.
    await scripted.landLate();
    scripted.setMode("take");
    counter.count(get("/v1/films", 200, 10, "acme"));
    await counter.flush();
    expect(scripted.sent.map((batch) => batch.id)).toEqual(["batch-1", "batch-1", "batch-2"]);
    expect((await scripted.store.read(DAY)).map((r) => r.requests)).toEqual([2]);
    expect(reports[1]).toBe("usage: scripted available again; the counts held were written");
  });

  test("while the store refuses, one batch is held, the outage said once; what is counted since waits", async () => {
    const scripted = scriptedStore();
    const { counter, reports } = counterOn(scripted.store);
    scripted.setMode("refuse");
    for (let i = 1; i <= 3; i++) {
      counter.count(get("/v1/films", 200, i, "acme"));
      counter.count(get("/v1/films", 401, 100));
      await counter.flush();
    }
    expect(reports).toEqual([
      "usage: scripted unavailable (connection refused); the counts of 2 requests and whatever is counted " +
        "meanwhile are held in memory and written when it is back",
    ]);
    // Only the batch held is tried again; the requests counted since are summed by row, not by request.
    expect(scripted.sent.map((batch) => [batch.id, batch.entries.length])).toEqual([
      ["batch-1", 2],
      ["batch-1", 2],
      ["batch-1", 2],
    ]);
    scripted.setMode("take");
    await counter.flush();
    expect(scripted.sent.slice(3).map((batch) => [batch.id, batch.entries.map((e) => e.requests)])).toEqual([
      ["batch-1", [1, 1]],
      ["batch-2", [2, 2]],
    ]);
    expect((await scripted.store.read(DAY)).map((r) => [r.organization, r.requests, r.bytes])).toEqual([
      ["", 3, 300],
      ["acme", 3, 6],
    ]);
    expect(counter.lost()).toEqual({ requests: 0, bytes: 0 });
    expect(reports[1]).toBe("usage: scripted available again; the counts held were written");
  });

  test("closing: a last write, then whatever the store did not take is lost, and a timed-out write named", async () => {
    const scripted = scriptedStore();
    const { counter, reports, deadlines } = counterOn(scripted.store);
    scripted.setMode("hold");
    counter.count(get("/v1/films", 200, 10, "acme"));
    const waiting = deadlines.started();
    const write = counter.flush();
    await waiting;
    deadlines.pass();
    await write;
    scripted.setMode("refuse");
    counter.count(get("/v1/films", 200, 20, "acme"));
    counter.handOff("/v1/films", "acme");
    await counter.close();
    expect(counter.lost()).toEqual({ requests: 3, bytes: 30 });
    expect(reports.at(-1)).toBe(
      "usage: 3 requests (30 bytes) of acme not counted: the process stopped before the store took them " +
        "(scripted: connection refused); a write that ran out of time may still have been added, once (ids: batch-1)",
    );
  });

  test("nothing counted writes nothing", async () => {
    const scripted = scriptedStore();
    const { counter } = counterOn(scripted.store);
    await counter.flush();
    await counter.close();
    expect(scripted.sent).toEqual([]);
  });
});
