/**
 * `date` and `dayStartsAt` (decision: local dates): showtimes that start on a calendar date at
 * their cinema, in its time zone (or, at a cinema without one, in the offset their startsAt is
 * written with), the day starting at `dayStartsAt` (00:00 to 05:59, default 00:00) for the cinema
 * day, in which a 01:00 show belongs to the evening before.
 */
import { badParameter } from "../../respond/errors.js";
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import { checkDate } from "../../format/primitives/date-time.js";
import { DATE_PATTERN } from "../../format/primitives/date-time-patterns.js";
import type { FilterRow } from "./parameter.js";
import { DAY_STARTS_AT_PATTERN } from "./value-patterns.js";

const DAY_STARTS_AT = new RegExp(DAY_STARTS_AT_PATTERN);

export const dateParameter: FilterRow<ShowtimeSelection> = {
  key: "date",
  names: ["date"],
  parse(values) {
    const value = values.get("date");
    if (value === undefined) return undefined;
    const reason = checkDate(value);
    if (reason)
      throw badParameter(
        "date",
        `must be a calendar date YYYY-MM-DD (${reason}): received ${JSON.stringify(value.slice(0, 40))}`,
      );
    return value;
  },
  bind: (date: string) => date,
  openapi: [
    {
      component: "date",
      parameter: {
        name: "date",
        in: "query",
        description:
          "Only showtimes that start on this calendar date at their cinema: in the cinema's `location.timeZone`, or, " +
          "for a cinema without one, in the offset its `startsAt` is written with. With `dayStartsAt` the day starts " +
          "later (the cinema day). Combines with every filter; with `startsAfter`/`startsBefore` it narrows further.",
        // The pattern states the calendar too, for tools that take `format` as a mere annotation.
        schema: { type: "string", format: "date", pattern: DATE_PATTERN },
        example: "2026-11-27",
      },
    },
  ],
  client: "date",
  select: (date: string) => ({ date }),
};

/** Minutes after midnight of an `HH:MM` from 00:00 to 05:59. */
function minutesOf(value: string): number {
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(3));
}

export const dayStartsAtParameter: FilterRow<ShowtimeSelection> = {
  key: "dayStartsAt",
  names: ["dayStartsAt"],
  parse(values) {
    const value = values.get("dayStartsAt");
    if (value === undefined) return undefined;
    if (!values.has("date")) throw badParameter("dayStartsAt", "is given without date; send date=YYYY-MM-DD too");
    if (!DAY_STARTS_AT.test(value))
      throw badParameter("dayStartsAt", "must be a time HH:MM from 00:00 to 05:59, such as 03:00");
    return minutesOf(value);
  },
  // The default start binds nothing: date=D and date=D&dayStartsAt=00:00 are the same pages.
  bind: (minutes: number) => (minutes === 0 ? undefined : minutes),
  openapi: [
    {
      component: "dayStartsAt",
      parameter: {
        name: "dayStartsAt",
        in: "query",
        description:
          "When the `date` begins at the cinema, `HH:MM` from `00:00` to `05:59` (default `00:00`): with " +
          "`03:00`, a show " +
          "at 01:00 belongs to the evening before, as cinemas list it. Only with `date`: without `date` it is a 400.",
        schema: { type: "string", pattern: DAY_STARTS_AT_PATTERN, default: "00:00" },
        example: "03:00",
      },
    },
  ],
  client: "dayStartsAt",
  select: (minutes: number) => ({ dayStartMinutes: minutes }),
};
