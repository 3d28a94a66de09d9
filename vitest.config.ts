import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The second names, after the summary, the tests skipped for want of chromium or redis-server.
    reporters: ["default", "./test/reporters/missing-tools.ts"],
    // Two files at a time: many tests wait on processes they start (builds, servers, releases),
    // and vitest's default on a 2-core machine is one (cores - 1).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Request logs stay quiet in tests; LOG_LEVEL=info shows them.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
