/**
 * The tools (decision: MCP), one row each: its name and description for the model, the endpoint
 * and query it asks (its arguments are that endpoint's parameters: tool-arguments.ts), its output
 * schema (the API's response schema for that endpoint) and how its records read as text. A tool's
 * structured answer is the API's JSON for the same question, by construction.
 */
import type { MarketList, Page, PlacePage, Result } from "../../../client/types.js";
import { PLACE_PARAMETERS } from "../endpoints/parameters/places.js";
import type { ZoneOffset } from "./local-time.js";
import {
  renderAttribute,
  renderCinema,
  renderFilm,
  renderListing,
  renderMarkets,
  renderOne,
  renderPage,
  renderPlaces,
  renderShowtime,
  type RenderItem,
} from "./render-text.js";
import { MAX_LIMIT } from "../endpoints/parameters/paging.js";
import {
  fixedTarget,
  listTarget,
  oneTarget,
  tableTarget,
  TOOL_MAX_LIMIT,
  type ToolLimit,
  type ToolTarget,
} from "./tool-arguments.js";
import { type JsonSchema, outputSchemaOf } from "./tool-schemas.js";
import { SHOWTIME_LISTING, type ShowtimeListing } from "./showtime-listing.js";

export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly target: ToolTarget;
  /** The response component of record-schemas.ts (or showtime-listing.ts) its structured content is. */
  readonly output: string;
  /** Its structured content is its page of showtimes as find_showtimes lists it (showtime-listing.ts). */
  readonly listing?: boolean;
  /** The text for the model of an answer (its structured content, parsed). */
  render(content: unknown, zoneOffset: ZoneOffset): string;
}

/** Every tool only reads the listings: the same call gives the same answer until the data is rebuilt. */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const MORE =
  `Up to ${TOOL_MAX_LIMIT} per call (limit, default 10); ` +
  "for more, call again with the same arguments and cursor set to the answer's nextCursor.";
const LOCAL =
  "date is YYYY-MM-DD in each cinema's own calendar; times are shown in the cinema's local time with its zone.";

function listTool<T>(
  name: string,
  title: string,
  description: string,
  asks: {
    resource: "films" | "cinemas" | "showtimes" | "attributes";
    omit?: string[];
    fixed?: string;
    pageSize?: ToolLimit;
  },
  output: string,
  item: RenderItem<T>,
  noun: string,
): Tool {
  return {
    name,
    title,
    description: asks.pageSize ? description : `${description} ${MORE}`,
    target: listTarget(name, asks.resource, asks.omit, asks.fixed, asks.pageSize),
    output,
    render: (content, zoneOffset) => renderPage(content as Page<T>, item, noun, name, zoneOffset),
  };
}

function oneTool<T>(
  name: string,
  title: string,
  description: string,
  asks: { resource: "films" | "cinemas" | "showtimes"; id: string; idDescription: string; fixed?: string },
  output: string,
  item: RenderItem<T>,
): Tool {
  return {
    name,
    title,
    description,
    target: oneTarget(name, asks.resource, asks.id, asks.idDescription, asks.fixed),
    output,
    render: (content, zoneOffset) => renderOne(content as Result<T>, item, zoneOffset),
  };
}

