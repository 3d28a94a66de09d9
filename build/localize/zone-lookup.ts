/**
 * A cinema's zone when its record gives none (decision: time zones): from its coordinates, by the
 * timezone-boundary-builder polygons (geo-tz, every IANA zone since 1970, so Amsterdam is
 * Europe/Amsterdam), or from its country when the runtime's CLDR data gives that country a single
 * zone.
 */
import { find as zonesAtPoint } from "geo-tz/all";
import { isKnownTimeZone } from "./zone-offsets.js";

/** The zone at a point, when the boundary data names exactly one real zone there (not the sea's Etc/GMT±n). */
export function zoneOfCoordinates(latitude: number, longitude: number): string | undefined {
  const zones = zonesAtPoint(latitude, longitude).filter((zone) => !zone.startsWith("Etc/") && isKnownTimeZone(zone));
  return zones.length === 1 ? zones[0] : undefined;
}

const countryZones = new Map<string, string | undefined>();

/** The country's zone when it has exactly one (the runtime's CLDR data: GB, FR, NL yes; DE, ES, US no). */
export function zoneOfCountry(countryCode: string): string | undefined {
  if (countryZones.has(countryCode)) return countryZones.get(countryCode);
  let zone: string | undefined;
  try {
    const locale = new Intl.Locale(`und-${countryCode}`) as Intl.Locale & {
      timeZones?: string[];
      getTimeZones?: () => string[] | undefined;
    };
    const zones = locale.getTimeZones?.() ?? locale.timeZones;
    zone = zones?.length === 1 && isKnownTimeZone(zones[0]!) ? zones[0] : undefined;
  } catch {
    zone = undefined;
  }
  countryZones.set(countryCode, zone);
  return zone;
}
