/**
 * A demo that is always current (decision: a demo that is always current): the demo data moved so
 * its first day is "today", each showtime at the same wall-clock time at its cinema (across a change
 * of summer time) and written as the source wrote it, and `npm start` serving it.
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { firstDayOf, shiftDemo } from "../scripts/demo/shift-dates.js";
import { makeTempDir, readRecords, removeDir, ROOT, runScript } from "./helpers/build-helpers.js";
import { endProcess, entryArgs, startProcess } from "./helpers/child-processes.js";
import { scaled } from "./helpers/deadlines.js";

const PROVENANCE = {
  observedAt: "2026-11-22T06:00:04Z",
  sourceUpdatedAt: "2026-11-20T13:13:00+01:00",
  provider: "p",
  externalId: "x",
};
const cinema = (id: string, location: Record<string, unknown>) => ({ id, name: id, location, provenance: PROVENANCE });
const showtime = (id: string, cinemaId: string, startsAt: string) => ({
  id,
  cinemaId,
  startsAt,
  provenance: PROVENANCE,
});

const records = {
  cinemas: [
    cinema("berlin", { countryCode: "DE", latitude: 52.52, longitude: 13.405 }),
    cinema("london", { countryCode: "GB", timeZone: "Europe/London" }),
    cinema("nowhere", { countryCode: "US" }),
  ],
  films: [{ id: "f", title: "F", releaseDate: "2026-11-13", provenance: PROVENANCE }],
  showtimes: [
    showtime("a", "berlin", "2026-11-23T20:15:00+01:00"),
    showtime("b", "london", "2026-11-24T19:50:00Z"),
    showtime("c", "nowhere", "2026-11-25T21:00:00-05:00"),
  ],
};

describe("shifting the demo", () => {
  test("its first day becomes today; wall-clock times, zones' offsets and the writing style follow", () => {
    const shifted = shiftDemo(records, "2027-07-14");
    expect(firstDayOf(shifted.showtimes)).toBe("2027-07-14");
    expect(shifted.showtimes.map((s) => s.startsAt)).toEqual([
      // 20:15 in Berlin, now in summer time: the offset follows the zone.
      "2027-07-14T20:15:00+02:00",
      // 19:50 in London was 19:50Z in November; in July it is 18:50Z, still written in Z.
      "2027-07-15T18:50:00Z",
      // No zone: the instant moves by whole days, written as it was.
      "2027-07-16T21:00:00-05:00",
    ]);
  });

  test("provenance moves by the same days; ids without the date, films' release dates and the rest stay", () => {
    const shifted = shiftDemo(records, "2026-12-01");
    expect(shifted.showtimes[0]!.provenance).toEqual({
      ...PROVENANCE,
      observedAt: "2026-11-30T06:00:04Z",
      sourceUpdatedAt: "2026-11-28T13:13:00+01:00",
    });
    expect(shifted.films[0]!.releaseDate).toBe("2026-11-13");
    expect(shifted.showtimes.map((s) => s.id)).toEqual(["a", "b", "c"]);
    expect(shifted.cinemas.map((c) => c.location)).toEqual(records.cinemas.map((c) => c.location));
  });

  test("an id that embeds its start's date follows the moved date, the same for the same day", () => {
    const dated = {
      ...records,
      showtimes: [
        showtime("st-berlin-20261123-2015-s1", "berlin", "2026-11-23T20:15:00+01:00"),
        showtime("st-london-20261124-1950-s2", "london", "2026-11-24T19:50:00Z"),
        // 00:30 in Berlin on the 24th, written in Z on the 23rd: the id names the cinema's date.
        showtime("st-berlin-20261124-0030-s1", "berlin", "2026-11-23T23:30:00Z"),
        showtime("c", "nowhere", "2026-11-25T21:00:00-05:00"),
        // A date in the id that is not its start's is some other number: it stays.
        showtime("st-london-20250101-s1", "london", "2026-11-24T19:50:00Z"),
      ],
    };
    const shifted = shiftDemo(dated, "2027-07-14");
    expect(shifted.showtimes.map((s) => s.id)).toEqual([
      "st-berlin-20270714-2015-s1",
      "st-london-20270715-1950-s2",
      "st-berlin-20270715-0030-s1",
      "c",
      "st-london-20250101-s1",
    ]);
    expect(shiftDemo(dated, "2027-07-14")).toEqual(shifted);
  });

  test("ids that one move would make the same are refused, naming the id", () => {
    const clash = {
      ...records,
      showtimes: [
        showtime("st-london-20261124-s1", "london", "2026-11-23T19:50:00Z"),
        showtime("st-london-20261123-s1", "london", "2026-11-23T20:50:00Z"),
      ],
    };
    expect(() => shiftDemo(clash, "2026-11-24")).toThrow(/st-london-20261124-s1/);
  });

  test("a demo already on today is unchanged", () => {
    expect(shiftDemo(records, "2026-11-23")).toEqual(records);
  });
});

describe("npm run demo-data", () => {
  let out: string;
  beforeAll(() => {
    out = makeTempDir("demo-data");
  });
  afterAll(() => removeDir(out));

  test("writes the demo's files, in their formats, starting on --today", async () => {
    const result = await runScript("scripts/demo-data.ts", ["--out", out, "--today", "2027-03-28"]);
    expect(result.code, result.stderr).toBe(0);
    const day = readRecords(path.join(out, "showtimes/2026-11-23.ndjson"));
    expect((day[0]!.startsAt as string).slice(0, 10)).toBe("2027-03-28");
    expect(readRecords(path.join(out, "cinemas/gb.json")).length).toBeGreaterThan(0);
  });

  test("every moved showtime's id names its start's date and time at its cinema, and ids stay unique", async () => {
    const result = await runScript("scripts/demo-data.ts", ["--out", out, "--today", "2027-07-14"]);
    expect(result.code, result.stderr).toBe(0);
    const zones: Record<string, string> = { GB: "Europe/London", DE: "Europe/Berlin" };
    const cinemas = ["gb", "de"].flatMap((c) => readRecords(path.join(out, `cinemas/${c}.json`)));
    const zoneOf = new Map(cinemas.map((c) => [c.id, zones[(c.location as { countryCode: string }).countryCode]!]));
    const showtimes = readdirSync(path.join(out, "showtimes")).flatMap((f) =>
      readRecords(path.join(out, "showtimes", f)),
    );
    const wallClock = (startsAt: string, timeZone: string) => {
      const format = new Intl.DateTimeFormat("en-CA", {
        timeZone,
        dateStyle: "short",
        timeStyle: "short",
        hourCycle: "h23",
      });
      return format
        .format(new Date(startsAt))
        .replace(/[-:,\s]/g, "")
        .replace(/^(\d{8})/, "$1-");
    };
    for (const s of showtimes) expect(s.id).toContain(`-${wallClock(s.startsAt as string, zoneOf.get(s.cinemaId)!)}-`);
    expect(showtimes.length).toBeGreaterThan(200);
    expect(new Set(showtimes.map((s) => s.id)).size).toBe(showtimes.length);
  });

  test.each([["2027-02-30"], ["tomorrow"]])("--today %s is a usage error", async (today) => {
    const result = await runScript("scripts/demo-data.ts", ["--out", out, "--today", today]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--today/);
  });
});

describe("npm start", () => {
  let project: string;
  let server: ChildProcess;
  let printed = "";
  /** Resolves with the first match of `pattern` in what the server printed, waiting for it to come. */
  const printedMatch = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const found = pattern.exec(printed);
        if (found) resolve(found);
        return found;
      };
      if (look()) return;
      server.stdout!.on("data", look);
      server.once("exit", (code) => reject(new Error(`npm start ended (${code}): ${printed}`)));
    });

  beforeAll(async () => {
    project = makeTempDir("demo-start");
    for (const name of ["package.json", "node_modules", "api", "build", "scripts", "data", "public", "tsconfig.json"])
      symlinkSync(path.join(ROOT, name), path.join(project, name));
    // scripts/start.ts as its bundle; npm start itself is npm-server-signals.test.ts's.
    server = startProcess(process.execPath, entryArgs("scripts/start.ts"), {
      cwd: project,
      env: { ...process.env, PORT: "0", DEMO_TODAY: "2031-05-18", LOG_LEVEL: "info" },
    });
    server.stdout!.on("data", (chunk) => {
      printed += chunk;
    });
  });
  afterAll(async () => {
    await endProcess(server);
    removeDir(project);
  });

  test(
    "serves the demo with its first day on DEMO_TODAY",
    async () => {
      const url = (await printedMatch(/listening on (\S+)/))[1]!;
      const key = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";
      const response = await fetch(`${url}/v1/showtimes?date=2031-05-18&limit=100`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as { data: unknown[] };
      expect(response.status).toBe(200);
      expect(body.data.length).toBeGreaterThan(10);
      expect(readFileSync(path.join(project, "snapshot/manifest.json"), "utf8")).toContain('"format": 4');
    },
    scaled(60_000),
  );

  test(
    "prints what the README shows: its address with the demo key, then the snapshot it serves",
    async () => {
      const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
      const shown = /^`npm start` serves[\s\S]*?\n```\n([\s\S]*?)```/m.exec(readme)![1]!.trim().split("\n");
      await printedMatch(/"msg":"snapshot in service"}\n/);
      const [listening, serving] = printed.trim().split("\n");
      expect(listening!.replace(/localhost:\d+/, "localhost:3000")).toBe(shown[0]);
      const omit = ({ time, snapshotId, ...rest }: Record<string, unknown>) => rest;
      expect(omit(JSON.parse(serving!))).toEqual(omit(JSON.parse(shown[1]!)));
      expect(Object.keys(JSON.parse(serving!))).toEqual(Object.keys(JSON.parse(shown[1]!)));
    },
    scaled(60_000),
  );
});
