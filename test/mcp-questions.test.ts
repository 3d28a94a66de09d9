/**
 * Everyday questions, asked as an assistant asks them: the SDK's own Client over real HTTP against
 * the local server on the demo data, with only the tools (decision: MCP). Each question is answered
 * in at most two tool calls, and never with a confident wrong "no": an unknown attribute id is an
 * error naming the id to use, a misspelt name finds its cinema, a place by name gives the point the
 * other tools take, each showing says when it ends, and the instructions say what today is.
 */
import fs from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runBuild } from "../build/run-build.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { KEYS, writeAccessFile } from "./helpers/http-setup.js";
import { connectMcp } from "./helpers/mcp-session.js";

/** Friday 27 November 2026, noon in London, 13:00 in Berlin: the demo data holds the 23rd to the 29th. */
const NOW = new Date("2026-11-27T12:00:00Z");
const MANCHESTER = "53.4808,-2.2426";

let root: string;
let server: Server;
let client: Client;
let calls = 0;

beforeAll(async () => {
  root = makeTempDir("mcp-questions");
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
    now: () => NOW,
    onLog: () => {},
    onError: () => {},
  });
  server = started.server;
  ({ client } = await connectMcp(started.url, KEYS.bulk));
});

afterAll(async () => {
  await client?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  removeDir(root);
});

interface Answer {
  isError: boolean;
  text: string;
  structured: any;
}

/** One tool call, counted: a question's budget is two. */
async function ask(name: string, args: Record<string, unknown>): Promise<Answer> {
  calls += 1;
  const result = (await client.callTool({ name, arguments: args })) as any;
  return { isError: result.isError === true, text: result.content[0].text, structured: result.structuredContent };
}

/** Counts a question's tool calls. */
async function question(answer: () => Promise<void>): Promise<number> {
  calls = 0;
  await answer();
  return calls;
}

/** The demo data's showtimes of one file, as the provider wrote them. */
function showtimesOf(day: string): any[] {
  const file = path.join(ROOT, "data", "showtimes", `${day}.ndjson`);
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const films: any[] = JSON.parse(fs.readFileSync(path.join(ROOT, "data", "films", "films.json"), "utf8"));

describe("questions an assistant is asked, in at most two tool calls", () => {
  test("the instructions say today's date and the dates the listings hold", () => {
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("2026-11-27");
    expect(instructions).toContain("2026-11-23");
    expect(instructions).toContain("2026-11-29");
  });

  test('"Any IMAX showings near me?": imax is refused naming format-imax, which then answers', async () => {
    const used = await question(async () => {
      const guess = await ask("find_showtimes", { near: MANCHESTER, date: "2026-11-27", attributeIds: "imax" });
      expect(guess.isError).toBe(true);
      expect(guess.text).toContain("format-imax");
      const found = await ask("find_showtimes", { near: MANCHESTER, date: "2026-11-27", attributeIds: "format-imax" });
      expect(found.isError).toBe(false);
      const shown = found.structured.data;
      expect(shown.length).toBeGreaterThan(0);
      for (const showtime of shown) expect(showtime.attributeIds).toContain("format-imax");
    });
    expect(used).toBeLessThanOrEqual(2);
  });

  test('"Audio description or subtitles?": any of the attributes, in one call after the catalogue', async () => {
    const wanted = ["access-audio-description", "access-subtitled", "lang-ov-subtitled"];
    const used = await question(async () => {
      const catalogue = await ask("list_attributes", {});
      for (const id of wanted) expect(catalogue.text).toContain(id);
      const found = await ask("find_showtimes", { date: "2026-11-27", anyAttributeIds: wanted.join(","), limit: 20 });
      expect(found.isError).toBe(false);
      const expected = showtimesOf("2026-11-27")
        .filter((s) => s.attributeIds?.some((id: string) => wanted.includes(id)))
        .map((s) => s.id)
        .sort();
      expect(found.structured.data.map((s: any) => s.id).sort()).toEqual(expected);
    });
    expect(used).toBeLessThanOrEqual(2);
  });

  test('"When does the last showing at the ODEON Leicester Square end?": start plus running time', async () => {
    const used = await question(async () => {
      const found = await ask("find_showtimes", { cinemaId: "gb-lon-odeon-leicester-sq", date: "2026-11-27" });
      const last = found.structured.data.at(-1);
      const film = films.find((f) => f.id === last.filmId);
      expect(film.durationMinutes).toBeGreaterThan(0);
      expect(Date.parse(last.endsAt) - Date.parse(last.startsAt)).toBe(film.durationMinutes * 60_000);
      const endsLocally = new Date(Date.parse(last.endsAt)).toISOString().slice(11, 16); // London is at UTC in November
      expect(found.text).toContain(endsLocally);
    });
    expect(used).toBe(1);
  });

  test.each([
    ["Potsdammer Platz", "de-ber-cinemaxx-potsdamer-platz"],
    ["Odeon Leicster", "gb-lon-odeon-leicester-sq"],
  ])('a misspelt name, "%s", finds its cinema, flagged as a near spelling', async (q, id) => {
    const used = await question(async () => {
      const found = await ask("find_cinemas", { q });
      expect(found.structured.data[0].id).toBe(id);
      expect(found.structured.nameMatch).toBe("near");
      expect(found.text).toMatch(/near spelling/i);
    });
    expect(used).toBe(1);
  });

  test('"What\'s on near Leicester Square tonight?": the place by name, then showtimes near its point', async () => {
    const used = await question(async () => {
      const places = await ask("find_places", { q: "WC2H" });
      const place = places.structured.data[0];
      expect(places.text).toContain(String(place.latitude));
      const near = `${place.latitude},${place.longitude}`;
      const found = await ask("find_showtimes", { near, radiusKm: 5, startsAfter: NOW.toISOString() });
      expect(found.structured.data.length).toBeGreaterThan(0);
      for (const showtime of found.structured.data) expect(showtime.cinemaId).toBe("gb-lon-odeon-leicester-sq");
    });
    expect(used).toBeLessThanOrEqual(2);
  });
});
