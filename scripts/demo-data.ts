/** `npm run demo-data -- --out DIR [--data data] [--today YYYY-MM-DD]`: the demo data, its first day moved to today. */
import { parseArgs } from "node:util";
import { checkDate } from "../api/_core/format/primitives/date-time.js";
import { writeCurrentDemo } from "./demo/demo-folder.js";

const USAGE = "usage: npm run demo-data -- --out DIR [--data data] [--today YYYY-MM-DD]";

function fail(message: string): never {
  process.stderr.write(`demo-data: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: { data: { type: "string", default: "data" }, out: { type: "string" }, today: { type: "string" } },
    strict: true,
  }));
} catch (error) {
  fail((error as Error).message);
}
if (!values.out) fail("--out is required");
// Today in UTC unless told (tests and reproducible demos pass --today).
const today = values.today ?? new Date().toISOString().slice(0, 10);
const reason = checkDate(today);
if (reason) fail(`--today must be a date YYYY-MM-DD (${reason})`);
writeCurrentDemo(values.data!, values.out, today);
process.stdout.write(`wrote ${values.out}: the demo of ${values.data} starting ${today}\n`);
