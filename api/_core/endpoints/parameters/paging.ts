/** The paging parameters every list takes (spec §4.1): `cursor` and `limit`. */
import { type CursorPayload, decodeCursor, MAX_CURSOR_LENGTH } from "../../tokens/cursor.js";
import { badParameter } from "../../respond/errors.js";
import type { Parameter, PlainRow } from "./parameter.js";

/** Spec §4.1: a page holds 1..100 records, 25 when `limit` is absent. */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** The query fields paging fills: every list's parsed query has them. */
export interface Paging {
  limit: number;
  cursor?: CursorPayload;
}

/** `cursor`: a nextCursor this API issued, unaltered; whether it fits the filters is checked once they are known. */
export const cursorParameter: PlainRow = {
  key: "cursor",
  names: ["cursor"],
  parse(values) {
    const token = values.get("cursor");
    if (token === undefined) return undefined;
    const cursor = decodeCursor(token);
    if (!cursor) throw badParameter("cursor", "is not a cursor this API issued; pass nextCursor back unchanged");
    return cursor;
  },
  bind: null,
  openapi: [
    {
      component: "cursor",
      parameter: {
        name: "cursor",
        in: "query",
        description:
          "The `nextCursor` of the previous page, unchanged. Opaque and integrity-checked: an altered cursor, or one " +
          "reused on another endpoint or with other filters, is a 400. `limit` may change between pages. A cursor " +
          "names the last record it served, so it keeps working across data updates.",
        schema: { type: "string", minLength: 1, maxLength: MAX_CURSOR_LENGTH },
      },
    },
  ],
  client: "cursor",
  select: null,
};

/** `limit`: a whole number from 1 to `max` in plain decimal digits; `fallback` when absent (spec §4.1: 1..100, 25). */
export function limitParameter(max: number, fallback: number, component = "limit"): PlainRow {
  return {
    key: "limit",
    names: ["limit"],
    parse(values) {
      const value = values.get("limit");
      if (value === undefined) return fallback;
      if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max)
        throw badParameter("limit", `must be a whole number from 1 to ${max} written in digits`);
      return Number(value);
    },
    bind: null,
    openapi: [
      {
        component,
        parameter: {
          name: "limit",
          in: "query",
          description:
            `Page size: a whole number from 1 to ${max} in plain decimal digits ` +
            `(\`0\`, \`${max + 1}\`, \`1.5\`, \`1e1\`, \`-1\` are 400s). Default ${fallback}.`,
          schema: { type: "integer", minimum: 1, maximum: max, default: fallback },
        },
      },
    ],
    client: "limit",
    select: null,
  };
}

/** Films and attributes take paging only (spec §4.5, §4.7). */
export const PAGING_PARAMETERS: readonly Parameter[] = [limitParameter(MAX_LIMIT, DEFAULT_LIMIT), cursorParameter];
