/**
 * Writes counted usage to its store off the request path (decision: usage). A write takes what was
 * counted since the last one as a batch with an id of its own and waits for the store at most the
 * store's deadline (the rate limiter's). A batch the store did not take stays held, with its id, and
 * is written again with the next write: if the first write landed after all, the store knows the id
 * and adds nothing. While one is held, what is counted meanwhile stays in the tally, summed by row, so
 * an outage costs memory by rows, not by requests. What the process still holds when it stops is
 * given up: its requests and bytes counted as lost, exactly, and said in one line. Writes run one at a
 * time; a write asked for while one runs is one write after it.
 */
import { randomUUID } from "node:crypto";
import { problemReport } from "../log/problem-report.js";
import { NO_ORGANIZATION, type UsageBatch, type UsageEntry, type UsageStore } from "./usage-store.js";

/** Resolves once `ms` have passed, unless `signal` aborts first (then never): the deadline's timer. */
export type Deadline = (ms: number, signal: AbortSignal) => Promise<void>;

export interface UsageWriterOptions {
  store: UsageStore;
  /** A write waits at most this long for the store. */
  timeoutMs: number;
  /** The deadline's timer (tests pass one they move by hand). */
  wait?: Deadline;
  /** Outages, their end, and counts lost: one line each. */
  report?: (message: string) => void;
  /** Batch ids (tests name them). */
  newId?: () => string;
}

export interface Lost {
  requests: number;
  bytes: number;
}

interface Held extends Lost {
  batch: UsageBatch;
  /** An attempt ran out of time: the store may have added it after all. */
  timedOut: boolean;
}

class DeadlineMissed extends Error {}

const requestsText = (n: number) => `${n} request${n === 1 ? "" : "s"}`;

const waitOnTimers: Deadline = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  });

/** A batch's requests (its corrections of `cdn` aside, which count no request) and bytes. */
function heldOf(batch: UsageBatch): Held {
  let requests = 0;
  let bytes = 0;
  for (const entry of batch.entries) {
    if (entry.requests > 0) requests += entry.requests;
    bytes += entry.bytes;
  }
  return { batch, requests, bytes, timedOut: false };
}

function organizationsOf(held: readonly Held[]): string {
  const names = new Set<string>();
  for (const { batch } of held) for (const entry of batch.entries) names.add(entry.organization);
  const shown = [...names].sort().map((name) => (name === NO_ORGANIZATION ? "(no organization)" : name));
  return shown.length > 5 ? `${shown.slice(0, 5).join(", ")} and ${shown.length - 5} more` : shown.join(", ");
}

export interface UsageWriter {
  /** Writes the batch held, if any, then what `take` gives; never rejects. */
  write(take: () => UsageEntry[]): Promise<void>;
  /** Gives up the batch held and `rest`, counted since (the process stops), said in one line. */
  giveUp(why: string, rest: UsageEntry[]): void;
  lost(): Lost;
}

export function usageWriter(options: UsageWriterOptions): UsageWriter {
  const { store } = options;
  const outage = problemReport(options.report);
  const newId = options.newId ?? randomUUID;
  const held: Held[] = [];
  const lost: Lost = { requests: 0, bytes: 0 };
  let lastReason = "";

  function drop(batches: Held[], why: string): void {
    if (batches.length === 0) return;
    const requests = batches.reduce((sum, h) => sum + h.requests, 0);
    const bytes = batches.reduce((sum, h) => sum + h.bytes, 0);
    lost.requests += requests;
    lost.bytes += bytes;
    const late = batches.some((h) => h.timedOut)
      ? "; a write that ran out of time may still have been added, once (ids: " +
        `${batches
          .filter((h) => h.timedOut)
          .map((h) => h.batch.id)
          .join(", ")})`
      : "";
    options.report?.(
      `usage: ${requestsText(requests)} (${bytes} bytes) of ${organizationsOf(batches)} not counted: ` +
        `${why} (${store.name}: ${lastReason || "not tried"})${late}`,
    );
  }

  async function addWithin(batch: UsageBatch): Promise<void> {
    const done = new AbortController();
    const deadline = (options.wait ?? waitOnTimers)(options.timeoutMs, done.signal).then(() => {
      throw new DeadlineMissed(`no answer within ${options.timeoutMs} ms`);
    });
    try {
      await Promise.race([store.add(batch, done.signal), deadline]);
    } finally {
      done.abort();
    }
  }

  /** Writes the batch held; false while the store does not take it. */
  async function writeHeld(): Promise<boolean> {
    const first = held[0];
    if (!first) return true;
    try {
      await addWithin(first.batch);
    } catch (error) {
      first.timedOut ||= error instanceof DeadlineMissed;
      lastReason = (error as Error).message;
      outage.problem(
        `usage: ${store.name} unavailable (${lastReason}); the counts of ${requestsText(first.requests)} and ` +
          "whatever is counted meanwhile are held in memory and written when it is back",
        "unavailable",
      );
      return false;
    }
    held.shift();
    outage.resolved(`usage: ${store.name} available again; the counts held were written`);
    return true;
  }

  return {
    async write(take) {
      // While the store does not take the batch held, new counts wait in the tally, summed.
      if (!(await writeHeld())) return;
      const entries = take();
      if (entries.length === 0) return;
      held.push(heldOf({ id: newId(), entries }));
      await writeHeld();
    },
    giveUp(why, rest) {
      const left =
        rest.length > 0 ? [...held.splice(0), heldOf({ id: "(not written)", entries: rest })] : held.splice(0);
      drop(left, why);
    },
    lost: () => ({ ...lost }),
  };
}
