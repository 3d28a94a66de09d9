/**
 * The build's time zones and upcoming-only showtimes (decision: time zones; decision: upcoming
 * showtimes): where each cinema's zone comes from and what the report counts, an unknown zone as a
 * problem at its line, a showtime written with an offset its cinema's zone does not have as a
 * warning that does not stop the build, and --drop-before leaving earlier showtimes out.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { encodeManifest } from "../api/_core/format/layout/manifest.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";
import { isKnownTimeZone, offsetAt, zoneOffsets } from "../build/localize/zone-offsets.js";
import { makeTempDir, removeDir, runBuildCli, toNdjson, validRecords, writeFiles } from "./helpers/build-helpers.js";

let work: string;
beforeAll(() => {
  work = makeTempDir("zones");
});
afterAll(() => removeDir(work));

const base = validRecords();
const PROVENANCE = base.cinemas.provenance;

function cinema(id: string, location: Record<string, unknown>) {
  return { id, name: id, location: { locality: "Town", postcode: "P1 1XX", ...location }, provenance: PROVENANCE };
}

function showtime(id: string, cinemaId: string, startsAt: string) {
  return { ...base.showtimes, id, cinemaId, startsAt, attributeIds: [] };
}

/** Builds `files` (cinemas and showtimes; one film, attributes) and returns the CLI's result and the served cinemas. */
async function build(name: string, cinemas: unknown[], showtimes: unknown[], args: string[] = []) {
  const dataDir = path.join(work, name);
  const outDir = path.join(work, `${name}-out`);
  writeFiles(dataDir, {
    "cinemas/c.json": JSON.stringify(cinemas),
    "films/f.json": JSON.stringify([base.films]),
    "attributes/a.json": JSON.stringify([base.attributes]),
    "showtimes/s.ndjson": toNdjson(showtimes),
  });
  const result = await runBuildCli(["--data", dataDir, "--out", outDir, "--quiet", ...args]);
  return { ...result, outDir };
}

describe("each cinema's zone", () => {
  const cinemas = [
    cinema("given", { countryCode: "DE", timeZone: "America/New_York" }),
    cinema("by-coordinates", { countryCode: "DE", latitude: 52.52, longitude: 13.405 }),
    cinema("by-amsterdam", { countryCode: "NL", latitude: 52.3676, longitude: 4.9041 }),
    cinema("by-country", { countryCode: "GB" }),
    cinema("at-sea", { countryCode: "GB", latitude: 0, longitude: 0 }),
    cinema("none-two-zones", { countryCode: "DE" }),
    cinema("none-many-zones", { countryCode: "US" }),
  ];
  let result: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    result = await build("derive", cinemas, [showtime("st-1", "given", "2026-11-24T20:00:00-05:00")]);
  });

  test("given, from coordinates, from a single-zone country, or none; counted in the report", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "time zones: 1 given, 2 derived from coordinates, 2 from the country, 2 without (4 cinemas derived)",
    );
  });

  test("the served location carries it, last; a cinema with none carries none", async () => {
    const manifest = readManifest(result.outDir);
    expect(manifest.counts.cinemas).toBe(7);
    const { Snapshot } = await import("../api/_core/format/read/snapshot.js");
    const snapshot = new Snapshot(manifest, result.outDir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    try {
      const zones = Object.fromEntries(
        Array.from({ length: snapshot.lists.cinemas.length }, (_, i) => {
          const record = JSON.parse(Buffer.from(snapshot.lists.cinemas.records.entry(i)).toString());
          if (record.location.timeZone) expect(Object.keys(record.location).at(-1), record.id).toBe("timeZone");
          return [record.id, record.location.timeZone ?? null];
        }),
      );
      expect(zones).toEqual({
        given: "America/New_York",
        "by-coordinates": "Europe/Berlin",
        "by-amsterdam": "Europe/Amsterdam",
        "by-country": "Europe/London",
        // The sea's Etc/GMT zones do not count: the country decides.
        "at-sea": "Europe/London",
        "none-two-zones": null,
        "none-many-zones": null,
      });
    } finally {
      snapshot.close();
    }
  });
});

