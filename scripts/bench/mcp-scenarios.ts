/**
 * The MCP scenarios (decision: MCP): a tool call (find_films, find_showtimes, find_places), and the
 * HTTP request that asks the same question (the target the tool asks, embeds included), each a
 * scenario of its own over the same questions, so the report compares their server CPU per request:
 * a tool call may cost at most twice its HTTP request. Their own random sequence, so the other
 * scenarios ask the same URLs as in earlier releases, and find_places' questions come after the
 * others' in it, so theirs are those of before.
 */
import type { Snapshot } from "../../api/_core/format/read/snapshot.js";
import { TOOL_DEFAULT_LIMIT, TOOL_MAX_LIMIT } from "../../api/_core/mcp/tool-arguments.js";
import { TOOLS_BY_NAME } from "../../api/_core/mcp/tools.js";
import { placeQuestions } from "./place-questions.js";
import { distinctIndexes, type Scenario, UNCACHED_URLS } from "./scenario.js";

/** A question both ways: the tool's arguments, and the GET that asks it. */
interface Question {
  args: Record<string, unknown>;
  target: string;
}

export const MCP_SCENARIOS = {
  films: { mcp: "MCP find_films near a US city on a date, uncached", http: "HTTP: the same films, uncached" },
  showtimes: {
    mcp: "MCP find_showtimes at a cinema on a date, uncached",
    http: "HTTP: the same showtimes, with film and cinema, uncached",
  },
  places: { mcp: "MCP find_places by a town's name, uncached", http: "HTTP: the same places, uncached" },
};

/** A tools/call message, as a client POSTs it. */
export function toolCall(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
}

/** The two scenarios of one tool's questions. */
function pair(names: { mcp: string; http: string }, tool: string, questions: Question[]): Scenario[] {
  return [
    { name: names.http, paths: questions.map((q) => q.target), authorized: true, uncached: true },
    {
      name: names.mcp,
      paths: ["/mcp"],
      bodies: questions.map((q) => toolCall(tool, q.args)),
      authorized: true,
      uncached: true,
    },
  ];
}

/** Radii a film question takes: with the places and the days, enough distinct questions that none is cached. */
const RADII_KM = [5, 10, 15, 20, 25, 30, 40, 50];

/** Films near a random US cinema's place on a day, and a random cinema's showtimes on a day. */
export function mcpScenarios(lists: Snapshot["lists"], days: string[], pick: (n: number) => number): Scenario[] {
  const limit = TOOL_DEFAULT_LIMIT;
  const us: string[] = [];
  for (let c = 0; c < lists.cinemas.length; c++) {
    const [latitude, longitude] = lists.cinemas.coordinates(c);
    if (lists.cinemas.countryCodeOf(c) === "US" && !Number.isNaN(latitude))
      us.push(`${latitude.toFixed(4)},${longitude.toFixed(4)}`);
  }
  const combos = us.length * days.length * RADII_KM.length;
  const films = distinctIndexes(combos, UNCACHED_URLS, pick).map((index): Question => {
    const near = us[index % us.length]!;
    const date = days[Math.floor(index / us.length) % days.length]!;
    const radiusKm = RADII_KM[Math.floor(index / us.length / days.length)]!;
    return {
      args: { near, radiusKm, date },
      target: `/v1/films?limit=${limit}&near=${near}&radiusKm=${radiusKm}&date=${date}`,
    };
  });
  const showtimes = Array.from({ length: UNCACHED_URLS }, (): Question => {
    const cinemaId = lists.cinemas.ids.text(pick(lists.cinemas.length));
    const date = days[pick(days.length)]!;
    const cinema = encodeURIComponent(cinemaId);
    const target = `/v1/showtimes?limit=${limit}&cinemaId=${cinema}&date=${date}&include=film,cinema`;
    return { args: { cinemaId, date }, target };
  });
  const place = TOOLS_BY_NAME.get("find_places")!.target;
  const places = placeQuestions(lists, pick, TOOL_MAX_LIMIT).map(
    (args): Question => ({ args: { ...args }, target: place.targetOf({ ...args }) }),
  );
  return [
    ...(films.length ? pair(MCP_SCENARIOS.films, "find_films", films) : []),
    ...pair(MCP_SCENARIOS.showtimes, "find_showtimes", showtimes),
    ...(places.length ? pair(MCP_SCENARIOS.places, "find_places", places) : []),
  ];
}
