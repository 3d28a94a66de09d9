/**
 * IANA primary names for time zones (decision: time zones), whichever name a zone came by: Intl
 * answers with CLDR's legacy ids (Asia/Calcutta), geo-tz with IANA's (Asia/Kolkata), and a source
 * record with either, or with one of IANA's backward links (US/Pacific).
 *
 * The table is CLDR's bcp47 time-zone data (the cldr-bcp47 package, pinned: CLDR 48, the release
 * whose data Node's ICU carries): per zone, every id it goes by, its legacy id first, and IANA's
 * primary name as `iana` where it differs. Every name of IANA's backward file is one of those ids. CLDR's primary
 * names are
 * the names of IANA's zone.tab, one per country at least, as ECMA-402 requires of Intl, so
 * Europe/Amsterdam stays itself where tzdata's default build makes it a link to Europe/Brussels.
 * test/zone-names.test.ts checks the table against each Node line's Intl.
 */
import { createRequire } from "node:module";

/** One zone of CLDR's bcp47/timezone.json; the key's own description and deprecated zones carry no `_alias`. */
interface CldrZone {
  /** Every id the zone goes by, space-separated, its CLDR (legacy) id first. */
  _alias?: string;
  /** IANA's primary name, where it is not the first id. */
  _iana?: string;
}

function loadZoneNames(): Map<string, string> {
  const data = createRequire(import.meta.url)("cldr-bcp47/bcp47/timezone.json") as {
    keyword: { u: { tz: Record<string, CldrZone | string> } };
  };
  const names = new Map<string, string>();
  for (const zone of Object.values(data.keyword.u.tz)) {
    if (typeof zone !== "object" || !zone._alias) continue;
    const ids = zone._alias.split(" ");
    const primary = zone._iana ?? ids[0]!;
    for (const id of ids) names.set(id, primary);
  }
  return names;
}

/** Every id the table knows → its IANA primary name. */
export const ZONE_NAMES: ReadonlyMap<string, string> = loadZoneNames();

/** The same, by the id in lower case: IANA names never differ by case alone, and Intl takes any case. */
const byLowerCase = new Map([...ZONE_NAMES].map(([id, primary]) => [id.toLowerCase(), primary]));

/** The zone's IANA primary name; a name the table does not have (newer than its CLDR) as written. */
export function primaryZoneName(zone: string): string {
  return byLowerCase.get(zone.toLowerCase()) ?? zone;
}
