/**
 * What every usage store promises (decision: usage), one set of cases run against each (as the rate
 * limiter's contract is): rows read back as added, summed over batches; a batch added again adds
 * nothing; organizations of any text, and none, kept apart; corrections netted; days inclusive at both
 * ends of a query, across months; counts past 32 bits; two handles on one store seeing one count. For
 * a store that can fail, the counter over it: a store that fails or never answers delays no count
 * (each write waits its deadline at most, passed by hand here), the batches held are written once the
 * store is back, exactly once even when a write that ran out of time landed after all, and what a
 * stopping process still holds is lost, counted exactly, and said in one line.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SINGLE_MARKET } from "../../api/_core/usage/market.js";
import type { Outcome } from "../../api/_core/usage/outcome.js";
import { usageCounter } from "../../api/_core/usage/usage-counter.js";
import type { UsageEntry, UsageStore } from "../../api/_core/usage/usage-store.js";
import type { Deadline } from "../../api/_core/usage/usage-writer.js";

export interface UsageStoreUnderTest {
  /** A handle on the store: each call may be another instance (another connection), all on one store. */
  open(): UsageStore;
  /** How the store is made to fail, for a store that can. */
  failures?: {
    /** Refuses or drops every request. */
    break(): Promise<void>;
    /** Takes every request and never answers. */
    silence(): Promise<void>;
    /** Undoes break or silence; what a silenced store was sent may then be done. */
    mend(): Promise<void>;
    /** After mending: until every handle opened may reach the store again. */
    recovered(): Promise<void>;
  };
  dispose?(): Promise<void>;
}

const DAY = "2026-11-27";

/** A row of `market` (each case its own: a shared store outlives each case). */
function row(market: string, fields: Partial<UsageEntry> = {}): UsageEntry {
  return {
    day: DAY,
    market,
    organization: "acme",
    operation: "listFilms",
    outcome: "2xx" as Outcome,
    requests: 1,
    bytes: 100,
    ...fields,
  };
}

const signal = () => new AbortController().signal;

/** Deadlines that pass only when `pass` is called; `started` resolves once a write is waiting on one. */
export function heldDeadlines() {
  const waiting = new Set<() => void>();
  let onStart: (() => void) | undefined;
  const wait: Deadline = (_ms, aborted) =>
    new Promise<void>((resolve) => {
      waiting.add(resolve);
      aborted.addEventListener("abort", () => waiting.delete(resolve), { once: true });
      onStart?.();
    });
  return {
    wait,
    started: () => new Promise<void>((resolve) => (onStart = resolve)),
    /** Deadlines now running: a write waiting on the store. */
    waiting: () => waiting.size,
    pass() {
      for (const resolve of waiting) resolve();
      waiting.clear();
    },
  };
}

/** What a store is, known before it is set up: which cases apply. */
export interface UsageStoreKind {
  /** It can be made to fail (a process, a folder): the counter's cases over it run. */
  fails: boolean;
}

