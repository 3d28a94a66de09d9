/**
 * The server's `instructions` at initialize (decision: MCP): what the listings are, today's date in
 * the snapshot's zones and the dates the data holds (so "tonight" or "on Saturday" needs no call
 * to find out), and how the tools lead from a place or a film to showtimes. Made for each
 * initialize from the request's clock and the snapshot in service, never kept: it names a date.
 */
import type { ZoneNames, ZoneOffset } from "./local-time.js";

/** What the instructions say of the listings: the snapshot's zones and the dates it holds. */
export interface ListingsFacts {
  now: Date;
  zones: ZoneNames | undefined;
  zoneOffset: ZoneOffset;
  /** The first and last local date with a showtime (null: none); undefined when they cannot be read. */
  dates: { firstDate: string | null; lastDate: string | null } | undefined;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/** The most zones named for one date: a market spanning many says how many more. */
const MAX_ZONES_NAMED = 4;

/** A wall-clock instant (epoch ms read as UTC fields) as `Mon 2026-11-23`. */
function dayOf(ms: number): string {
  const t = new Date(ms);
  return `${WEEKDAYS[t.getUTCDay()]} ${t.toISOString().slice(0, 10)}`;
}

function named(zones: string[]): string {
  if (zones.length <= MAX_ZONES_NAMED) return zones.join(", ");
  const more = zones.length - MAX_ZONES_NAMED;
  return `${zones.slice(0, MAX_ZONES_NAMED).join(", ")} and ${more} more zone${more === 1 ? "" : "s"}`;
}

/**
 * Today in the snapshot's zones, by the offsets it stores (as local dates are found): one date
 * when they agree (`Mon 2026-11-23 in Europe/Berlin, Europe/London`), else each date with its
 * zones (near midnight, or a market spanning an ocean). Without zones, the date in UTC.
 */
export function todayOf(facts: Pick<ListingsFacts, "now" | "zones" | "zoneOffset">): string {
  const ms = facts.now.getTime();
  const byDay = new Map<string, string[]>();
  for (const zone of facts.zones?.names ?? []) {
    const offset = facts.zoneOffset(zone, Math.floor(ms / 1000));
    if (offset === undefined) continue;
    const day = dayOf(ms + offset * 1000);
    byDay.set(day, [...(byDay.get(day) ?? []), zone]);
  }
  if (byDay.size === 0) return `${dayOf(ms)} in UTC`;
  const days = [...byDay].sort(([a], [b]) => (a.slice(4) < b.slice(4) ? -1 : 1));
  return days.map(([day, zones]) => `${day} in ${named(zones)}`).join("; ");
}

function datesOf(dates: ListingsFacts["dates"]): string | undefined {
  if (!dates) return undefined;
  if (dates.firstDate === null || dates.lastDate === null) return "The listings hold no showtimes right now.";
  return `The listings hold showtimes from ${dates.firstDate} to ${dates.lastDate}.`;
}

/** The instant as the tools' time arguments take it, to the minute: `2026-11-23T12:00Z`. */
const minuteOf = (now: Date) => `${now.toISOString().slice(0, 16)}Z`;

/** Which tools the server has, and which arguments they take: a way is told only when it is there. */
export type ToolsOffered = (tool: string, argument?: string) => boolean;

/** The ways from a question to the tools that answer it. */
function howTo(has: ToolsOffered): string[] {
  const place = has("find_places") ? "A place by name: find_places q=NAME gives its near=LATITUDE,LONGITUDE. " : "";
  const any = has("find_showtimes", "anyAttributeIds") ? " (all of them; anyAttributeIds: any one of them)" : "";
  return [
    `${place}What is on near a place: find_films near=LATITUDE,LONGITUDE with date (tonight: also startsAfter ` +
      "the time above); then find_showtimes with the filmId and the same near for times and booking links.",
    "A cinema's programme: find_cinemas (q=its name, or near=) gives its id; then find_showtimes cinemaId= date=.",
    `IMAX, 3D, a language, subtitles, accessibility: list_attributes gives the ids attributeIds takes${any}.`,
    "Ids from one answer are arguments of the next; pass nextCursor back as cursor for more.",
  ];
}

/** The instructions for one initialize. */
export function instructionsOf(facts: ListingsFacts, has: ToolsOffered): string {
  const when = `It is ${minuteOf(facts.now)}; today is ${todayOf(facts)}.`;
  return [
    "Cinema listings: films, cinemas and showtimes, read-only.",
    [when, datesOf(facts.dates)].filter(Boolean).join(" "),
    ...howTo(has),
    "Places are near=LATITUDE,LONGITUDE in decimal degrees; dates are YYYY-MM-DD in each cinema's own calendar; " +
      "every time shown is the cinema's local time with its zone.",
  ].join("\n");
}
