/**
 * The MCP scenarios (decision: MCP): a tool call, and the HTTP request that asks the same question
 * (the target the tool asks, at the tools' default limit, embeds included), each a scenario of its
 * own over the same questions, so the report compares their server CPU per request: a tool call
 * may cost at most twice its HTTP request. Their own random sequence, so the other scenarios ask
 * the same URLs as in earlier releases.
 */
import type { Snapshot } from "../../api/_core/format/read/snapshot.js";
import { TOOL_DEFAULT_LIMIT } from "../../api/_core/mcp/tool-arguments.js";
import { type Scenario, UNCACHED_URLS } from "./scenario.js";

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

/** Films near a random US cinema's place on a day, and a random cinema's showtimes on a day. */
export function mcpScenarios(lists: Snapshot["lists"], days: string[], pick: (n: number) => number): Scenario[] {
  const limit = TOOL_DEFAULT_LIMIT;
  const us: string[] = [];
  for (let c = 0; c < lists.cinemas.length; c++) {
    const [latitude, longitude] = lists.cinemas.coordinates(c);
    if (lists.cinemas.countryCodeOf(c) === "US" && !Number.isNaN(latitude))
      us.push(`${latitude.toFixed(4)},${longitude.toFixed(4)}`);
  }
  const films = Array.from({ length: us.length ? UNCACHED_URLS : 0 }, (): Question => {
    const near = us[pick(us.length)]!;
    const date = days[pick(days.length)]!;
    return { args: { near, date }, target: `/v1/films?limit=${limit}&near=${near}&date=${date}` };
  });
  const showtimes = Array.from({ length: UNCACHED_URLS }, (): Question => {
    const cinemaId = lists.cinemas.ids.text(pick(lists.cinemas.length));
    const date = days[pick(days.length)]!;
    const target = `/v1/showtimes?limit=${limit}&cinemaId=${encodeURIComponent(cinemaId)}&date=${date}&include=film,cinema`;
    return { args: { cinemaId, date }, target };
  });
  return [
    ...(films.length ? pair(MCP_SCENARIOS.films, "find_films", films) : []),
    ...pair(MCP_SCENARIOS.showtimes, "find_showtimes", showtimes),
  ];
}
