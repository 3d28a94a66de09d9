import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * How many times slower than on an idle machine the tests may run: the processes running beside
 * this one per core (the one-minute load average, or the count running now when higher), at least
 * 1. TEST_TIMEOUT_SCALE set by hand wins. Every deadline of the suite is scaled by it
 * (test/helpers/deadlines.ts), so a busy machine makes the run slow, never red.
 */
function timeoutScale(): number {
  const given = Number(process.env.TEST_TIMEOUT_SCALE);
  if (given > 0) return given;
  let busy = loadavg()[0] ?? 0;
  try {
    // /proc/loadavg's fourth field: running/total; this process is one of the running.
    const running = Number(readFileSync("/proc/loadavg", "utf8").split(" ")[3]?.split("/")[0]);
    if (running > 0) busy = Math.max(busy, running - 1);
  } catch {
    // Not Linux: the load average alone.
  }
  return Math.max(1, Math.round((busy / availableParallelism()) * 10) / 10);
}
const scale = timeoutScale();

/**
 * Test files that replace a module for their own tests (vi.mock, vi.doMock): each runs with modules
 * of its own. Every other file shares its worker's loaded modules with the files run before it
 * (isolate: false), which halves the CPU of a run's many small files: they import the same api/,
 * build/ and helpers once per worker, not once each. They share no global state: each builds its
 * own data in a folder of its own, and puts back what it changes (the umask, an environment variable).
 */
const OWN_MODULES = ["test/showtime-extensions.test.ts", "test/request-log.test.ts"];

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: "own-modules", include: OWN_MODULES, isolate: true } },
      {
        extends: true,
        test: { name: "shared-modules", include: ["test/**/*.test.ts"], exclude: OWN_MODULES, isolate: false },
      },
    ],
    // The second names, after the summary, the tests skipped for want of chromium or redis-server.
    reporters: ["default", "./test/reporters/missing-tools.ts"],
    // Bundles the command-line entries tests start as processes, once per run.
    globalSetup: ["./test/global-setup.ts"],
    // Ends the processes a file started, with their children, when the file is over.
    setupFiles: ["./test/setup-children.ts"],
    // Two files at a time: many tests wait on processes they start (builds, servers, releases),
    // and vitest's default on a 2-core machine is one (cores - 1).
    maxWorkers: 2,
    // Backstops for a test that hangs, scaled to the machine's load (no test comes near them idle).
    testTimeout: 60_000 * scale,
    hookTimeout: 120_000 * scale,
    // Request logs stay quiet in tests; LOG_LEVEL=info shows them. The servers tests start keep the
    // usage they count in a folder of the tests' own, never the operator's ops/usage (decision: usage).
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      TEST_TIMEOUT_SCALE: String(scale),
      USAGE_DIR: path.join(tmpdir(), "cinema-listings-test-usage"),
    },
  },
});
