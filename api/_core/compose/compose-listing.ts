/**
 * find_showtimes's structured content (decision: MCP, a page of showtimes), composed as a page is:
 * the page `/v1/showtimes` answers for the same query, each showtime without its film, cinema and
 * provenance, then `films` and `cinemas`, each record once (in the order the showtimes first name
 * it) without its provenance. The freshness is the page's: each showtime's folded, then its film's
 * and cinema's, as the page with them embedded folds them.
 */
import type { Freshness } from "../format/layout/manifest.js";
import type { PageBuffer } from "../format/primitives/page-buffer.js";
import { roundedKm } from "../format/query/cinema-selection.js";
import { selectShowtimes, type ShowtimeSelection } from "../format/query/showtime-selection.js";
import type { PlainStore } from "../format/read/plain-store.js";
import type { SnapshotLists } from "../format/read/snapshot.js";
import type { Embedded } from "../endpoints/parameters/query-values.js";
import { type PageQuery, writeListEnvelope } from "./compose-page.js";
import { writeWithoutProvenance } from "./without-provenance.js";

/** Writes `,"name":[…]`: each record of `store` named, once, without its provenance. */
function writeRecords(name: string, store: PlainStore, named: readonly number[], out: PageBuffer): void {
  out.ascii(`,"${name}":[`);
  for (let i = 0; i < named.length; i++) {
    if (i > 0) out.byte(0x2c);
    writeWithoutProvenance(store.records.entry(named[i]!), out);
  }
  out.byte(0x5d);
}

/** Adds `record` to `named` the first time it is named. */
function name(named: number[], record: number): void {
  if (!named.includes(record)) named.push(record);
}

/** The listing of the showtimes `selection` chooses: the page of `query`, its films and cinemas beside. */
export function composeListingInto(
  lists: SnapshotLists,
  selection: ShowtimeSelection,
  query: PageQuery & { include?: readonly Embedded[] },
  fallback: Freshness,
  out: PageBuffer,
): void {
  const page = selectShowtimes(lists, selection, query.after, query.limit);
  const [withFilms, withCinemas] = [query.include?.includes("film"), query.include?.includes("cinema")];
  const { distances } = selection;
  const films: number[] = [];
  const cinemas: number[] = [];
  writeListEnvelope(lists, query.binding, fallback, out, (fold) => ({
    last: lists.showtimes.render(
      "byCinema",
      page.records,
      out,
      fold,
      (out, fold, film, cinema) => {
        if (distances) out.ascii(`,"distanceKm":${roundedKm(distances.get(cinema)!)}`);
        if (withFilms) {
          lists.films.foldInto(film, fold);
          name(films, film);
        }
        if (withCinemas) {
          lists.cinemas.foldInto(cinema, fold);
          name(cinemas, cinema);
        }
      },
      true,
    ),
    hasMore: page.hasMore,
    after: () => {
      writeRecords("films", lists.films, films, out);
      writeRecords("cinemas", lists.cinemas, cinemas, out);
    },
  }));
}
