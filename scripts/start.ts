/** `npm start`: build data/ into snapshot/ and serve it with the demo access file. */
import { parseCorsOrigins } from "../api/_core/cors.js";
import { limiterFromEnvironment } from "../api/_adapters/environment.js";
import { createDiskWriter } from "../build/output-writer.js";
import { formatReport } from "../build/problems.js";
import { runBuild } from "../build/run-build.js";
import { startServer } from "./local-server.js";
import { requestLogger } from "./request-log.js";

async function main(): Promise<void> {
  const result = await runBuild({ dataDir: "data", output: createDiskWriter("snapshot") });
  if (!result.ok) {
    process.stderr.write(`${formatReport(result.problems)}\n`);
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "127.0.0.1";
  const log = requestLogger();
  const limiter = limiterFromEnvironment(process.env, log.warn);
  const { url } = await startServer({
    snapshotDir: "snapshot",
    accessFile: "data/demo-access.json",
    port,
    host,
    limiter,
    corsOrigins: parseCorsOrigins(process.env.CORS_ORIGINS),
    onLog: log.request,
    onError: log.error,
  });
  process.stdout.write(
    `listening on ${url.replace("127.0.0.1", "localhost")} (demo key: cl_demo_3f9a1c7e5b2d4086a1e7c9b3)\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`start: ${(error as Error).message}\n`);
  process.exit(1);
});
