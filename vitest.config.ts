import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The second names, after the summary, the tests skipped for want of chromium or redis-server.
    reporters: ["default", "./test/reporters/missing-tools.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Request logs stay quiet in tests; LOG_LEVEL=info shows them.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