describe("IANA primary names on every path", () => {
  // One city, each way its zone can come: the same name, IANA's primary one, on every Node line.
  const cinemas = [
    cinema("given-calcutta", { countryCode: "IN", timeZone: "Asia/Calcutta" }),
    cinema("given-kolkata", { countryCode: "IN", timeZone: "Asia/Kolkata" }),
    cinema("given-lower-case", { countryCode: "IN", timeZone: "asia/kolkata" }),
    cinema("kolkata-by-coordinates", { countryCode: "IN", latitude: 22.5726, longitude: 88.3639 }),
    cinema("kolkata-by-country", { countryCode: "IN" }),
    cinema("given-saigon", { countryCode: "VN", timeZone: "Asia/Saigon" }),
    cinema("saigon-by-coordinates", { countryCode: "VN", latitude: 10.7769, longitude: 106.7009 }),
    cinema("saigon-by-country", { countryCode: "VN" }),
    cinema("given-kiev", { countryCode: "UA", timeZone: "Europe/Kiev" }),
    cinema("kyiv-by-coordinates", { countryCode: "UA", latitude: 50.4501, longitude: 30.5234 }),
    cinema("given-truk", { countryCode: "FM", timeZone: "Pacific/Truk" }),
    cinema("chuuk-by-coordinates", { countryCode: "FM", latitude: 7.4467, longitude: 151.8478 }),
    cinema("given-buenos-aires", { countryCode: "AR", timeZone: "America/Buenos_Aires" }),
    cinema("buenos-aires-by-coordinates", { countryCode: "AR", latitude: -34.6037, longitude: -58.3816 }),
    cinema("kathmandu-by-country", { countryCode: "NP" }),
    cinema("yangon-by-country", { countryCode: "MM" }),
    cinema("faroe-by-country", { countryCode: "FO" }),
    cinema("given-us-pacific", { countryCode: "US", timeZone: "US/Pacific" }),
  ];
  const expected = {
    "given-calcutta": "Asia/Kolkata",
    "given-kolkata": "Asia/Kolkata",
    "given-lower-case": "Asia/Kolkata",
    "kolkata-by-coordinates": "Asia/Kolkata",
    "kolkata-by-country": "Asia/Kolkata",
    "given-saigon": "Asia/Ho_Chi_Minh",
    "saigon-by-coordinates": "Asia/Ho_Chi_Minh",
    "saigon-by-country": "Asia/Ho_Chi_Minh",
    "given-kiev": "Europe/Kyiv",
    "kyiv-by-coordinates": "Europe/Kyiv",
    "given-truk": "Pacific/Chuuk",
    "chuuk-by-coordinates": "Pacific/Chuuk",
    "given-buenos-aires": "America/Argentina/Buenos_Aires",
    "buenos-aires-by-coordinates": "America/Argentina/Buenos_Aires",
    "kathmandu-by-country": "Asia/Kathmandu",
    "yangon-by-country": "Asia/Yangon",
    "faroe-by-country": "Atlantic/Faroe",
    "given-us-pacific": "America/Los_Angeles",
  };
  let result: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    // A showtime at the aliased cinema, written with Kolkata's offset: no warning under either name.
    result = await build("primary", cinemas, [showtime("st-1", "given-calcutta", "2026-11-24T20:00:00+05:30")]);
  });

  test("each cinema's served location and the snapshot's zone list carry the primary name", async () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("offset_mismatch");
    expect(result.stdout).toContain("time zones: 8 given, 5 derived from coordinates, 5 from the country, 0 without");
    const { Snapshot } = await import("../api/_core/format/read/snapshot.js");
    const snapshot = new Snapshot(readManifest(result.outDir), result.outDir, {
      pageBytes: 2 ** 20,
      blockBytes: 2 ** 20,
    });
    try {
      const served = Object.fromEntries(
        Array.from({ length: snapshot.lists.cinemas.length }, (_, i) => {
          const record = JSON.parse(Buffer.from(snapshot.lists.cinemas.records.entry(i)).toString());
          expect(Object.keys(record.location).at(-1), record.id).toBe("timeZone");
          return [record.id, record.location.timeZone];
        }),
      );
      expect(served).toEqual(expected);
      expect(snapshot.lists.zones.names.toSorted()).toEqual([...new Set(Object.values(expected))].sort());
    } finally {
      snapshot.close();
    }
  });
});

