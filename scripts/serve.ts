/** `npm run serve -- --snapshot DIR --access FILE --port N`: serve a built snapshot locally. */
import { parseArgs } from "node:util";
import { rateLimiterFromEnvironment } from "../api/_core/redis-rate-limit.js";
import { startServer } from "./local-server.js";
import { requestLogger } from "./request-log.js";

const USAGE = "usage: npm run serve -- --snapshot DIR --access FILE --port N [--host 127.0.0.1]";

function fail(message: string): never {
  process.stderr.write(`serve: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        snapshot: { type: "string", default: "snapshot" },
        access: { type: "string", default: "data/demo-access.json" },
        port: { type: "string", default: process.env.PORT ?? "3000" },
        host: { type: "string", default: "127.0.0.1" },
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
// REDIS_URL set: one rate limit shared by every server process (issue 5); otherwise in memory.
Promise.resolve()
  .then(() =>
    startServer({
      ...options,
      limiter: rateLimiterFromEnvironment(process.env, log.warn),
      onLog: log.request,
      onError: log.error,
    }),
  )
  .then(({ url }) => process.stdout.write(`listening on ${url}\n`))
  .catch((error: unknown) => fail((error as Error).message));
