/**
 * The table of IANA primary names (decision: time zones), `build/localize/zone-names.ts`, against what this
 * runtime's Intl knows: every zone Intl lists has a primary name in it, every alias is the same zone
 * to Intl as its primary name, and primary names are their own. Run on every Node line the project
 * supports (`scripts/with-node.sh 24 npx vitest run test/zone-names.test.ts`): a line whose Intl knows
 * a zone the table does not, or disagrees with it, fails here instead of building other names.
 */
import { describe, expect, test } from "vitest";
import { primaryZoneName, ZONE_NAMES } from "../build/localize/zone-names.js";

/** The zone as this runtime's Intl resolves it (its canonical id, CLDR's: Asia/Calcutta), or undefined if unknown. */
function intlZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

describe("the table against this runtime's Intl", () => {
  test("every zone Intl lists has a primary name in the table", () => {
    const missing = Intl.supportedValuesOf("timeZone").filter((zone) => !ZONE_NAMES.has(zone));
    expect(missing).toEqual([]);
  });

  test("every alias Intl knows is the same zone to Intl as its primary name", () => {
    const disagreeing: string[] = [];
    for (const [alias, primary] of ZONE_NAMES) {
      const zone = intlZone(alias);
      if (zone !== undefined && intlZone(primary) !== zone) disagreeing.push(`${alias} → ${primary}`);
    }
    expect(disagreeing).toEqual([]);
  });

  test("a primary name is its own, and Intl knows it", () => {
    const primaries = new Set(ZONE_NAMES.values());
    expect([...primaries].filter((zone) => primaryZoneName(zone) !== zone)).toEqual([]);
    expect([...primaries].filter((zone) => intlZone(zone) === undefined && zone !== "Etc/Unknown")).toEqual([]);
  });
});

describe("known names", () => {
  test.each([
    // CLDR's legacy ids, which Intl answers with.
    ["Asia/Calcutta", "Asia/Kolkata"],
    ["Asia/Saigon", "Asia/Ho_Chi_Minh"],
    ["Asia/Katmandu", "Asia/Kathmandu"],
    ["Asia/Rangoon", "Asia/Yangon"],
    ["America/Buenos_Aires", "America/Argentina/Buenos_Aires"],
    ["Europe/Kiev", "Europe/Kyiv"],
    ["Atlantic/Faeroe", "Atlantic/Faroe"],
    ["Pacific/Truk", "Pacific/Chuuk"],
    // IANA's backward links.
    ["US/Pacific", "America/Los_Angeles"],
    ["GB", "Europe/London"],
    ["Europe/Zaporozhye", "Europe/Kyiv"],
    ["UTC", "Etc/UTC"],
    // Written in another case: Intl takes it, the table gives the name as IANA writes it.
    ["asia/calcutta", "Asia/Kolkata"],
    ["EUROPE/BERLIN", "Europe/Berlin"],
  ])("%s is served as %s", (alias, primary) => {
    expect(primaryZoneName(alias)).toBe(primary);
  });

  test.each([
    // tzdata's default build links these to a zone of another country; IANA's zone.tab (and
    // ECMA-402) keeps one name per country, and geo-tz names them so.
    ["Europe/Amsterdam"],
    ["Europe/Busingen"],
    ["Pacific/Chuuk"],
    ["Asia/Kolkata"],
    ["Europe/Kyiv"],
  ])("%s stays itself", (zone) => {
    expect(primaryZoneName(zone)).toBe(zone);
  });

  test("a name the table does not have stays as written", () => {
    expect(primaryZoneName("Mars/Olympus_Mons")).toBe("Mars/Olympus_Mons");
  });
});
