/**
 * The attribute filters (decision: query parameters, known attribute ids): `attributeIds` (all of
 * them) and `anyAttributeIds` (at least one) at their bounds, over a catalogue of 38 attributes;
 * an id the snapshot's catalogue lacks refused on every endpoint taking either, in-process and over
 * a socket, with a message naming the nearest known ids that the MCP tools give word for word; and
 * any-of, beside every other filter, paging through exactly what the brute-force oracle expects.
 */
import type { Server } from "node:http";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { unknownAttribute } from "../api/_core/endpoints/parameters/attribute-filters.js";
import { nearestIds } from "../api/_core/endpoints/parameters/nearest-ids.js";
import { parseAttributeIds } from "../api/_core/endpoints/parameters/query-values.js";
import { LIST_TABLES } from "../api/_core/endpoints/parse-request.js";
import { ROUTES, templateOf } from "../api/_core/endpoints/routes.js";
import { TOOLS_BY_NAME, toolDefinitions } from "../api/_core/mcp/tools.js";
import { codePointLength } from "../api/_core/respond/text.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, type Dataset, generateDataset } from "./helpers/dataset.js";
import { auth, describeMatrix, KEYS, TEST_NOW, useClient, writeAccessFile } from "./helpers/http-setup.js";
import { connectMcp } from "./helpers/mcp-session.js";
import { type ListResource, queryArb } from "./helpers/query-oracle.js";
import { checkRandomQueries } from "./helpers/query-walk.js";
import { scaled } from "./helpers/deadlines.js";

const NAMES = ["attributeIds", "anyAttributeIds"] as const;
const EXTRA = Array.from({ length: 30 }, (_, i) => `extra-${String(i).padStart(2, "0")}`);
const LONG_ID = `format-${"l".repeat(153)}`;
const COMMA_ID = "event-q&a,late";

/** The test dataset with 32 more attributes (38): 30 plain, one of 160 characters, one holding a comma. */
function withLargeCatalogue(dataset: Dataset): Dataset {
  const more = [...EXTRA, LONG_ID, COMMA_ID];
  return {
    ...dataset,
    attributes: [...dataset.attributes, ...more.map((id) => ({ id, kind: "event", name: `Extra ${id.slice(0, 40)}` }))],
    showtimes: dataset.showtimes.map((s, i) => ({ ...s, attributeIds: [...s.attributeIds, more[i % more.length]!] })),
  };
}

let root: string;
let snapshotDir: string;
let accessFile: string;
beforeAll(async () => {
  root = makeTempDir("attribute-filters");
  snapshotDir = path.join(root, "snapshot");
  accessFile = writeAccessFile(root);
  await buildDataset(withLargeCatalogue(generateDataset({ seed: 20_261_201, showtimes: 120 })), root, snapshotDir);
});
afterAll(() => removeDir(root));

describe("the nearest known ids", () => {
  const KNOWN = [
    { id: "format-2d", name: "2D" },
    { id: "format-imax", name: "IMAX" },
    { id: "format-imax-3d", name: "IMAX 3D" },
    { id: "format-dolby-cinema", name: "Dolby Cinema" },
    { id: "lang-en", name: "English" },
    { id: "Lang-EN", name: "English (original)" },
    { id: "access-subtitled", name: "Subtitled" },
    { id: "access-wheelchair", name: "Wheelchair access" },
  ];

  test.each<[string, string[], string]>([
    ["imax", ["format-imax", "format-imax-3d"], "a name equal ignoring case, then an id containing it"],
    ["IMAX", ["format-imax", "format-imax-3d"], "the same in capitals"],
    ["FORMAT-IMAX", ["format-imax", "format-imax-3d"], "an id in the wrong case"],
    ["lang-En", ["Lang-EN", "lang-en"], "case-only twins both, by id"],
    ["english", ["lang-en", "Lang-EN"], "by name, the closer name first"],
    ["fromat-2d", ["format-2d"], "two edits in nine characters"],
    ["subtitles", ["access-subtitled"], "one edit from the id past its kind"],
    ["format-imax-laser", ["format-imax"], "holding a whole known id"],
    ["wheelchair", ["access-wheelchair"], "contained in an id"],
    ["zzz", [], "nothing near: none named"],
    ["format", ["format-2d", "format-imax", "format-imax-3d", "format-dolby-cinema"], "the least beside it first"],
    ["format-imx", ["format-imax"], "not format-2d, three edits away: one edit per four characters"],
  ])("%s → %j (%s)", (given, expected) => {
    expect(nearestIds(given, KNOWN)).toEqual(expected);
  });

  test("at most five", () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ id: `lang-${i}` }));
    expect(nearestIds("lang", many)).toEqual(["lang-0", "lang-1", "lang-2", "lang-3", "lang-4"]);
  });

  test("a message stays within spec §7's 300 characters, naming as many ids as fit", () => {
    const long = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(160));
    const echoed = "\u0001".repeat(200);
    for (const [unknown, nearest] of [
      [echoed, long],
      ["imax", long],
      [echoed, []],
    ] as const) {
      const error = unknownAttribute("anyAttributeIds", unknown, 31, [...nearest]);
      expect(codePointLength(error.message)).toBeLessThanOrEqual(300);
      expect(error.details).toEqual({ parameter: "anyAttributeIds" });
    }
    expect(unknownAttribute("attributeIds", "imax", 0, ["1".repeat(160), "2".repeat(160)]).message).toContain(
      `nearest: ${"1".repeat(160)};`,
    );
  });
});

