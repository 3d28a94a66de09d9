/**
 * find_showtimes's structured content (decision: MCP, a page of showtimes): the page `/v1` answers
 * with `include=film,cinema`, each film and cinema given once beside the showtimes rather than
 * within each, and no record with its provenance (the page's `freshness` sums it up; get_showtime,
 * get_film and get_cinema give it). A page of 20 at a few cinemas repeated the same films and
 * cinemas, with their provenance, twenty times over.
 */
import type { Page, ServedCinema, ServedFilm, ServedShowtime } from "../../../client/types.js";
import { RECORD_SCHEMAS } from "./record-schemas.js";

type JsonSchema = Record<string, unknown>;

/** The page component its output schema is (tool-schemas.ts finds it among the API's). */
export const SHOWTIME_LISTING = "ShowtimeListing";

/** The schema of `name` without the properties `drop`, described as `description`. */
function without(name: string, drop: readonly string[], description: string): JsonSchema {
  const schema = RECORD_SCHEMAS[name];
  if (!schema) throw new Error(`no response schema ${name}`);
  const properties = Object.fromEntries(
    Object.entries(schema.properties as JsonSchema).filter(([property]) => !drop.includes(property)),
  );
  const required = (schema.required as string[]).filter((property) => !drop.includes(property));
  return { ...schema, properties, required, description };
}

/** The listing's schemas, by name, beside the API's (their references are to the API's definitions). */
export function showtimeListingSchemas(): Record<string, JsonSchema> {
  const page = RECORD_SCHEMAS.ShowtimePage!;
  const list = (ref: string) => ({ type: "array", items: { $ref: `#/$defs/${ref}` } });
  return {
    ListedShowtime: without(
      "ServedShowtime",
      ["film", "cinema", "provenance"],
      "A showtime as find_showtimes lists it, without its provenance: its film and cinema are in the page's " +
        "`films` and `cinemas`.",
    ),
    ListedFilm: without("Film", ["provenance"], "A film of the page's showtimes, once, without its provenance."),
    ListedCinema: without("Cinema", ["provenance"], "A cinema of the page's showtimes, once, without its provenance."),
    // The API's page, every member but `data` as it is, `films` and `cinemas` beside.
    [SHOWTIME_LISTING]: {
      ...page,
      properties: {
        ...(page.properties as JsonSchema),
        data: list("ListedShowtime"),
        films: list("ListedFilm"),
        cinemas: list("ListedCinema"),
      },
      required: [...(page.required as string[]), "films", "cinemas"],
      description:
        "A page of showtimes, as `/v1/showtimes?include=film,cinema` answers it, with each film and cinema " +
        "once (in the order the showtimes first name them) rather than in each showtime.",
    },
  };
}

/** A record without its provenance. */
function withoutProvenance<T extends { provenance?: unknown }>(record: T): Omit<T, "provenance"> {
  const { provenance: _provenance, ...rest } = record;
  return rest;
}

/** The page `/v1` answers, as the listing: showtimes without their embeds, each film and cinema once, no provenance. */
export function showtimeListingOf(page: Page<ServedShowtime>): Record<string, unknown> {
  const films = new Map<string, unknown>();
  const cinemas = new Map<string, unknown>();
  const data = page.data.map(({ film, cinema, provenance: _provenance, ...showtime }) => {
    if (film && !films.has(film.id)) films.set(film.id, withoutProvenance(film));
    if (cinema && !cinemas.has(cinema.id)) cinemas.set(cinema.id, withoutProvenance(cinema));
    return showtime;
  });
  return { ...page, data, films: [...films.values()], cinemas: [...cinemas.values()] };
}

/** The listing of the API's JSON, parsed. */
export const showtimeListing = (body: unknown) => showtimeListingOf(body as Page<ServedShowtime>);

/** The listing, parsed: what find_showtimes's text is rendered from. */
export interface ShowtimeListing extends Page<Omit<ServedShowtime, "film" | "cinema" | "provenance">> {
  films: Array<Omit<ServedFilm, "provenance">>;
  cinemas: Array<Omit<ServedCinema, "provenance">>;
}
