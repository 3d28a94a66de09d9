/**
 * The short text a model reads beside each tool's structured answer (decision: MCP): a few lines
 * per record (what it is, where and when in the cinema's own time, how far, how to book, its id for
 * the next call), then how to continue. The structured content carries everything else.
 */
import type {
  Attribute,
  Location,
  MarketList,
  MatchingShowtimes,
  Place,
  PlacePage,
  Result,
  SearchPage,
  ServedCinema,
  ServedFilm,
  ServedShowtime,
} from "../../../client/types.js";
import { localSpanOf, localTimeOf, type ZoneOffset, zoneOfTime } from "./local-time.js";
import type { ShowtimeListing } from "./showtime-listing.js";

type ListedShowtime = ShowtimeListing["data"][number];
type ListedFilm = ShowtimeListing["films"][number];
type ListedCinema = ShowtimeListing["cinemas"][number];

/** Text for one record as the API serves it (the structured content's items, typed as the typed client has them). */
export type RenderItem<T> = (record: T, zoneOffset: ZoneOffset) => string;

/** What could break a line or hide in one: control characters, line separators, runs of spaces. */
const UNLINED = /[\p{Cc}\u2028\u2029]|\s\s|^\s|\s$/u;

/** A value of the data on one line: control characters and runs of whitespace become one space. */
function oneLine(value: unknown): string {
  const text = String(value);
  return UNLINED.test(text) ? text.replace(/[\s\p{Cc}]+/gu, " ").trim() : text;
}

/** The parts that are present, joined with ` · `. */
function joined(parts: Array<string | undefined | false>): string {
  let text = "";
  for (const part of parts)
    if (typeof part === "string" && part !== "") text = text === "" ? part : `${text} · ${part}`;
  return text;
}

const distance = (record: { distanceKm?: number }) =>
  typeof record.distanceKm === "number" ? `${record.distanceKm} km away` : undefined;
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** How many showtimes matched and the first of them (decision: discovery), in `timeZone` when known. */
function matching(m: MatchingShowtimes | undefined, zoneOffset: ZoneOffset, timeZone?: string): string | undefined {
  if (!m) return undefined;
  const where = typeof m.cinemaCount === "number" ? ` at ${plural(m.cinemaCount, "cinema")}` : "";
  const first = localTimeOf(m.firstStartsAt, timeZone, zoneOffset);
  return `  ${plural(m.count, "matching showtime")}${where}, the first ${first}`;
}

export const renderFilm: RenderItem<ServedFilm> = (film, zoneOffset) => {
  const facts = [
    film.certification && oneLine(film.certification),
    film.durationMinutes && `${film.durationMinutes} min`,
    film.releaseDate && `released ${film.releaseDate}`,
  ].filter(Boolean);
  const head = `- ${oneLine(film.title)}${facts.length ? ` (${facts.join(", ")})` : ""} · film ${oneLine(film.id)}`;
  const m = film.matchingShowtimes;
  return [head, matching(m, zoneOffset, m && zoneOfTime(m.firstStartsAt, zoneOffset))].filter(Boolean).join("\n");
};

function address(location: Location): string {
  const town = [location.postcode, location.locality].filter(Boolean).map(oneLine).join(" ");
  return [location.address && oneLine(location.address), town, location.countryCode].filter(Boolean).join(", ");
}

/** A point as `near` takes it: LATITUDE,LONGITUDE. */
function coordinates(point: { latitude?: number; longitude?: number }): string | undefined {
  return typeof point.latitude === "number" && typeof point.longitude === "number"
    ? `at ${point.latitude},${point.longitude}`
    : undefined;
}

export const renderCinema: RenderItem<ServedCinema> = (cinema, zoneOffset) => {
  const { location } = cinema;
  const zone = location.timeZone && `time zone ${location.timeZone}`;
  const lines = [
    `- ${oneLine(cinema.name)} · cinema ${oneLine(cinema.id)}`,
    `  ${joined([address(location), coordinates(location), distance(cinema), zone])}`,
    matching(cinema.matchingShowtimes, zoneOffset, location.timeZone),
  ];
  return lines.filter(Boolean).join("\n");
};

/** A showtime, its film and cinema. */
function showtimeText(
  showtime: ListedShowtime,
  film: ListedFilm | undefined,
  cinema: ListedCinema | undefined,
  zoneOffset: ZoneOffset,
): string {
  const when = localSpanOf(showtime.startsAt, showtime.endsAt, cinema?.location.timeZone, zoneOffset);
  const title = film ? oneLine(film.title) : `film ${oneLine(showtime.filmId)}`;
  const place = cinema ? `${oneLine(cinema.name)}, ${oneLine(cinema.location.locality ?? "")}` : undefined;
  const screen = showtime.screenName && oneLine(showtime.screenName);
  const where = joined([place, distance(showtime), screen, showtime.attributeIds?.join(", ")]);
  const book = showtime.bookingUrl ? `\n  Book: ${showtime.bookingUrl}` : "";
  const ids = `showtime ${oneLine(showtime.id)} · film ${oneLine(showtime.filmId)}`;
  // One string, not lines joined: the answer's text is copied once, when it is written out.
  return `- ${title} · ${when}\n  ${where}${book}\n  ${ids} · cinema ${oneLine(showtime.cinemaId)}`;
}

