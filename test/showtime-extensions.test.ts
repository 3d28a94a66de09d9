/**
 * Optional showtime fields added later (decision: showtime fields added later): a row with
 * `stored: "extension"` at the end of the shape table is all a field needs. The product table has
 * none yet, so this file loads the table with one extension row of each value type (a module mock
 * every module of this test sees; validation workers are sent the table their parent holds), builds
 * random records made from it through the worker and the main-thread paths, and expects every
 * value back byte for byte: the same entries and snapshot both ways, each response the validator's
 * canonical JSON, and find_showtimes's listing the page's without provenance.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { EXTENSION_FIELDS } from "../api/_core/format/layout/showtime-record.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler } from "../api/_core/handle-request.js";
import { showtimeSchema } from "../build/validate/schemas.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { writeDataset } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { expectListingOfPage, listingServer } from "./helpers/listing.js";
import { datasetOf, showtimesArb } from "./helpers/showtime-records.js";
import { buildBothWays, expectSameShowtimes, validateBothWays } from "./helpers/validation-paths.js";

/** Added after the product's rows (extension rows of its own included), named apart from any of them. */
const EXTENSION_ROWS = vi.hoisted(() => [
  { name: "testSessionCode", type: "id", optional: true, stored: "extension" },
  { name: "testDoorsOpenAt", type: "dateTime", optional: true, stored: "extension" },
  { name: "testTrailerUrl", type: "url", max: 2048, optional: true, stored: "extension" },
  { name: "testAccessIds", type: "idList", max: 8, optional: true, stored: "extension" },
  { name: "testSubtitles", type: "text", min: 1, max: 120, optional: true, stored: "extension" },
]);

vi.mock("../api/_core/format/layout/showtime-fields.js", async (importOriginal) => {
  const table = await importOriginal<typeof import("../api/_core/format/layout/showtime-fields.js")>();
  return { ...table, SHOWTIME_FIELDS: [...table.SHOWTIME_FIELDS, ...EXTENSION_ROWS] };
});

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("extensions");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

describe("a showtime field added as an extension row", () => {
  test("every module sees the table with the extension rows, in bit order", () => {
    expect(EXTENSION_FIELDS.slice(-EXTENSION_ROWS.length).map((f) => f.name)).toEqual(
      EXTENSION_ROWS.map((r) => r.name),
    );
    expect(Object.keys(showtimeSchema.shape).slice(-EXTENSION_ROWS.length)).toEqual(EXTENSION_ROWS.map((r) => r.name));
  });

  test("comes back byte for byte through the worker and the main-thread paths", async () => {
    const seen = new Set<string>();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(showtimesArb(16), async (showtimes) => {
        const dir = `${root}/run-${run++}`;
        writeDataset(`${dir}/data`, datasetOf(showtimes));
        const { inline, threaded } = await validateBothWays(`${dir}/data`);
        expectSameShowtimes(inline, threaded, showtimes);
        const snapshot = await buildBothWays(`${dir}/data`, dir);
        const handle = createHandler({
          snapshots: new SnapshotSource(snapshot),
          access: fileAccess(accessFile),
          now: () => TEST_NOW,
        });
        for (const showtime of showtimes) {
          const response = await handle({
            method: "GET",
            url: `/v1/showtimes/${encodeURIComponent(showtime.id as string)}`,
            headers: { authorization: `Bearer ${KEYS.bulk}` },
          });
          expect(response.status).toBe(200);
          const body = Buffer.from(response.body).toString();
          expect(body.slice('{"data":'.length, body.indexOf(',"freshness":'))).toBe(
            JSON.stringify(showtimeSchema.parse(showtime)),
          );
          for (const row of EXTENSION_ROWS) if (showtime[row.name] !== undefined) seen.add(row.name);
        }
        // find_showtimes's listing keeps them, its provenance gone (decision: MCP, a page of showtimes).
        const source = new SnapshotSource(snapshot);
        expectListingOfPage(listingServer(source), "/v1/showtimes?limit=20&include=film,cinema");
        source.current().close();
      }),
      { numRuns: 8 },
    );
    // Not vacuous: each extension row was carried by some record.
    expect([...seen].sort()).toEqual(EXTENSION_ROWS.map((r) => r.name).sort());
  });
});
