/**
 * The attribute filters of `/v1/showtimes` (decision: query parameters, known attribute ids):
 * `attributeIds` (all of them) and `anyAttributeIds` (at least one), each 1..32 ids. Their ids are
 * a closed catalogue, the snapshot's attributes: an id it lacks is a 400 naming the nearest known
 * ids, never an empty page that would read as "none showing".
 */
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import type { SnapshotLists } from "../../format/read/snapshot.js";
import { ApiError } from "../../respond/errors.js";
import { clipText } from "../../respond/text.js";
import { nearestIds, type KnownId } from "./nearest-ids.js";
import type { FilterRow } from "./parameter.js";
import { MAX_ATTRIBUTE_FILTER, MAX_ID_LENGTH, parseAttributeIds } from "./query-values.js";

type Name = "attributeIds" | "anyAttributeIds";

/** Spec §7's bound on a message; a refusal is built within it, so the MCP tool's text is the HTTP message whole. */
const MAX_MESSAGE = 300;
/**
 * An unknown id echoed: up to 24 code points, which JSON may write 6 characters each, so the
 * message without ids is at most 262 characters.
 */
const MAX_UNKNOWN_ECHO = 24;

/** The snapshot's attributes as the nearest are found among: id and name (read only for a refusal). */
function catalogueOf(lists: SnapshotLists): KnownId[] {
  const { attributes } = lists;
  return Array.from({ length: attributes.length }, (_, i) => {
    const record = JSON.parse(Buffer.from(attributes.records.entry(i)).toString("utf8")) as { name?: unknown };
    return { id: attributes.ids.text(i), name: typeof record.name === "string" ? record.name : undefined };
  });
}

/**
 * The 400 for `unknown`, the first id the snapshot lacks (`others` more are unknown too): the nearest
 * known ids, as many as the message holds.
 */
export function unknownAttribute(parameter: Name, unknown: string, others: number, nearest: string[]): ApiError {
  const head = `${parameter}: no attribute has the id ${JSON.stringify(clipText(unknown, MAX_UNKNOWN_ECHO))}`;
  const more = others === 0 ? "" : ` (${others} more of the ids given ${others === 1 ? "is" : "are"} unknown too)`;
  const tail = "; /v1/attributes lists every id";
  const named: string[] = [];
  for (const id of nearest) {
    const list = `; nearest: ${[...named, id].join(", ")}`;
    if ((head + more + list + tail).length > MAX_MESSAGE) break;
    named.push(id);
  }
  const message = `${head}${more}${named.length ? `; nearest: ${named.join(", ")}` : ""}${tail}`;
  return new ApiError(400, "bad_request", message, { parameter });
}

/** Refuses ids the snapshot's catalogue lacks (its attributes, per market the market's). */
function checkKnownIds(parameter: Name, ids: string[], lists: SnapshotLists): void {
  const unknown = ids.filter((id) => lists.attributes.indexOf(id) < 0);
  if (unknown.length === 0) return;
  const first = unknown[0]!;
  throw unknownAttribute(parameter, first, unknown.length - 1, nearestIds(first, catalogueOf(lists)));
}

/** Per attribute-set code, 1 when the set holds at least one of `ids` (all known: checked first). */
function setsHoldingAny(lists: SnapshotLists, ids: readonly string[]): Uint8Array {
  const members = lists.dictionaries.attributeSetMembers();
  const wanted = ids.map((id) => lists.attributes.indexOf(id));
  const sets = new Uint8Array(members.length);
  members.forEach((held, code) => {
    if (wanted.some((a) => held.includes(a))) sets[code] = 1;
  });
  return sets;
}

const ID_SCHEMA = { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH };

function attributeRow(
  name: Name,
  description: string,
  example: string[],
  select: (ids: string[], lists: SnapshotLists) => ShowtimeSelection,
): FilterRow<ShowtimeSelection> {
  return {
    key: name,
    names: [name],
    splitBeforeDecoding: true,
    parse: (values) => {
      const raw = values.get(name);
      return raw === undefined ? undefined : parseAttributeIds(raw, name);
    },
    checkKnown: (ids: string[], lists) => checkKnownIds(name, ids, lists),
    // A set: the order they were listed in does not change the page.
    bind: (ids: string[]) => [...ids].sort(),
    openapi: [
      {
        component: name,
        parameter: {
          name,
          in: "query",
          description:
            `${description} 1 to ${MAX_ATTRIBUTE_FILTER} attribute ids, comma-separated. Ids are ` +
            "percent-decoded after splitting on literal commas (an id holding a comma is sent as `%2C`). A " +
            "repeated id or an empty item is a 400, and so is an id that is not in `/v1/attributes` (ids are " +
            "case-sensitive): its message names the nearest known ids.",
          // An array sent as form, not exploded: its items joined by literal commas, each percent-encoded,
          // which is how the API splits it (OpenAPI 3.1 §4.8.12.4), so the bounds below are the parser's.
          schema: { type: "array", items: ID_SCHEMA, minItems: 1, maxItems: MAX_ATTRIBUTE_FILTER, uniqueItems: true },
          style: "form",
          explode: false,
          example,
        },
      },
    ],
    client: name,
    select,
  };
}

export const attributeIdsParameter = attributeRow(
  "attributeIds",
  "Only showtimes having **all** of these attributes:",
  ["format-imax", "lang-en"],
  (ids, lists) => ({ sets: lists.setsHolding(ids) }),
);

export const anyAttributeIdsParameter = attributeRow(
  "anyAttributeIds",
  "Only showtimes having **at least one** of these attributes (with `attributeIds`, all of those too):",
  ["format-imax", "format-dolby-cinema"],
  (ids, lists) => ({ sets: setsHoldingAny(lists, ids) }),
);