export const renderShowtime: RenderItem<ServedShowtime> = (showtime, zoneOffset) =>
  showtimeText(showtime, showtime.film, showtime.cinema, zoneOffset);

/** find_showtimes's listing (showtime-listing.ts): each showtime with the listing's film and cinema of its ids. */
export function renderListing(listing: ShowtimeListing, zoneOffset: ZoneOffset): string {
  const films = new Map(listing.films.map((film) => [film.id, film]));
  const cinemas = new Map(listing.cinemas.map((cinema) => [cinema.id, cinema]));
  const item: RenderItem<ListedShowtime> = (showtime) =>
    showtimeText(showtime, films.get(showtime.filmId), cinemas.get(showtime.cinemaId), zoneOffset);
  return renderPage(listing, item, "showtime", "find_showtimes", zoneOffset);
}

export const renderAttribute: RenderItem<Attribute> = (attribute) => {
  const description = attribute.description ? ` · ${oneLine(attribute.description)}` : "";
  return `- ${oneLine(attribute.id)}: ${oneLine(attribute.name)} (${attribute.kind})${description}`;
};

const PLACE_KINDS: Record<Place["kind"], string> = {
  town: "town",
  locality: "cinema locality",
  postcodeDistrict: "postcode district",
};

export const renderPlace: RenderItem<Place> = (place) => {
  const name = [place.name, place.region, place.countryCode].filter(Boolean).map(oneLine).join(", ");
  const near = `near=${place.latitude},${place.longitude}`;
  const cinemas = `${plural(place.cinemasWithin25Km, "cinema")} within 25 km`;
  return `- ${name} (${PLACE_KINDS[place.kind]}) · ${near} · ${cinemas}`;
};

/** A page of places, and the attribution GeoNames' licence asks for (decision: places). */
export function renderPlaces(page: PlacePage, zoneOffset: ZoneOffset): string {
  const text = renderPage(page, renderPlace, "place", "find_places", zoneOffset);
  return page.data.length === 0 ? text : `${text}\n${oneLine(page.attribution)}`;
}

/**
 * A page: how many, each record, then the cursor to continue with (or that there is no more); first,
 * when `q` found only near spellings, that it did (decision: name search).
 */
export function renderPage<T>(
  page: Pick<SearchPage<T>, "data" | "pagination" | "nameMatch">,
  item: RenderItem<T>,
  noun: string,
  tool: string,
  zoneOffset: ZoneOffset,
): string {
  const records = page.data;
  if (records.length === 0) return `No ${noun}s match.`;
  let text = page.nameMatch === "near" ? "No exact match for q; near spellings, fewest edits first.\n" : "";
  text += `${plural(records.length, noun)}:`;
  for (const record of records) text += `\n${item(record, zoneOffset)}`;
  const next = page.pagination.nextCursor;
  const more = next ? `More: call ${tool} again with the same arguments and cursor "${next}".` : "That is all of them.";
  return `${text}\n${more}`;
}

/** One record (a get-one's answer). */
export function renderOne<T>(result: Pick<Result<T>, "data">, item: RenderItem<T>, zoneOffset: ZoneOffset): string {
  return item(result.data, zoneOffset);
}

/**
 * The markets (decision: markets): each with its countries, what it holds and its dates, where its
 * tools are, and whether the key may use it.
 */
export function renderMarkets(list: Pick<MarketList, "data">): string {
  const lines = list.data.map((market) => {
    const name = market.id === null ? "These listings" : `${oneLine(market.name)} (${market.id})`;
    const { counts } = market;
    const holds = counts
      ? `${plural(counts.cinemas, "cinema")}, ${plural(counts.films, "film")}, ${plural(counts.showtimes, "showtime")}`
      : "its data cannot be read right now";
    const dates = market.firstDate && market.lastDate ? `dates ${market.firstDate} to ${market.lastDate}` : undefined;
    const tools = `tools at ${market.basePath.replace(/\/v1$/, "/mcp")}${market.default ? " (and /mcp)" : ""}`;
    const key = market.entitled ? "your key may use it" : "your key may not use it";
    return `- ${joined([name, market.countries.join(", "), holds, dates, tools, key])}`;
  });
  return [`${plural(list.data.length, "market")}:`, ...lines].join("\n");
}