/** `name` is the store's name as its reports give it, any text. */
export function describeUsageStoreContract(
  name: string,
  kind: UsageStoreKind,
  setup: () => Promise<UsageStoreUnderTest>,
  options: { skip?: boolean; meta?: Record<string, unknown> } = {},
): void {
  describe(`${name}: the usage store contract`, options, () => {
    let under: UsageStoreUnderTest;
    let serial = 0;
    /** A market no other case has counted in. */
    const market = () => `m-${++serial}-${process.pid}`;
    const all = (m: string, from = DAY, to = DAY) => ({ from, to, market: m });
    beforeAll(async () => {
      under = await setup();
    });
    afterAll(() => under?.dispose?.());

    test("reads back what was added, each row summed over batches, in a stable order", async () => {
      const [store, m] = [under.open(), market()];
      const first = [row(m), row(m, { outcome: "304", bytes: 0 }), row(m, { operation: "getFilm", bytes: 7 })];
      await store.add({ id: `${m}-1`, entries: first }, signal());
      await store.add({ id: `${m}-2`, entries: [row(m, { requests: 2, bytes: 50 })] }, signal());
      expect(await store.read(all(m))).toEqual([
        row(m, { operation: "getFilm", bytes: 7 }),
        row(m, { requests: 3, bytes: 150 }),
        row(m, { outcome: "304", bytes: 0 }),
      ]);
    });

    test("a batch added again adds nothing, and says so", async () => {
      const [store, m] = [under.open(), market()];
      const batch = { id: `${m}-once`, entries: [row(m, { requests: 5, bytes: 500 })] };
      expect(await store.add(batch, signal())).toBe(true);
      expect(await store.add(batch, signal())).toBe(false);
      expect(await under.open().add(batch, signal())).toBe(false);
      expect(await store.read(all(m))).toEqual([row(m, { requests: 5, bytes: 500 })]);
    });

    test("organizations of any text, and keys that name none, are kept apart", async () => {
      const [store, m] = [under.open(), market()];
      const names = ["", "a:b|c", "Zürich Kino 1", "x".repeat(200), "acme"];
      await store.add({ id: `${m}-orgs`, entries: names.map((organization) => row(m, { organization })) }, signal());
      const read = await store.read(all(m));
      expect(read.map((r) => r.organization).sort()).toEqual([...names].sort());
      expect(await store.read({ ...all(m), organization: "a:b|c" })).toEqual([row(m, { organization: "a:b|c" })]);
      expect(await store.read({ ...all(m), organization: "" })).toEqual([row(m, { organization: "" })]);
    });

    test("corrections net out, and a row that sums to nothing is left out", async () => {
      const [store, m] = [under.open(), market()];
      const handedOn = row(m, { outcome: "cdn", requests: 3, bytes: 0 });
      await store.add({ id: `${m}-gateway`, entries: [handedOn] }, signal());
      const settled = [row(m, { bytes: 900 }), row(m, { outcome: "cdn", requests: -1, bytes: 0 })];
      await store.add({ id: `${m}-function`, entries: settled }, signal());
      const gone = [row(m, { operation: "getFilm", outcome: "cdn", requests: -2, bytes: 0 })];
      await store.add(
        { id: `${m}-net`, entries: [...gone, row(m, { operation: "getFilm", outcome: "cdn", requests: 2, bytes: 0 })] },
        signal(),
      );
      expect(await store.read(all(m))).toEqual([
        row(m, { bytes: 900 }),
        row(m, { outcome: "cdn", requests: 2, bytes: 0 }),
      ]);
    });

    test("a query's days are inclusive at both ends, across months; organization and market narrow it", async () => {
      const [store, m, other] = [under.open(), market(), market()];
      const days = ["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-30", "2026-12-01"];
      const entries = days.flatMap((day) => [
        row(m, { day }),
        row(m, { day, organization: "beta" }),
        row(other, { day }),
      ]);
      await store.add({ id: `${m}-days`, entries }, signal());
      const daysOf = (rows: UsageEntry[]) => rows.map((r) => `${r.day} ${r.organization}`);
      expect(daysOf(await store.read(all(m, "2026-10-31", "2026-11-30")))).toEqual([
        "2026-10-31 acme",
        "2026-10-31 beta",
        "2026-11-01 acme",
        "2026-11-01 beta",
        "2026-11-30 acme",
        "2026-11-30 beta",
      ]);
      expect(daysOf(await store.read({ ...all(m, "2026-10-01", "2026-12-31"), organization: "beta" }))).toEqual(
        days.map((day) => `${day} beta`),
      );
      expect(await store.read(all(m, "2026-11-02", "2026-11-29"))).toEqual([]);
      expect(await store.read(all(other, "2026-12-01", "2026-12-01"))).toEqual([row(other, { day: "2026-12-01" })]);
    });

    test("counts past 32 bits", async () => {
      const [store, m] = [under.open(), market()];
      const big = row(m, { requests: 2 ** 33 + 1, bytes: 2 ** 45 + 3 });
      await store.add({ id: `${m}-a`, entries: [big] }, signal());
      await store.add({ id: `${m}-b`, entries: [big] }, signal());
      expect(await store.read(all(m))).toEqual([row(m, { requests: 2 ** 34 + 2, bytes: 2 ** 46 + 6 })]);
    });

    test("two handles count into one store", async () => {
      const [m, a, b] = [market(), under.open(), under.open()];
      await Promise.all([
        a.add({ id: `${m}-a`, entries: [row(m)] }, signal()),
        b.add({ id: `${m}-b`, entries: [row(m, { requests: 2, bytes: 200 })] }, signal()),
      ]);
      expect(await a.read(all(m))).toEqual([row(m, { requests: 3, bytes: 300 })]);
    });

    if (kind.fails) describeFailures(() => under, market, all);
  });
}

