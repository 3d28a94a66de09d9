/** `npm run serve -- --snapshot DIR --access FILE --port N`: serve a built snapshot locally. */
import { parseArgs } from "node:util";
import { parseCorsOrigins } from "../api/_core/cors.js";
import { limiterFromEnvironment } from "../api/_adapters/environment.js";
import { startServer } from "./local-server.js";
import { requestLogger } from "./request-log.js";

const USAGE = "usage: npm run serve -- --snapshot DIR --access FILE --port N [--host 127.0.0.1]";

function fail(message: string, usage = true): never {
  process.stderr.write(`serve: ${message}\n${usage ? `${USAGE}\n` : ""}`);
  process.exit(2);
}

/** Why the server could not start, in one line: a port in use is not a usage mistake. */
function failToStart(error: unknown, port: number, host: string): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    fail(`port ${port} on ${host} is already in use (another server?): choose another with --port`, false);
  if (code === "EACCES")
    fail(`port ${port} on ${host} needs privileges this user does not have: choose one above 1023`, false);
  fail((error as Error).message, false);
}

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        snapshot: { type: "string", default: "snapshot" },
        access: { type: "string", default: "data/demo-access.json" },
        port: { type: "string", default: process.env.PORT ?? "3000" },
        host: { type: "string", default: process.env.HOST ?? "127.0.0.1" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!/^\d{1,5}$/.test(values.port!) || Number(values.port) > 65535) fail("--port must be a number from 0 to 65535");
  return { snapshotDir: values.snapshot!, accessFile: values.access!, port: Number(values.port), host: values.host! };
}

const options = readOptions();
const log = requestLogger();
// UPSTASH_REDIS_REST_* or REDIS_URL set: one rate limit shared by every server process; otherwise in memory.
Promise.resolve()
  .then(() =>
    startServer({
      ...options,
      limiter: limiterFromEnvironment(process.env, log.warn),
      corsOrigins: parseCorsOrigins(process.env.CORS_ORIGINS),
      onLog: log.request,
      onError: log.error,
      onSnapshotProblem: (reason) =>
        process.stderr.write(
          `serve: the snapshot in ${options.snapshotDir} cannot be served (${reason}); every request answers 503 until it can\n`,
        ),
    }),
  )
  .then(({ url }) => process.stdout.write(`listening on ${url}\n`))
  .catch((error: unknown) => failToStart(error, options.port, options.host));
