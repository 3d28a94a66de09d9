/**
 * Writes counted usage to its store off the request path (decision: usage). A write takes what was
 * counted since the last one as a batch with an id of its own and waits for the store at most the
 * store's deadline (the rate limiter's). A batch the store did not take stays held, with its id, and
 * is written again, oldest first, with the next write: if the first write landed after all, the store
 * knows the id and adds nothing. A batch is given up only when the process stops with it still held,
 * or when more than `maxHeld` are held; its requests and bytes are then counted as lost, exactly, and
 * said in one line. Writes run one at a time; a write asked for while one runs is one write after it.
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
  /** Batches held at most; past it the oldest is given up. */
  maxHeld?: number;
}

/** About an hour of one write a second while the store is down (a batch is a few kilobytes). */
export const MAX_HELD_BATCHES = 3_600;

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
  /** Writes what `take` gives and every held batch; never rejects. */
  write(take: () => UsageEntry[]): Promise<void>;
  /** Gives up every held batch (the process stops), said in one line. */
  giveUp(why: string): void;
  lost(): Lost;
}

export function usageWriter(options: UsageWriterOptions): UsageWriter {
  const { store } = options;
  const outage = problemReport(options.report);
  const newId = options.newId ?? randomUUID;
  const maxHeld = options.maxHeld ?? MAX_HELD_BATCHES;
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

  async function writeHeld(): Promise<void> {
    while (held.length > 0) {
      const first = held[0]!;
      try {
        await addWithin(first.batch);
      } catch (error) {
        first.timedOut ||= error instanceof DeadlineMissed;
        lastReason = (error as Error).message;
        const heldRequests = held.reduce((sum, h) => sum + h.requests, 0);
        outage.problem(
          `usage: ${store.name} unavailable (${lastReason}); the counts of ${requestsText(heldRequests)} are held ` +
            "in memory and written when it is back",
          "unavailable",
        );
        return;
      }
      held.shift();
      outage.resolved(`usage: ${store.name} available again; the counts held were written`);
    }
  }

  return {
    async write(take) {
      const entries = take();
      if (entries.length > 0) held.push(heldOf({ id: newId(), entries }));
      if (held.length > maxHeld) drop(held.splice(0, held.length - maxHeld), `more than ${maxHeld} writes held`);
      await writeHeld();
    },
    giveUp(why) {
      drop(held.splice(0), why);
    },
    lost: () => ({ ...lost }),
  };
}
