/**
 * Per-organization rate limiting with fixed windows aligned to the clock, counted across all of
 * an organization's keys. Aligned windows make the count a plain counter per (org, window),
 * which a shared store can hold too.
 */
import type { RateLimitPolicy } from "./access-file.js";

/** Applied when an organization's access entry sets no rateLimit (README). */
export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { requests: 600, windowSeconds: 60 };

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiter {
  hit(organizationId: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> | RateDecision;
}

/** Turns a count in the current window into a decision. */
export function decide(count: number, policy: RateLimitPolicy, nowMs: number): RateDecision {
  const windowMs = policy.windowSeconds * 1000;
  const resetSeconds = Math.max(1, Math.ceil((windowMs - (nowMs % windowMs)) / 1000));
  return {
    allowed: count <= policy.requests,
    limit: policy.requests,
    remaining: Math.max(0, policy.requests - count),
    resetSeconds,
    windowSeconds: policy.windowSeconds,
  };
}

/** Counts in this process's memory: right for one server, per instance on serverless. */
export function memoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { window: number; count: number }>();
  return {
    hit(organizationId, policy, nowMs) {
      const window = Math.floor(nowMs / (policy.windowSeconds * 1000));
      const key = `${organizationId}\u0000${policy.windowSeconds}`;
      let state = windows.get(key);
      if (!state || state.window !== window) windows.set(key, (state = { window, count: 0 }));
      state.count++;
      return decide(state.count, policy, nowMs);
    },
  };
}
