/**
 * What a request adds to each showtime of a page (decision: query parameters): near a point, its
 * cinema's `distanceKm`; with include, its film and/or cinema as their get-one returns them, their
 * freshness folded in after the showtime's. Or, for find_showtimes's listing (decision: MCP, a
 * page of showtimes), the same members but film and cinema, which come once each after the page's
 * freshness, in the order the showtimes first name them, without their provenance.
 */
import type { PageBuffer } from "../format/primitives/page-buffer.js";
import { roundedKm } from "../format/query/cinema-selection.js";
import type { PlainStore } from "../format/read/plain-store.js";
import type { SnapshotLists } from "../format/read/snapshot.js";
import type { Embed } from "../format/read/showtime-store.js";
import type { Embedded } from "../endpoints/parameters/query-values.js";
import { writeWithoutProvenance } from "./without-provenance.js";

/** How a page's showtimes are written: what each gets, and what follows the page's freshness. */
export interface ShowtimeShape {
  embed?: Embed;
  /** Members written after freshness: the listing's films and cinemas. */
  after?: () => void;
  /** Each showtime without its provenance (the listing). */
  withoutProvenance: boolean;
}

/** The members a showtime gets near a point, and the records include names. */
interface Additions {
  distances?: ReadonlyMap<number, number>;
  film: boolean;
  cinema: boolean;
}

const additionsOf = (include: readonly Embedded[] | undefined, distances?: ReadonlyMap<number, number>) => ({
  distances,
  film: include?.includes("film") ?? false,
  cinema: include?.includes("cinema") ?? false,
});

function writeDistance(out: PageBuffer, distances: ReadonlyMap<number, number> | undefined, cinema: number): void {
  if (distances) out.ascii(`,"distanceKm":${roundedKm(distances.get(cinema)!)}`);
}

/** The page `/v1` answers: the film and cinema embedded in each showtime. */
function embedded(lists: SnapshotLists, { distances, film, cinema }: Additions): ShowtimeShape {
  if (!film && !cinema && !distances) return { withoutProvenance: false };
  const embed: Embed = (out, fold, f, c) => {
    writeDistance(out, distances, c);
    if (film) {
      out.text(',"film":');
      out.raw(lists.films.records.entry(f));
      lists.films.foldInto(f, fold);
    }
    if (cinema) {
      out.text(',"cinema":');
      out.raw(lists.cinemas.records.entry(c));
      lists.cinemas.foldInto(c, fold);
    }
  };
  return { embed, withoutProvenance: false };
}

/** Writes `,"name":[…]`: each record of `store` named, once, without its provenance. */
function writeRecords(name: string, store: PlainStore, named: readonly number[], out: PageBuffer): void {
  out.ascii(`,"${name}":[`);
  for (let i = 0; i < named.length; i++) {
    if (i > 0) out.byte(0x2c);
    writeWithoutProvenance(store.records.entry(named[i]!), out);
  }
  out.byte(0x5d);
}

/** find_showtimes's listing: films and cinemas folded as embedded, then written once each after the page. */
function listed(lists: SnapshotLists, { distances, film, cinema }: Additions, out: PageBuffer): ShowtimeShape {
  const films: number[] = [];
  const cinemas: number[] = [];
  const embed: Embed = (out, fold, f, c) => {
    writeDistance(out, distances, c);
    if (film) {
      lists.films.foldInto(f, fold);
      if (!films.includes(f)) films.push(f);
    }
    if (cinema) {
      lists.cinemas.foldInto(c, fold);
      if (!cinemas.includes(c)) cinemas.push(c);
    }
  };
  const after = () => {
    writeRecords("films", lists.films, films, out);
    writeRecords("cinemas", lists.cinemas, cinemas, out);
  };
  return { embed, after, withoutProvenance: true };
}

/** How the showtimes of a page written into `out` are shaped: as `/v1` answers them, or as find_showtimes lists. */
export function showtimeShapeOf(
  lists: SnapshotLists,
  include: readonly Embedded[] | undefined,
  distances: ReadonlyMap<number, number> | undefined,
  listing: boolean,
  out: PageBuffer,
): ShowtimeShape {
  const additions = additionsOf(include, distances);
  return listing ? listed(lists, additions, out) : embedded(lists, additions);
}