/** The counter over a store that fails (skipped for a store that cannot). */
function describeFailures(
  under: () => UsageStoreUnderTest,
  market: () => string,
  all: (m: string) => { from: string; to: string; market: string },
): void {
  const failures = () => under().failures!;
  /** A counter on the store, counting `m`'s requests on DAY; its deadline passes when the case says. */
  const counterOf = (reports: string[]) => {
    const deadlines = heldDeadlines();
    const store = under().open();
    const counter = usageCounter({
      store,
      timeoutMs: 50,
      wait: deadlines.wait,
      report: (message) => reports.push(message),
      clock: () => Date.parse(`${DAY}T12:00:00Z`),
    });
    const count = (m: string, times: number) => {
      for (let i = 0; i < times; i++) counter.count({ url: "/v1/films", status: 200, bytes: 10, organization: m });
    };
    /** A first write the store takes: connected before the store fails (a stopped one restarts empty). */
    const warmedUp = async () => {
      count(`${market()}-warm-up`, 1);
      await counter.flush();
    };
    return { counter, store, deadlines, count, warmedUp };
  };
  /** What was counted for organization `m` (the counter counts in the single market). */
  const countedFor = async (store: UsageStore, m: string) =>
    (await store.read({ ...all(SINGLE_MARKET), organization: m })).map((r) => [r.requests, r.bytes]);

  describe("the counter over it, when it fails", () => {
    test("a store that fails: counts held, one report, then written once it is back, and one report", async () => {
      const reports: string[] = [];
      const { counter, store, count, warmedUp } = counterOf(reports);
      const m = market();
      await warmedUp();
      await failures().break();
      try {
        count(m, 3);
        await counter.flush();
        count(m, 4);
        await counter.flush();
        expect(reports).toEqual([
          expect.stringMatching(
            /^usage: .+ unavailable \(.+\); the counts of 3 requests and whatever is counted meanwhile are held/,
          ),
        ]);
      } finally {
        await failures().mend();
        await failures().recovered();
      }
      await counter.flush();
      expect(await countedFor(store, m)).toEqual([[7, 70]]);
      expect(reports[1]).toMatch(/^usage: .+ available again; the counts held were written$/);
      expect(counter.lost()).toEqual({ requests: 0, bytes: 0 });
    });

    test("a store that never answers: each write waits its deadline, no longer; its batch counted once", async () => {
      const reports: string[] = [];
      const { counter, store, deadlines, count, warmedUp } = counterOf(reports);
      const m = market();
      await warmedUp();
      await failures().silence();
      try {
        count(m, 5);
        const waiting = deadlines.started();
        const write = counter.flush();
        // The write waits on its deadline, and nothing else ends it: the store never answers.
        await waiting;
        deadlines.pass();
        await write;
        expect(reports).toEqual([expect.stringMatching(/unavailable \(no answer within 50 ms\)/)]);
      } finally {
        // A store that held the write may do it now: the batch must not count twice.
        await failures().mend();
        await failures().recovered();
      }
      await counter.flush();
      expect(await countedFor(store, m)).toEqual([[5, 50]]);
    });

    test("a process that stops while the store is down: what it holds is lost, exactly, and said", async () => {
      const reports: string[] = [];
      const { counter, count, warmedUp } = counterOf(reports);
      const m = market();
      await warmedUp();
      await failures().break();
      try {
        count(m, 3);
        await counter.flush();
        count(m, 4);
        await counter.close();
      } finally {
        await failures().mend();
        await failures().recovered();
      }
      expect(counter.lost()).toEqual({ requests: 7, bytes: 70 });
      expect(reports.at(-1)).toMatch(
        new RegExp(
          `^usage: 7 requests \\(70 bytes\\) of ${m} not counted: the process stopped before the store took them`,
        ),
      );
      expect(await countedFor(under().open(), m)).toEqual([]);
    });
  });
}
