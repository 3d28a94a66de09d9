/**
 * The server's instructions at initialize (decision: MCP): today's date in the snapshot's zones by
 * the clock the server is given (never the test machine's), the dates the data holds, and the ways
 * from a question to the tools. Made for each initialize, so the date turns at midnight in each zone
 * within one process.
 */
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { offsetAt, piecesOf } from "../api/_core/format/layout/zone-days.js";
import { instructionsOf, type ListingsFacts, todayOf } from "../api/_core/mcp/instructions.js";
import type { ZoneOffset } from "../api/_core/mcp/local-time.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { KEYS, writeAccessFile } from "./helpers/http-setup.js";
import { connectMcp } from "./helpers/mcp-session.js";

/** Europe/Berlin and Europe/London as a snapshot stores them over 2026 (summer time from 29 March to 25 October). */
const SPRING = Date.UTC(2026, 2, 29, 1) / 1000;
const AUTUMN = Date.UTC(2026, 9, 25, 1) / 1000;
const PIECES = {
  "Europe/Berlin": piecesOf({
    initial: 3600,
    changes: [
      [SPRING, 7200],
      [AUTUMN, 3600],
    ],
  }),
  "Europe/London": piecesOf({
    initial: 0,
    changes: [
      [SPRING, 3600],
      [AUTUMN, 0],
    ],
  }),
};
type Zone = keyof typeof PIECES;

function factsAt(iso: string, names: Zone[] = ["Europe/Berlin", "Europe/London"]): ListingsFacts {
  const zoneOffset: ZoneOffset = (zone, t) =>
    names.includes(zone as Zone) ? offsetAt(PIECES[zone as Zone], t) : undefined;
  return {
    now: new Date(iso),
    zones: { names, hasCinemaWithoutZone: false },
    zoneOffset,
    dates: { firstDate: "2026-11-23", lastDate: "2026-11-29" },
  };
}

describe("today in the snapshot's zones, by its offsets", () => {
  test.each([
    ["2026-11-23T22:59:59Z", "Mon 2026-11-23 in Europe/Berlin, Europe/London"],
    // Midnight in Berlin (UTC+1 in November), not yet in London.
    ["2026-11-23T23:00:00Z", "Mon 2026-11-23 in Europe/London; Tue 2026-11-24 in Europe/Berlin"],
    ["2026-11-23T23:59:59Z", "Mon 2026-11-23 in Europe/London; Tue 2026-11-24 in Europe/Berlin"],
    ["2026-11-24T00:00:00Z", "Tue 2026-11-24 in Europe/Berlin, Europe/London"],
    // Summer time: Berlin's midnight is 22:00Z, London's 23:00Z.
    ["2026-07-03T21:59:59Z", "Fri 2026-07-03 in Europe/Berlin, Europe/London"],
    ["2026-07-03T22:00:00Z", "Fri 2026-07-03 in Europe/London; Sat 2026-07-04 in Europe/Berlin"],
    ["2026-07-03T23:00:00Z", "Sat 2026-07-04 in Europe/Berlin, Europe/London"],
  ])("at %s: %s", (now, today) => {
    expect(todayOf(factsAt(now))).toBe(today);
  });

  test("without zones (no cinema has one), the date in UTC", () => {
    expect(todayOf({ ...factsAt("2026-11-23T23:30Z"), zones: undefined })).toBe("Mon 2026-11-23 in UTC");
  });

  test("a market of many zones names four for a date, and how many more", () => {
    const names = ["America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles"];
    const facts = { now: new Date("2026-11-23T12:00Z"), zones: { names, hasCinemaWithoutZone: false } };
    expect(todayOf({ ...facts, zoneOffset: () => -18000 })).toBe(
      "Mon 2026-11-23 in America/New_York, America/Chicago, America/Denver, America/Phoenix and 1 more zone",
    );
  });
});

describe("the instructions", () => {
  const noPlaces = (tool: string, argument?: string) => tool !== "find_places" && argument === undefined;

  test("the time, today, the data's dates, then how to use the tools", () => {
    const lines = instructionsOf(factsAt("2026-11-23T17:05:42Z"), noPlaces).split("\n");
    expect(lines[1]).toBe(
      "It is 2026-11-23T17:05Z; today is Mon 2026-11-23 in Europe/Berlin, Europe/London. " +
        "The listings hold showtimes from 2026-11-23 to 2026-11-29.",
    );
    const text = lines.join("\n");
    for (const tool of ["find_films", "find_cinemas", "find_showtimes", "list_attributes"])
      expect(text).toContain(tool);
    expect(text).not.toContain("find_places");
    expect(text).toMatch(/local time/);
    // Short: a model reads them at every connection.
    expect(text.length).toBeLessThan(1200);
  });

  test.each<[string, ListingsFacts["dates"], string | undefined]>([
    ["no showtimes", { firstDate: null, lastDate: null }, "The listings hold no showtimes right now."],
    ["a snapshot that cannot be read", undefined, undefined],
  ])("%s", (_what, dates, said) => {
    const line = instructionsOf({ ...factsAt("2026-11-23T12:00Z"), dates }, noPlaces).split("\n")[1]!;
    expect(line.replace(/^It is [^.]*\. ?/, "") || undefined).toBe(said);
  });

  test("find_places and anyAttributeIds are named once the server has them", () => {
    const all = instructionsOf(factsAt("2026-11-23T12:00Z"), () => true);
    expect(all).toContain("find_places q=NAME gives its near=LATITUDE,LONGITUDE");
    expect(all).toContain("anyAttributeIds");
    expect(instructionsOf(factsAt("2026-11-23T12:00Z"), (_tool, argument) => !argument)).not.toContain("anyAttr");
  });
});

describe("at initialize, from the server's clock and the snapshot in service", () => {
  let root: string;
  let server: Server;
  let base: string;
  let now = new Date("2026-11-23T22:59:00Z");

  beforeAll(async () => {
    root = makeTempDir("mcp-instructions");
    const built = await runBuild({
      dataDir: path.join(ROOT, "data"),
      output: createDiskWriter(path.join(root, "snapshot")),
      gzipWorkers: 0,
    });
    if (!built.ok) throw new Error("data/ does not build");
    ({ server, url: base } = await startServer({
      snapshotDir: path.join(root, "snapshot"),
      accessFile: writeAccessFile(root),
      port: 0,
      now: () => now,
      onError: () => {},
    }));
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    removeDir(root);
  });

  async function instructionsAt(iso: string): Promise<string> {
    now = new Date(iso);
    const { client } = await connectMcp(base, KEYS.bulk);
    try {
      return client.getInstructions()!;
    } finally {
      await client.close();
    }
  }

  test.each([
    ["2026-11-23T22:59:00Z", "today is Mon 2026-11-23 in Europe/Berlin, Europe/London."],
    ["2026-11-23T23:00:00Z", "today is Mon 2026-11-23 in Europe/London; Tue 2026-11-24 in Europe/Berlin."],
    ["2026-11-24T00:00:00Z", "today is Tue 2026-11-24 in Europe/Berlin, Europe/London."],
  ])("at %s (one process: never kept past midnight): %s", async (iso, today) => {
    const text = await instructionsAt(iso);
    expect(text).toContain(`It is ${iso.slice(0, 16)}Z; ${today}`);
    expect(text).toContain("The listings hold showtimes from 2026-11-23 to 2026-11-29.");
  });
});
