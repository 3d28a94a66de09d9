/**
 * `npm run usage -- [--org ID] [--market ID] [--from DATE] [--to DATE] [--by day|month]
 * [--format table|csv|json]`: what each organization used, per period, by operation and outcome, from
 * the shared store (or the local server's folder): decision: usage, docs/operations.md "Usage".
 * Exit 0 printed; 1 the store could not be read; 2 bad arguments.
 */
import { UsageError } from "./usage/args.js";
import { runUsage } from "./usage/run-usage.js";

function fail(message: string, status: number): never {
  // One line, never a stack trace; the usage is one --help away.
  process.stderr.write(`usage: ${message}${status === 2 ? " (see --help)" : ""}\n`);
  process.exit(status);
}

runUsage(process.argv.slice(2), {
  env: process.env,
  now: () => new Date(),
  stdout: (text) => process.stdout.write(text),
}).catch((error: unknown) => fail((error as Error).message, error instanceof UsageError ? 2 : 1));
