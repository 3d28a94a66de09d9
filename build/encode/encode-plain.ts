/**
 * Cinemas, films and attributes: few enough to keep each record's canonical JSON whole, in list
 * order, with their raw ids (for lookups by id), their provenance codes (for freshness), for
 * cinemas, coordinates and country codes ("near me" and country lists read them), and for films,
 * running times (showtimes' ends).
 */
import { ByteWriter } from "../../api/_core/format/primitives/bytes.js";
import type { PlainRecord } from "../../api/_core/format/layout/content.js";
import { encodeDictionary } from "../../api/_core/format/primitives/dictionary.js";
import { plainSections, type PlainResource } from "../../api/_core/format/layout/sections.js";
import type { PlainCodes } from "./encode-dictionaries.js";

export function encodePlain(
  resource: PlainResource,
  records: readonly PlainRecord[],
  codes?: PlainCodes,
): Map<string, Uint8Array> {
  const names = plainSections(resource);
  const sections = new Map<string, Uint8Array>();
  // Same layout as a dictionary: u32 count, u32 offsets[count + 1], bytes.
  sections.set(names.records, encodeDictionary(records.map((r) => r.json)));
  sections.set(names.ids, encodeDictionary(records.map((r) => r.id)));
  if (codes) {
    const provenance = new ByteWriter(8 * records.length);
    records.forEach((_, i) => {
      provenance.u32(codes.observed[i]! + 1);
      provenance.u32(codes.updated[i]! + 1);
    });
    sections.set(names.provenance, provenance.finish());
  }
  if (resource === "cinemas") {
    const geo = new ByteWriter(16 * records.length);
    const countries = new ByteWriter(2 * records.length);
    for (const r of records) {
      const located = r.latitude !== undefined && r.longitude !== undefined;
      geo.f64(located ? r.latitude! : Number.NaN);
      geo.f64(located ? r.longitude! : Number.NaN);
      const code = Buffer.from((r.countryCode ?? "").padEnd(2, " ").slice(0, 2), "latin1");
      countries.raw(code);
    }
    sections.set(names.geo, geo.finish());
    sections.set(names.countries, countries.finish());
  }
  if (resource === "films") sections.set(names.durations, encodeDurations(records));
  return sections;
}

/** Each film's durationMinutes (0: none), from which its showtimes' ends are derived (decision: showtime ends). */
function encodeDurations(films: readonly PlainRecord[]): Uint8Array {
  const minutes = new Uint16Array(films.length);
  films.forEach((film, i) => {
    minutes[i] =
      (JSON.parse(Buffer.from(film.json).toString("utf8")) as { durationMinutes?: number }).durationMinutes ?? 0;
  });
  return new Uint8Array(minutes.buffer);
}
