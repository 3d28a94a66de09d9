/**
 * Stage 6: every list in list order (decision: ordering): showtimes by startsAt as an instant,
 * then id; cinemas, films and attributes by id. Ids compare as JavaScript strings.
 */
import type { SnapshotContent } from "../../api/_core/format/layout/content.js";
import type { LocalizedRecords } from "../localize/localize.js";

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function indexRecords({ records, zones }: LocalizedRecords): SnapshotContent {
  const showtimes = [...records.showtimes].sort((a, b) => {
    const [ka, kb] = [a.startsAt.key, b.startsAt.key];
    if (ka !== kb) return ka < kb ? -1 : 1;
    return byId(a, b);
  });
  return {
    cinemas: [...records.cinemas].sort(byId),
    films: [...records.films].sort(byId),
    attributes: [...records.attributes].sort(byId),
    showtimes,
    zones,
  };
}
