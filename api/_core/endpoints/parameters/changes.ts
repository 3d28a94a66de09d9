/** The parameters of `GET /v1/changes` (decision: changes feed), in the order they are checked. */
import { badParameter } from "../../respond/errors.js";
import { decodeSyncToken, MAX_TOKEN_LENGTH, type SyncToken } from "../../tokens/sync-token.js";
import { cursorParameter, limitParameter, type Paging } from "./paging.js";
import type { Parameter, PlainRow } from "./parameter.js";

/** A page of the feed holds up to 5,000 changes, 1,000 when `limit` is absent. */
export const MAX_CHANGES_LIMIT = 5000;
export const DEFAULT_CHANGES_LIMIT = 1000;

export interface ChangesQuery extends Paging {
  /** The token as sent (the page's cursor is bound to it) and what it names. */
  since?: { text: string; token: SyncToken };
}

const sinceParameter: PlainRow = {
  key: "since",
  names: ["since"],
  parse(values) {
    const text = values.get("since");
    if (text === undefined) return undefined;
    const token = decodeSyncToken(text);
    if (!token)
      throw badParameter("since", "is not a sync token this API issued; pass the syncToken of a last page unchanged");
    return { text, token };
  },
  bind: (since: { text: string }) => since.text,
  openapi: [
    {
      component: "since",
      parameter: {
        name: "since",
        in: "query",
        description:
          "The `syncToken` of the last page of an earlier sync, unchanged: the changes since then. Absent: " +
          "a full copy, " +
          "every record as an upsert. A token older than the history the service keeps (at least the last " +
          "30 snapshots " +
          "and 7 days), or of a history that began afresh, is a 410 whose `details.restart` is " +
          "`/v1/changes`: start a " +
          "full copy. An altered token is a 400.",
        schema: { type: "string", minLength: 1, maxLength: MAX_TOKEN_LENGTH },
      },
    },
  ],
  client: "since",
  select: null,
};

/** The feed's limit binds its cursors: a page's position is counted in changes of that size. */
const changesLimit = limitParameter(MAX_CHANGES_LIMIT, DEFAULT_CHANGES_LIMIT, "changesLimit");

export const CHANGES_PARAMETERS: readonly Parameter[] = [
  sinceParameter,
  { ...changesLimit, bind: (limit: number) => limit },
  cursorParameter,
];
