/**
 * `npm start`: the demo data made current (its first day today, decision: a demo that is always
 * current), built into snapshot/ and served with the demo access file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseCorsOrigins } from "../api/_core/gate/cors.js";
import { checkDate } from "../api/_core/format/primitives/date-time.js";
import { limiterFromEnvironment } from "../api/_adapters/environment.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { formatReport } from "../build/report/problems.js";
import { runBuild } from "../build/run-build.js";
import { holdPort, listenFailure, parsePort, type PortHold } from "./server/listen-port.js";
import { writeCurrentDemo } from "./demo/demo-folder.js";
import { startServer } from "./server/local-server.js";
import { onStop, requestLogger } from "./server/request-log.js";
import { localUsage } from "./server/usage-counting.js";

function fail(message: string): never {
  process.stderr.write(`start: ${message}\n`);
  process.exit(1);
}

/** The port first: on a taken port, nothing is built (decision: stopping the local server). */
async function holdPortOrFail(host: string): Promise<PortHold> {
  const port = parsePort(process.env.PORT ?? "3000");
  if (port === undefined) fail("PORT must be a number from 0 to 65535");
  try {
    return await holdPort(port, host);
  } catch (error) {
    fail(listenFailure(error, port, host, "PORT=N"));
  }
}

async function main(): Promise<void> {
  const host = process.env.HOST ?? "127.0.0.1";
  const hold = await holdPortOrFail(host);
  // Today in UTC, or the day DEMO_TODAY names (a reproducible demo).
  const today = process.env.DEMO_TODAY ?? new Date().toISOString().slice(0, 10);
  if (checkDate(today)) fail(`DEMO_TODAY must be a date YYYY-MM-DD, not ${JSON.stringify(today)}`);
  const demo = mkdtempSync(path.join(tmpdir(), "cinema-listings-demo-"));
  writeCurrentDemo("data", demo, today);
  const result = await runBuild({ dataDir: demo, output: createDiskWriter("snapshot") }).finally(() =>
    rmSync(demo, { recursive: true, force: true }),
  );
  if (!result.ok) {
    process.stderr.write(`${formatReport(result.problems)}\n`);
    process.exit(1);
  }
  const log = requestLogger();
  const limiter = limiterFromEnvironment(process.env, log.warn);
  const usage = localUsage(process.env, log.warn);
  onStop(usage.close);
  await hold.release();
  const { url } = await startServer({
    snapshotDir: "snapshot",
    accessFile: "data/demo-access.json",
    port: hold.port,
    host,
    limiter,
    usage: usage.counter,
    // Only when data/ holds markets.json (decision: markets).
    defaultMarket: process.env.DEFAULT_MARKET || undefined,
    corsOrigins: parseCorsOrigins(process.env.CORS_ORIGINS),
    onLog: log.request,
    onError: log.error,
    snapshotLog: log,
  }).catch((error: unknown) => fail(listenFailure(error, hold.port, host, "PORT=N")));
  process.stdout.write(
    `listening on ${url.replace("127.0.0.1", "localhost")} (demo key: cl_demo_3f9a1c7e5b2d4086a1e7c9b3)\n`,
  );
}

main().catch((error: unknown) => fail((error as Error).message));
