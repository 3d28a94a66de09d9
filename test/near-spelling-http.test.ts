/**
 * Near spellings over a real socket (decision: name search): the demo data's names misspelt as
 * people type them ("Odeon Leicster", "Potsdammer Platz") found by the local server, the pages
 * saying `nameMatch: near`, a name spelt right (accents aside) not, cursors walking near spellings,
 * the typed client's page carrying the field, and an assistant's find_cinemas call saying so first.
 */
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createClient } from "../client/index.js";
import { runBuild } from "../build/run-build.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { connectMcp } from "./helpers/mcp-session.js";

let root: string;
let server: Server;
let base: string;

beforeAll(async () => {
  root = makeTempDir("near-spelling-http");
  const built = await runBuild({
    dataDir: path.join(ROOT, "data"),
    output: createDiskWriter(path.join(root, "snapshot")),
    gzipWorkers: 0,
  });
  if (!built.ok) throw new Error("data/ does not build");
  const started = await startServer({
    snapshotDir: path.join(root, "snapshot"),
    accessFile: writeAccessFile(root),
    port: 0,
    now: () => TEST_NOW,
    onError: () => {},
  });
  server = started.server;
  base = started.url;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  removeDir(root);
});

async function get(target: string): Promise<any> {
  const response = await fetch(new URL(target, base), { headers: { authorization: `Bearer ${KEYS.valid}` } });
  expect(response.status, target).toBe(200);
  return response.json();
}

test.each([
  // [why, target, the ids found, what the page says: nameMatch, or "-" for nothing]
  ["a letter left out", "/v1/cinemas?q=Odeon%20Leicster", ["gb-lon-odeon-leicester-sq"], "near"],
  ["a letter doubled", "/v1/cinemas?q=Potsdammer%20Platz", ["de-ber-cinemaxx-potsdamer-platz"], "near"],
  ["a letter left out of a locality", "/v1/cinemas?q=Manchestr", ["gb-man-cineworld-great-northern"], "near"],
  ["two letters swapped", "/v1/cinemas?q=Kinso", ["de-ham-zeise-kinos"], "near"],
  ["a title, two letters swapped", "/v1/films?q=Paper%20Lantrens", ["film-paper-lanterns"], "near"],
  ["an accent left out is no edit", "/v1/cinemas?q=Mathaser", ["de-muc-mathaeser-filmpalast"], "-"],
  ["spelt right", "/v1/films?q=Nordlicht", ["film-nordlicht"], "-"],
  ["too far", "/v1/films?q=Nrdlct", [], "-"],
])("%s: %s", async (_why, target, ids, said) => {
  const body = await get(target);
  expect(body.data.map((record: { id: string }) => record.id)).toEqual(ids);
  expect(body.nameMatch).toBe(said === "-" ? undefined : said);
});

test("near spellings page one at a time with cursors, every page saying so", async () => {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const body = await get(`/v1/films?q=hte&limit=1${cursor ? `&cursor=${cursor}` : ""}`);
    expect(body.nameMatch).toBe("near");
    ids.push(...body.data.map((film: { id: string }) => film.id));
    cursor = body.pagination.nextCursor;
  } while (cursor);
  // "hte" is one swap from "the": both titles at one edit, in id order.
  expect(ids).toEqual(["film-the-glass-kingdom", "film-the-quiet-ledger"]);
});

test("the typed client's page carries nameMatch", async () => {
  const client = createClient({ baseUrl: base, apiKey: KEYS.valid });
  const page = await client.listCinemas({ q: "Potsdammer Platz" });
  expect(page.nameMatch).toBe("near");
  expect(page.data.map((cinema) => cinema.id)).toEqual(["de-ber-cinemaxx-potsdamer-platz"]);
});

test("find_cinemas says first that it found near spellings, its structured answer the API's", async () => {
  const { client } = await connectMcp(base, KEYS.bulk);
  try {
    const result = (await client.callTool({ name: "find_cinemas", arguments: { q: "Odeon Leicster" } })) as any;
    const lines = (result.content[0].text as string).split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "No exact match for q; near spellings, fewest edits first.",
      "1 cinema:",
      "- ODEON Luxe Leicester Square · cinema gb-lon-odeon-leicester-sq",
    ]);
    expect(result.structuredContent).toEqual(await get("/v1/cinemas?q=Odeon%20Leicster&limit=10"));
  } finally {
    await client.close();
  }
});
