/**
 * A showtime record as the API serves it (decision: showtime ends): the source's record (spec 2.2,
 * validated by build/validate/schemas.ts, which refuses `endsAt` in a source), with `endsAt` right
 * after `startsAt` where its film has a running time, as the snapshot's renderer writes it
 * (layout/showtime-fields.ts ENDS_AT).
 */
import { z } from "zod";
import { ENDS_AT } from "../../api/_core/format/layout/showtime-fields.js";
import { dateTime, showtimeSchema } from "../validate/schemas.js";

type Shape = typeof showtimeSchema.shape;

/** The source's fields in their order, `endsAt` after the one it follows. */
function withEnd(shape: Shape): Shape & { [ENDS_AT.name]: z.ZodOptional<typeof dateTime> } {
  if (!(ENDS_AT.after in shape)) throw new Error(`the showtime shape has no field ${ENDS_AT.after}`);
  const fields = Object.entries(shape).flatMap(
    ([name, schema]): Array<[string, z.ZodType]> =>
      name === ENDS_AT.after
        ? [
            [name, schema],
            [ENDS_AT.name, dateTime.optional()],
          ]
        : [[name, schema]],
  );
  return Object.fromEntries(fields) as Shape & { [ENDS_AT.name]: z.ZodOptional<typeof dateTime> };
}

export const showtimeRecordSchema = z.strictObject(withEnd(showtimeSchema.shape));
