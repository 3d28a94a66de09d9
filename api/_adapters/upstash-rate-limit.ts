/**
 * Shared rate limits in Upstash Redis over HTTP (the gateway middleware holds no TCP connection
 * between requests): the counter store behind store-rate-limit.ts, which holds the windows, the
 * deadline (UPSTASH_TIMEOUT_MS), the fail-open and the outage reports. Each hit is one round trip:
 * SET the counter with its expiry if it is new, then INCR it, in one transaction; a request still
 * open at the deadline is cancelled, so no socket waits on a store that never answers. During an
 * outage one request a second tries the store; the others count in memory without waiting.
 */
import type { RateLimiter } from "../_core/gate/rate-limit.js";
import { type CounterStore, storeRateLimiter, type Wait } from "./store-rate-limit.js";

export interface UpstashLimiterOptions {
  url: string;
  token: string;
  /** A request waits at most this long for the store before counting in memory. */
  timeoutMs?: number;
  onStateChange?: (message: string) => void;
  /** Milliseconds, for the retry during an outage (tests move it). */
  clock?: () => number;
  /** The deadline's timer (tests pass one they move by hand). */
  wait?: Wait;
}

/** An HTTP round trip costs more than a TCP command: a wider budget than Redis's 50 ms. */
export const UPSTASH_TIMEOUT_MS = 150;
/** Its row's identity in the store table (rate-limit-stores.ts). */
export const UPSTASH_STORE = { name: "Upstash", timeoutMs: UPSTASH_TIMEOUT_MS } as const;
/** During an outage one request a second tries the store; the others count in memory without waiting. */
export const RETRY_AFTER_OUTAGE_MS = 1_000;

const NEVER_ABORTED = new AbortController().signal;

function upstashStore(options: UpstashLimiterOptions): CounterStore {
  // @upstash/redis takes one signal per client; given as a function it is read as each request is
  // sent, within exec()'s synchronous start, so this hands it the signal of the call being sent.
  let sending = NEVER_ABORTED;
  const client = import("@upstash/redis").then(
    ({ Redis }) =>
      new Redis({
        url: options.url,
        token: options.token,
        retry: { retries: 0 },
        enableTelemetry: false,
        signal: () => sending,
      }),
  );
  return {
    name: UPSTASH_STORE.name,
    async increment(key, ttlMs, signal) {
      const transaction = (await client).multi();
      transaction.set(key, 0, { nx: true, px: ttlMs });
      transaction.incr(key);
      sending = signal;
      const answer = transaction.exec();
      sending = NEVER_ABORTED;
      const [, counted] = (await answer) as [unknown, unknown];
      if (typeof counted !== "number") throw new Error(`unexpected answer ${JSON.stringify(counted)}`);
      return counted;
    },
  };
}

export function upstashRateLimiter(options: UpstashLimiterOptions): RateLimiter {
  return storeRateLimiter(upstashStore(options), {
    timeoutMs: options.timeoutMs ?? UPSTASH_TIMEOUT_MS,
    wait: options.wait,
    onStateChange: options.onStateChange,
    clock: options.clock,
    retryAfterOutageMs: RETRY_AFTER_OUTAGE_MS,
  });
}

/**
 * The Upstash limiter when UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are set (or the
 * KV_REST_API_* names Vercel's marketplace integration sets); undefined otherwise.
 */
export function upstashRateLimiterFromEnvironment(
  env: NodeJS.ProcessEnv,
  onStateChange?: (message: string) => void,
): RateLimiter | undefined {
  const credentials = upstashCredentialsOf(env);
  return credentials && upstashRateLimiter({ ...credentials, onStateChange });
}

/** Upstash's REST URL and token from the environment (either pair of names), or undefined when not both are set. */
export function upstashCredentialsOf(env: NodeJS.ProcessEnv): { url: string; token: string } | undefined {
  const url = env.UPSTASH_REDIS_REST_URL ?? env.KV_REST_API_URL;
  const token = env.UPSTASH_REDIS_REST_TOKEN ?? env.KV_REST_API_TOKEN;
  return url && token ? { url, token } : undefined;
}