describe("the pinned IANA database, whichever Node.js line builds", () => {
  const at = (iso: string) => Date.parse(iso) / 1000;
  // Node.js 20 carries tzdata 2025c, where Vancouver and Edmonton still fall back in November 2026,
  // Node.js 24 carries 2026c, where they do not: the same answers on every line mean pinned data.
  test.each([
    ["America/Vancouver", "2026-07-01T12:00:00Z", -7 * 3600],
    ["America/Vancouver", "2026-12-01T12:00:00Z", -7 * 3600],
    ["America/Edmonton", "2026-12-01T12:00:00Z", -6 * 3600],
    ["Europe/Berlin", "2026-03-29T00:59:59Z", 3600],
    ["Europe/Berlin", "2026-03-29T01:00:00Z", 7200],
    ["Asia/Kathmandu", "2026-12-01T12:00:00Z", 5 * 3600 + 45 * 60],
    ["asia/calcutta", "2026-12-01T12:00:00Z", 5.5 * 3600],
    ["Etc/UTC", "2026-12-01T12:00:00Z", 0],
  ])("%s at %s is %i s east of UTC", (zone, instant, offset) => {
    expect(offsetAt(zone, at(instant))).toBe(offset);
  });

  test("a zone's changes are its transitions within the span, to the second", () => {
    expect(zoneOffsets("Europe/Berlin", at("2026-01-01T00:00:00Z"), at("2027-01-01T00:00:00Z"))).toEqual({
      initial: 3600,
      changes: [
        [at("2026-03-29T01:00:00Z"), 7200],
        [at("2026-10-25T01:00:00Z"), 3600],
      ],
    });
    // A change exactly at the span's end is in it; one at its start is the initial offset.
    const spring = at("2026-03-29T01:00:00Z");
    expect(zoneOffsets("Europe/Berlin", spring - 3600, spring).changes).toEqual([[spring, 7200]]);
    expect(zoneOffsets("Europe/Berlin", spring, spring + 3600)).toEqual({ initial: 7200, changes: [] });
    expect(zoneOffsets("America/Vancouver", at("2026-06-01T00:00:00Z"), at("2027-06-01T00:00:00Z"))).toEqual({
      initial: -7 * 3600,
      changes: [],
    });
  });

  test.each([
    ["Europe/Berlin", true],
    ["europe/berlin", true],
    ["US/Pacific", true],
    ["Europe/Atlantis", false],
    ["GMT+05:00", false],
    ["../Europe/Berlin", false],
    ["", false],
  ])("%j is a zone: %s", (zone, known) => {
    expect(isKnownTimeZone(zone)).toBe(known);
  });
});

describe("problems and warnings", () => {
  test.each([
    ["an unknown zone", "Europe/Atlantis"],
    ["an offset, not a zone", "+01:00"],
    ["a path, not a zone", "../etc/passwd"],
  ])("%s is a problem at its record's line, and nothing is written", async (_, zone) => {
    const result = await build(`bad-${zone.length}`, [cinema("c", { countryCode: "DE", timeZone: zone })], []);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/location\.timeZone is not a time zone of the IANA database/);
    expect(result.stderr).toMatch(/cinemas\/c\.json\[0\] location\.timeZone/);
  });

  test("a showtime written with an offset its cinema's zone does not have is a warning; Z never is", async () => {
    const berlin = cinema("berlin", { countryCode: "DE", timeZone: "Europe/Berlin" });
    const result = await build(
      "offsets",
      [berlin],
      [
        // Summer: Berlin is +02:00; a feed that always writes +01:00 is an hour off.
        showtime("summer-wrong", "berlin", "2026-07-01T20:00:00+01:00"),
        showtime("summer-right", "berlin", "2026-07-01T20:00:00+02:00"),
        showtime("winter-right", "berlin", "2026-12-01T20:00:00+01:00"),
        showtime("in-utc", "berlin", "2026-07-01T18:00:00Z"),
      ],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "⚠ startsAt is written with +01:00, but Europe/Berlin is at +02:00 then (check the feed's offsets) " +
        "[offset_mismatch]",
    );
    expect(result.stderr).toMatch(/s\.ndjson:1 startsAt/);
    expect(result.stderr).toContain("1 warning (offset_mismatch 1); the snapshot was written.");
  });

  test("a feed wrong thousands of times prints the first twenty and counts the rest", async () => {
    const berlin = cinema("berlin", { countryCode: "DE", timeZone: "Europe/Berlin" });
    const wrong = Array.from({ length: 25 }, (_, i) =>
      showtime(`st-${i}`, "berlin", `2026-07-${String(1 + i).padStart(2, "0")}T20:00:00+01:00`),
    );
    const result = await build("many", [berlin], wrong);
    expect(result.code).toBe(0);
    expect(result.stderr.match(/^⚠/gm)).toHaveLength(20);
    expect(result.stderr).toContain("… and 5 more offset_mismatch");
    expect(result.stderr).toContain("25 warnings (offset_mismatch 25)");
  });
});

