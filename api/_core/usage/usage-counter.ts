/**
 * Usage per organization, counted where each request is decided (decision: usage): by UTC day,
 * market, organization, operation and outcome, with requests and response bytes. `count` adds to
 * this instance's tally and returns (no promise, no store); `flush` writes the tally to the store off
 * the request path (usage-writer.ts), on an interval on a server, under waitUntil on Vercel.
 */
import { marketOf } from "./market.js";
import { operationOf } from "./operation.js";
import { outcomeOf } from "./outcome.js";
import type { Settlement } from "./settlement.js";
import { NO_ORGANIZATION } from "./usage-store.js";
import { UsageTally, utcDays } from "./usage-tally.js";
import { type Lost, usageWriter, type UsageWriterOptions } from "./usage-writer.js";

/** One decided request, as the core or the gateway saw it. */
export interface UsageEvent {
  /** The target (origin-form) as routed: within its market, when its path names one. */
  url: string;
  /** The market it was served from, when the routing by market knows it; else marketOf(url). */
  market?: string;
  status: number;
  bytes: number;
  /** Undefined: refused for a key that names none. */
  organization?: string;
  /** The tool an MCP tools/call named. */
  tool?: string;
  /** The function settling a request the gateway handed on: counted under the gateway's day and organization. */
  settles?: Settlement;
}

/** What the request core and the gateway count with. */
export interface UsageRecorder {
  /** Counts one request in this instance's memory: never waits, never throws. */
  count(event: UsageEvent): void;
  /**
   * Counts a request for `url` the gateway hands on without seeing its answer, as `cdn`, under
   * `market` (default: marketOf(url)); what it returns is what the function settles it by if it
   * answers it (sent as settlement.ts's header).
   */
  handOff(url: string, organization: string, market?: string): Settlement;
}

export interface UsageCounter extends UsageRecorder {
  /** Writes what was counted (and anything held) to the store; never rejects. */
  flush(): Promise<void>;
  /** A last write, then whatever the store did not take is counted as lost and said; the store closed. */
  close(): Promise<void>;
  /** Requests and bytes given up so far. */
  lost(): Lost;
}

export interface UsageCounterOptions extends UsageWriterOptions {
  /** Milliseconds since the epoch, for the day a request is counted on (tests move it). */
  clock?: () => number;
}

export function usageCounter(options: UsageCounterOptions): UsageCounter {
  const clock = options.clock ?? Date.now;
  const dayOf = utcDays();
  const tally = new UsageTally();
  const writer = usageWriter(options);
  /** The write that will carry what is counted now, if one is waiting to start. */
  let next: Promise<void> | undefined;
  let last: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (next) return next;
    const write = last.then(() => {
      next = undefined;
      return writer.write(() => tally.take());
    });
    next = write;
    last = write;
    return write;
  }

  return {
    count(event) {
      const { url, settles } = event;
      const day = settles?.day ?? dayOf(clock());
      const organization = settles?.organization ?? event.organization ?? NO_ORGANIZATION;
      const market = event.market ?? marketOf(url);
      tally.add(day, market, organization, operationOf(url, event.tool), outcomeOf(event.status), 1, event.bytes);
      if (settles) tally.add(day, market, organization, settles.operation, "cdn", -1, 0);
    },
    handOff(url, organization, market) {
      const settlement = { day: dayOf(clock()), organization, operation: operationOf(url) };
      tally.add(settlement.day, market ?? marketOf(url), organization, settlement.operation, "cdn", 1, 0);
      return settlement;
    },
    flush,
    async close() {
      await flush();
      writer.giveUp("the process stopped before the store took them", tally.take());
      await options.store.close?.();
    },
    lost: writer.lost,
  };
}
