/** The snapshot's time zones and each cinema's (layout/sections.ts ZONE_SECTIONS). */
import type { SnapshotContent } from "../../api/_core/format/layout/content.js";
import { ZONE_SECTIONS } from "../../api/_core/format/layout/sections.js";

/** Each cinema's zone key: its zone's index in the zone table plus one; 0, no zone. */
export function zoneKeysOfCinemas(content: SnapshotContent): Uint16Array {
  const index = new Map(content.zones.zones.map((zone, i) => [zone.name, i]));
  const keys = new Uint16Array(content.cinemas.length);
  content.cinemas.forEach((cinema, i) => {
    if (cinema.timeZone === undefined) return;
    const zone = index.get(cinema.timeZone);
    if (zone === undefined) throw new Error(`cinema ${cinema.id} has a zone the zone table lacks`);
    keys[i] = zone + 1;
  });
  return keys;
}

export function encodeZones(content: SnapshotContent): Map<string, Uint8Array> {
  return new Map([
    [ZONE_SECTIONS.zones, new Uint8Array(Buffer.from(JSON.stringify(content.zones)))],
    [ZONE_SECTIONS.cinemaZones, new Uint8Array(zoneKeysOfCinemas(content).buffer)],
  ]);
}
