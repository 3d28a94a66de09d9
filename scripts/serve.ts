/** `npm run serve -- --snapshot DIR --access FILE --port N`: serve a built snapshot locally. */
import { parseArgs } from "node:util";
import { parseCorsOrigins } from "../api/_core/gate/cors.js";
import { limiterFromEnvironment } from "../api/_adapters/environment.js";
import { listenFailure, parsePort } from "./server/listen-port.js";
import { startServer } from "./server/local-server.js";
import { onStop, requestLogger } from "./server/request-log.js";
import { localUsage } from "./server/usage-counting.js";

const USAGE = "usage: npm run serve -- --snapshot DIR --access FILE --port N [--host 127.0.0.1] [--default-market ID]";

function fail(message: string, usage = true): never {
  process.stderr.write(`serve: ${message}\n${usage ? `${USAGE}\n` : ""}`);
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
        host: { type: "string", default: process.env.HOST ?? "127.0.0.1" },
        // The market /v1 and /mcp serve in a multi-market folder (decision: markets).
        "default-market": {
          type: "string",
          ...(process.env.DEFAULT_MARKET ? { default: process.env.DEFAULT_MARKET } : {}),
        },
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
  const port = parsePort(values.port!);
  if (port === undefined) fail("--port must be a number from 0 to 65535");
  const defaultMarket = values["default-market"];
  return { snapshotDir: values.snapshot!, accessFile: values.access!, port, host: values.host!, defaultMarket };
}

const options = readOptions();
const log = requestLogger();
// UPSTASH_REDIS_REST_* or REDIS_URL set: one rate limit shared by every server process; otherwise in memory.
// The same store counts usage (decision: usage); without one, files in USAGE_DIR (default ops/usage).
Promise.resolve()
  .then(() => {
    const usage = localUsage(process.env, log.warn);
    onStop(usage.close);
    return startServer({
      ...options,
      limiter: limiterFromEnvironment(process.env, log.warn),
      usage: usage.counter,
      corsOrigins: parseCorsOrigins(process.env.CORS_ORIGINS),
      onLog: log.request,
      onError: log.error,
      snapshotLog: log,
      onSnapshotProblem: (reason, market) =>
        process.stderr.write(
          market === undefined
            ? `serve: the snapshot in ${options.snapshotDir} cannot be served (${reason}); ` +
                "every request answers 503 until it can\n"
            : `serve: market ${market} in ${options.snapshotDir} cannot be served (${reason}); ` +
                "its requests answer 503 until it can\n",
        ),
    });
  })
  .then(({ url }) => process.stdout.write(`listening on ${url}\n`))
  .catch((error: unknown) => fail(listenFailure(error, options.port, options.host, "--port"), false));