describe.each(NAMES)("%s: parsed at its bounds", (name) => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i}`).join(",");
  test.each<[string, string, boolean]>([
    ["one id", "lang-en", true],
    ["32 ids (the bound)", ids(32), true],
    ["33 ids", ids(33), false],
    ["an id of 160 characters", "a".repeat(160), true],
    ["an id of 161 characters", "a".repeat(161), false],
    ["160 astral code points", "🎬".repeat(160), true],
    ["an encoded comma inside an id", "a%2Cb,c", true],
    ["a repeated id", "a,a", false],
    ["an empty item", "a,,b", false],
    ["a trailing comma", "a,", false],
    ["bad percent-encoding", "a,%ZZ", false],
  ])("%s", (_what, raw, taken) => {
    if (taken) expect(parseAttributeIds(raw, name).length).toBeGreaterThan(0);
    else
      expect(() => parseAttributeIds(raw, name)).toThrow(
        expect.objectContaining({ status: 400, details: { parameter: name } }),
      );
  });
});

/** Every list route taking an attribute filter, its path filled with ids (a 400 comes before a 404). */
const TAKING = ROUTES.flatMap((route) =>
  NAMES.filter((name) => route.table.some((row) => row.names.includes(name))).map(
    (name) => [`${templateOf(route)} ${name}`, templateOf(route).replace(/\{[^}]+\}/g, "x"), name] as const,
  ),
);

describeMatrix("attribute filters", (runtime) => {
  const api = useClient(runtime, () => ({ snapshotDir, accessFile }));
  const get = (url: string) => api.request(url, { headers: auth(KEYS.valid) });
  const all = (n: number) => [...EXTRA, "format-2d", "lang-en"].slice(0, n).join(",");

  test("the routes taking them are the three lists", () => {
    expect(TAKING.map(([what]) => what).sort()).toEqual(
      ["/v1/cinemas", "/v1/films", "/v1/showtimes"].flatMap((p) => NAMES.map((n) => `${p} ${n}`)).sort(),
    );
  });

  describe.each(NAMES)("%s at its bounds, ids the catalogue holds", (name) => {
    test.each<[string, string, number]>([
      ["32 ids (the bound)", all(32), 200],
      ["33 ids", `${all(32)},access/ad`, 400],
      ["an id of 160 characters", encodeURIComponent(LONG_ID), 200],
      ["an id holding a comma, sent as %2C", `${encodeURIComponent(COMMA_ID)},lang-en`, 200],
      ["a case-only twin (ids are case-sensitive)", "Lang-EN", 200],
    ])("%s → %i", async (_what, value, status) => {
      for (const list of ["showtimes", "films", "cinemas"]) {
        const response = await get(`/v1/${list}?${name}=${value}`);
        expect(response.status, response.body.toString()).toBe(status);
        if (status === 400) expect(response.json().error.details).toEqual({ parameter: name });
      }
    });
  });

  test("anyAttributeIds of 32 ids finds the showtimes having any of them", async () => {
    const body = (await get(`/v1/showtimes?anyAttributeIds=${all(32)}&limit=100`)).json();
    expect(body.data.length).toBeGreaterThan(0);
    const wanted = new Set(all(32).split(","));
    for (const s of body.data) expect(s.attributeIds.some((id: string) => wanted.has(id))).toBe(true);
  });

  test.each(TAKING)("%s: an id the catalogue lacks is a 400 naming the nearest", async (_what, route, name) => {
    const response = await get(`${route}?${name}=lang-en,IMAX`);
    expect(response.status).toBe(400);
    expect(response.json().error).toMatchObject({
      code: "bad_request",
      message: `${name}: no attribute has the id "IMAX"; nearest: format-imax; /v1/attributes lists every id`,
      details: { parameter: name },
    });
  });

  test("several unknown ids: the first named, the others counted", async () => {
    const response = await get("/v1/films?attributeIds=lang-en,imx,no-such,format-2d,nope");
    expect(response.json().error.message).toBe(
      'attributeIds: no attribute has the id "imx" (2 more of the ids given are unknown too); nearest: ' +
        "format-imax; /v1/attributes lists every id",
    );
  });

  test("both given, a 400 for the first in table order; one known, the other not", async () => {
    const both = await get("/v1/showtimes?attributeIds=nope&anyAttributeIds=nada");
    expect(both.json().error.details).toEqual({ parameter: "attributeIds" });
    const anyOnly = await get("/v1/showtimes?attributeIds=lang-en&anyAttributeIds=englsh");
    expect(anyOnly.json().error.message).toContain('anyAttributeIds: no attribute has the id "englsh"');
  });

  test("any id not in the catalogue is refused, whatever it holds", async () => {
    const known = new Set(["format-2d", "format-imax", "lang-en", "Lang-EN", "access/ad", "event-q&a"]);
    const ids = fc.string({ minLength: 1, maxLength: 40 }).filter((id) => !known.has(id) && !id.startsWith("extra-"));
    await fc.assert(
      fc.asyncProperty(ids, fc.constantFrom(...TAKING), async (id, [, route, name]) => {
        const response = await get(`${route}?${name}=${encodeURIComponent(id)}`);
        expect(response.status).toBe(400);
        expect(response.json().error.details).toEqual({ parameter: name });
      }),
      { numRuns: 40 },
    );
  });
});

describe("the MCP tools: an unknown attribute id is the HTTP API's message, word for word", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    ({ server, url: base } = await startServer({ snapshotDir, accessFile, port: 0, now: () => TEST_NOW }));
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const CALLS = toolDefinitions().flatMap((tool) =>
    NAMES.filter((name) => name in (tool.inputSchema as { properties: object }).properties).map(
      (name) => [tool.name as string, { [name]: "lang-en,imax" }] as const,
    ),
  );

  test("every find tool takes both", () => {
    expect(CALLS.map(([tool, args]) => `${tool} ${Object.keys(args)[0]}`).sort()).toEqual(
      ["find_cinemas", "find_films", "find_showtimes"].flatMap((t) => NAMES.map((n) => `${t} ${n}`)).sort(),
    );
  });

  test.each(CALLS)("%s %j", async (tool, args) => {
    const target = TOOLS_BY_NAME.get(tool)!.target.targetOf(args);
    const answer = await fetch(new URL(target, base), { headers: auth(KEYS.valid) });
    const { client } = await connectMcp(base, KEYS.bulk);
    try {
      const result = (await client.callTool({ name: tool, arguments: args })) as any;
      expect(answer.status).toBe(400);
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toBe(((await answer.json()) as any).error.message);
      expect(result.content[0].text).toContain("nearest: format-imax");
    } finally {
      await client.close();
    }
  });
});

describe("any-of against the brute-force oracle", () => {
  let work: string;
  let access: string;
  beforeAll(() => {
    work = makeTempDir("any-attributes");
    access = writeAccessFile(work);
  });
  afterAll(() => removeDir(work));

  test("anyAttributeIds, beside attributeIds and the other filters, pages through filter-then-sort", {
    timeout: scaled(240_000),
  }, async () => {
    const specs = fc.array(
      fc.constantFrom<ListResource>("showtimes", "showtimes", "films", "cinemas").chain((resource) =>
        fc.record({
          query: queryArb(resource, LIST_TABLES[resource], { anyAttributeIds: 1, attributeIds: 0.4 }),
          limits: fc.array(fc.constantFrom(1, 3, 25), { minLength: 1, maxLength: 2 }),
        }),
      ),
      { minLength: 4, maxLength: 8 },
    );
    await checkRandomQueries(specs, { root: work, accessFile: access, runs: 5, seed: 20_261_202 });
  });
});