describe("--drop-before", () => {
  const berlin = cinema("berlin", { countryCode: "DE", timeZone: "Europe/Berlin" });
  const showtimes = [
    showtime("early", "berlin", "2026-11-24T05:59:59+01:00"),
    showtime("at-the-instant", "berlin", "2026-11-24T06:00:00+01:00"),
    showtime("later", "berlin", "2026-11-24T20:00:00+01:00"),
  ];

  test(
    "leaves out showtimes that start before the instant (not at it), counts them and records where the " +
      "kept ones begin",
    async () => {
      const result = await build("drop", [berlin], showtimes, ["--drop-before", "2026-11-24T05:00Z"]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("dropped 1 showtime that start before 2026-11-24T05:00Z (--drop-before)");
      const manifest = readManifest(result.outDir);
      expect(manifest.counts.showtimes).toBe(2);
      // The earliest kept start: every dropped showtime starts before it, every kept one at or after.
      expect(manifest.dropBefore).toBe("2026-11-24T05:00:00Z");
    },
  );

  test("two instants that leave out the same showtimes give the same snapshot", async () => {
    const early = await build("drop-a", [berlin], showtimes, ["--drop-before", "2026-11-24T04:59:59.5Z"]);
    const late = await build("drop-b", [berlin], showtimes, ["--drop-before", "2026-11-24T05:00Z"]);
    expect(readManifest(early.outDir).snapshotId).toBe(readManifest(late.outDir).snapshotId);
  });

  test("without it, nothing is dropped and the manifest names no instant", async () => {
    const result = await build("keep", [berlin], showtimes);
    expect(result.stdout).not.toContain("dropped");
    expect(readManifest(result.outDir).dropBefore).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(result.outDir, "manifest.json"), "utf8")).dropBefore).toBeUndefined();
  });

  test("with --previous too, two instants that leave out the same showtimes give the same snapshot", async () => {
    const previous = await build("drop-previous", [berlin], showtimes, ["--drop-before", "2026-11-24T04:00Z"]);
    const [early, late] = await Promise.all(
      ["2026-11-24T04:59:59.5Z", "2026-11-24T05:00Z"].map((at, i) =>
        build(`drop-previous-${i}`, [berlin], showtimes, ["--previous", previous.outDir, "--drop-before", at]),
      ),
    );
    expect(readManifest(early!.outDir).snapshotId).toBe(readManifest(late!.outDir).snapshotId);
  });

  test.each([["2026-11-24"], ["2026-11-24T05:00"], ["yesterday"], [""]])(
    "%j is a usage error naming the flag (exit 2), and nothing is built",
    async (value) => {
      const result = await build(`bad-drop-${value.length}`, [berlin], showtimes, ["--drop-before", value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--drop-before/);
    },
  );
});

describe("--drop-before carried from --previous", () => {
  // The previous build was asked for midnight; its earliest kept showtime starts at 00:02, so its
  // effective instant (the manifest's dropBefore) is 00:02 and the gap 00:00–00:02 is empty.
  const berlin = cinema("berlin", { countryCode: "DE", timeZone: "Europe/Berlin" });
  const first = showtime("first", "berlin", "2026-11-24T00:02:00Z");
  let previous: string;
  beforeAll(async () => {
    const result = await build("carry-previous", [berlin], [first], ["--drop-before", "2026-11-24T00:00Z"]);
    expect(result.code, result.stderr).toBe(0);
    previous = result.outDir;
  });

  test("the manifest records the instant asked for beside the earliest start kept", () => {
    const manifest = readManifest(previous);
    expect(manifest.dropBefore).toBe("2026-11-24T00:02:00Z");
    expect(manifest.dropBeforeRequested).toBe("2026-11-24T00:00:00Z");
  });

  /** `previous` as a build before the requested instant was recorded wrote it: the effective one only. */
  function olderPrevious(): string {
    const dir = path.join(work, "carry-older");
    cpSync(previous, dir, { recursive: true });
    const { dropBeforeRequested: _, ...manifest } = readManifest(dir);
    writeFileSync(path.join(dir, "manifest.json"), encodeManifest(manifest));
    return dir;
  }

  test.each([
    ["at the requested instant: kept", "2026-11-24T00:00:00Z", [], 2],
    ["in the gap before the earliest kept start: kept", "2026-11-24T00:01:00Z", [], 2],
    ["just before the requested instant: left out", "2026-11-23T23:59:59.999Z", [], 1],
    [
      "in the gap, asked for an earlier instant: kept",
      "2026-11-24T00:01:00Z",
      ["--drop-before", "2026-11-23T12:00Z"],
      2,
    ],
  ])(
    "a showtime moved %s (the previous build's requested instant, not its effective one)",
    async (_, startsAt, args, count) => {
      const moved = showtime("moved", "berlin", startsAt);
      const result = await build(
        `carry-${startsAt}-${args.length}`,
        [berlin],
        [first, moved],
        ["--previous", previous, ...args],
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        `dropped ${2 - count} showtime${count === 1 ? "" : "s"} that start before 2026-11-24T00:00:00Z ` +
          "(the previous snapshot's: it never moves back)",
      );
      const manifest = readManifest(result.outDir);
      expect(manifest.counts.showtimes).toBe(count);
      expect(manifest.dropBeforeRequested).toBe("2026-11-24T00:00:00Z");
    },
  );

  test(
    "a --previous that records only the effective instant (built before the requested one was kept) carries " + "that",
    async () => {
      const moved = showtime("moved", "berlin", "2026-11-24T00:01:00Z");
      const result = await build("carry-from-older", [berlin], [first, moved], ["--previous", olderPrevious()]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("dropped 1 showtime that start before 2026-11-24T00:02:00Z");
      expect(readManifest(result.outDir).counts.showtimes).toBe(1);
    },
  );
});
