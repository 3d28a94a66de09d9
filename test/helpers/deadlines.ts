/**
 * Deadlines that scale with the machine: TEST_TIMEOUT_SCALE, set by vitest.config.ts from the load
 * beside the run (how many times slower than an idle machine the tests may go), multiplies every
 * time a test allows itself, as it does vitest's own test and hook timeouts.
 */
export const TIMEOUT_SCALE = Math.max(1, Number(process.env.TEST_TIMEOUT_SCALE) || 1);

/** `ms` on an idle machine, scaled to this one's load. */
export function scaled(ms: number): number {
  return Math.round(ms * TIMEOUT_SCALE);
}
