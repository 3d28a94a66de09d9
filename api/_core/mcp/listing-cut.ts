/**
 * find_showtimes's listing (showtime-listing.ts) cut from the text of the page `/v1` answers, as
 * the API writes it (json-members.ts), rather than parsed and written again: each showtime without
 * its film, cinema and provenance, each film and cinema once, read whole only the first time a
 * showtime names it (the page repeats it in every showtime of it), without its provenance.
 */
import { holdsAt, isKey, isPlainJson, QUOTE, readArray, readObject, valueEnd } from "./json-members.js";

/** The pieces of an object as written without some of its members: its runs of kept members, cut out. */
class Without {
  private run = -1;
  private runEnd = -1;
  private runs = 0;

  constructor(
    private readonly json: string,
    private readonly out: string[],
  ) {
    out.push("{");
  }

  /** The member at [start, end), kept or not. */
  member(start: number, end: number, keep: boolean): void {
    if (!keep) return;
    // Members follow one another with a comma between: a kept member right after the last kept extends its run.
    if (this.run !== -1 && this.runEnd + 1 !== start) this.cut();
    if (this.run === -1) this.run = start;
    this.runEnd = end;
  }

  close(): void {
    if (this.run !== -1) this.cut();
    this.out.push("}");
  }

  private cut(): void {
    this.out.push(this.runs++ === 0 ? "" : ",", this.json.slice(this.run, this.runEnd));
    this.run = -1;
  }
}

/** A page's films or cinemas: by id (as written), the record as embedded and the pieces of it as listed. */
type Records = Map<string, { embedded: string; listed: string[] }>;

/**
 * Where the embedded record (a film or cinema) at `at` ends; added to `records` the first time its
 * id is seen, without its provenance. Read whole only then: a record seen before is the same text.
 * -1 when it is no object with a string id.
 */
function recordEnd(json: string, at: number, records: Records): number {
  // Records are written with their id first: `{"id":"…"`.
  const idEnd = holdsAt(json, at, '{"id":"') ? json.indexOf('"', at + 7) + 1 : 0;
  const seen = idEnd > 0 ? records.get(json.slice(at + 6, idEnd)) : undefined;
  if (seen && holdsAt(json, at, seen.embedded)) return at + seen.embedded.length;
  const listed: string[] = [];
  const without = new Without(json, listed);
  let id: string | undefined;
  const end = readObject(json, at, (start, colon) => {
    const end = valueEnd(json, colon + 1);
    if (isKey(json, start, colon, "id")) id = json.charCodeAt(colon + 1) === QUOTE ? json.slice(colon + 1, end) : "";
    without.member(start, end, !isKey(json, start, colon, "provenance"));
    return end;
  });
  without.close();
  if (end === -1 || !id) return -1;
  if (!records.has(id)) records.set(id, { embedded: json.slice(at, end), listed });
  return end;
}

/** Where the showtime at `at` ends, added to `out` without its film, cinema and provenance, and those to theirs. */
function showtimeEnd(json: string, at: number, out: string[], films: Records, cinemas: Records): number {
  const without = new Without(json, out);
  const end = readObject(json, at, (start, colon) => {
    const records = isKey(json, start, colon, "film")
      ? films
      : isKey(json, start, colon, "cinema")
        ? cinemas
        : undefined;
    const end = records ? recordEnd(json, colon + 1, records) : valueEnd(json, colon + 1);
    without.member(start, end, !records && !isKey(json, start, colon, "provenance"));
    return end;
  });
  without.close();
  return end;
}

/** Adds to `out` the listing's `films` or `cinemas` member, `name`. */
function addRecords(name: string, records: Records, out: string[]) {
  out.push(`,"${name}":[`);
  let first = true;
  for (const { listed } of records.values()) {
    if (!first) out.push(",");
    for (const piece of listed) out.push(piece);
    first = false;
  }
  out.push("]");
}

/**
 * The listing cut from the page's JSON as the API writes it (json-members.ts): the page's members
 * in order, `data` its showtimes without their film, cinema and provenance, then `films` and
 * `cinemas`, each record once (the first time a showtime names it), without its provenance.
 * Undefined when the page is not written so (an escape in a string, an embed that is no record, no
 * one `data`). Its pieces are joined once, at the end.
 */
export function listingCut(page: string): string | undefined {
  if (!isPlainJson(page)) return undefined;
  const films: Records = new Map();
  const cinemas: Records = new Map();
  const out = ["{"];
  let members = 0;
  let lists = 0;
  const end = readObject(page, 0, (start, colon) => {
    if (isKey(page, start, colon, "films") || isKey(page, start, colon, "cinemas")) return -1;
    if (members++ > 0) out.push(",");
    if (!isKey(page, start, colon, "data")) {
      const end = valueEnd(page, colon + 1);
      out.push(page.slice(start, end));
      return end;
    }
    lists++;
    out.push('"data":[');
    let showtimes = 0;
    const end = readArray(page, colon + 1, (at) => {
      if (showtimes++ > 0) out.push(",");
      return showtimeEnd(page, at, out, films, cinemas);
    });
    out.push("]");
    return end;
  });
  if (end !== page.length || lists !== 1) return undefined;
  addRecords("films", films, out);
  addRecords("cinemas", cinemas, out);
  out.push("}");
  return out.join("");
}