export const TOOLS: readonly Tool[] = [
  listTool(
    "find_films",
    "Find films",
    "Films with a showtime matching every filter given, most matching showtimes first: by words of the title " +
      "(q), showing near a place (near=LATITUDE,LONGITUDE, radiusKm default 25), on a date, at a cinema " +
      "(cinemaId), in a country, in a time window or with attributes (attributeIds, ids from list_attributes). " +
      "Each film says how many showtimes match, at how many cinemas, and the first. Without filters: every " +
      `film, by id. ${LOCAL}`,
    { resource: "films" },
    "FilmPage",
    renderFilm,
    "film",
  ),
  listTool(
    "find_cinemas",
    "Find cinemas",
    "Cinemas by words of their name or locality (q), near a place (nearest first, with the distance), in a country " +
      "or chain, or showing a film (filmId) on a date, in a time window or with attributes; with such showtime " +
      `filters each cinema says how many showtimes match and the first. ${LOCAL}`,
    { resource: "cinemas" },
    "CinemaPage",
    renderCinema,
    "cinema",
  ),
  {
    name: "find_showtimes",
    title: "Find showtimes",
    description:
      "Showtimes in order of start, each with its film and cinema: at a cinema (cinemaId), of a film (filmId), near " +
      "a place, on a date (dayStartsAt=03:00 counts a 01:00 show to the evening before), in a window (startsAfter, " +
      "startsBefore: date-times with a zone, such as 2026-11-27T17:00Z) or with all of some attributes. Each shows " +
      "its start and end (the film's, if it starts on time) in the cinema's local time, the distance near a place, " +
      `and the booking URL. ${LOCAL} ${MORE}`,
    // Its films and cinemas once each, not in every showtime (decision: MCP, a page of showtimes).
    target: listTarget("find_showtimes", "showtimes", ["include"], "include=film,cinema"),
    output: SHOWTIME_LISTING,
    listing: true,
    render: (content, zoneOffset) => renderListing(content as ShowtimeListing, zoneOffset),
  },
  oneTool(
    "get_film",
    "Get a film",
    "One film by its id (as find_films and find_showtimes give it): title, running time, certification, " +
      "release date, poster.",
    { resource: "films", id: "filmId", idDescription: "The film's id, such as film-orbit-of-ash." },
    "FilmResult",
    renderFilm,
  ),
  oneTool(
    "get_cinema",
    "Get a cinema",
    "One cinema by its id (as find_cinemas and find_showtimes give it): name, address, coordinates, time zone, chain.",
    { resource: "cinemas", id: "cinemaId", idDescription: "The cinema's id, such as gb-lon-odeon-leicester-sq." },
    "CinemaResult",
    renderCinema,
  ),
  oneTool(
    "get_showtime",
    "Get a showtime",
    "One showtime by its id (as find_showtimes gives it), with its film and cinema: its start and end in the " +
      "cinema's local time, screen, attributes and booking URL.",
    {
      resource: "showtimes",
      id: "showtimeId",
      idDescription: "The showtime's id, as find_showtimes gives it.",
      fixed: "include=film,cinema",
    },
    "ShowtimeResult",
    renderShowtime,
  ),
  listTool(
    "list_attributes",
    "List showtime attributes",
    "The showtime attributes (formats such as IMAX or 3D, languages, accessibility, events): their ids are what " +
      `attributeIds takes. The whole catalogue in one call (up to ${MAX_LIMIT}; past that, pass nextCursor as cursor).`,
    // The catalogue is small and one line each: a model that needs IMAX should not have to page for it.
    { resource: "attributes", pageSize: { max: MAX_LIMIT, fallback: MAX_LIMIT } },
    "AttributePage",
    renderAttribute,
    "attribute",
  ),
  {
    name: "find_places",
    title: "Find places",
    description:
      "Places by name (q), for the near=LATITUDE,LONGITUDE the other tools take: towns (with their region), and " +
      "the localities and postcode districts of the listed cinemas, each with its coordinates and how many " +
      'cinemas lie within 25 km (0 is an answer: none near). For "near Leicester Square", ask q=London or the ' +
      "postcode district WC2H, then find_cinemas or find_showtimes near its coordinates. Best match first, then " +
      `most cinemas near. ${MORE}`,
    target: tableTarget("find_places", "/v1/places", PLACE_PARAMETERS),
    output: "PlacePage",
    render: (body, zoneOffset) => renderPlaces(body as PlacePage, zoneOffset),
  },
  {
    name: "list_markets",
    title: "List markets",
    description:
      "The markets these listings cover (a country or a few, each its own listings): for each its id, name and " +
      "countries, how many cinemas, films and showtimes it holds, its first and last date with showtimes, where its " +
      "tools are (/gb/mcp; /mcp serves the default market, if any) and whether this key may use it. The other tools " +
      "answer from the market of the address they are called at.",
    target: fixedTarget("list_markets", "/markets"),
    output: "MarketList",
    render: (body) => renderMarkets(body as MarketList),
  },
];

export const TOOLS_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The tools as tools/list describes them: schemas, and annotations saying they only read. */
export function toolDefinitions(): Array<Record<string, unknown>> {
  return TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.target.inputSchema,
    outputSchema: outputSchemaOf(tool.output, tool.target.maxItems),
    annotations: { title: tool.title, ...ANNOTATIONS },
  }));
}

export type { JsonSchema };
