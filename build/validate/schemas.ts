/**
 * Zod schemas of the source records: exactly the API shapes of spec 2.2–2.5.
 * They validate the data at build time and are the source of the OpenAPI document.
 */
import { z } from "zod";
import { checkDate, DateTimeMemo } from "../../api/_core/format/primitives/date-time.js";
import {
  type FieldShape,
  ID_LENGTH,
  MAX_URL_LENGTH,
  PROVENANCE_FIELDS,
  SHOWTIME_FIELDS,
} from "../../api/_core/format/layout/showtime-fields.js";
import { COUNTRY_CODE_PATTERN, COUNTRY_CODE_RULE } from "../../api/_core/format/layout/market-rules.js";
import { codePointLength } from "../../api/_core/respond/text.js";
import { isKnownTimeZone } from "../localize/zone-offsets.js";

/** Feeds repeat the same times millions of times: validated once per text (bounded in bytes). */
const dateTimes = new DateTimeMemo();

export const MAX_DURATION_MINUTES = 1000;
export const ATTRIBUTE_KINDS = ["accessibility", "event", "format", "language"] as const;

/** A string whose length in code points lies in [min, max] (spec lengths count characters). */
export function text(min: number, max: number) {
  return z
    .string()
    .check((ctx) => {
      const length = codePointLength(ctx.value);
      if (length < min || length > max) {
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: `must be ${min}..${max} characters long (got ${length})`,
          params: { rule: "length" },
        });
      }
    })
    .meta({ minLength: min, maxLength: max });
}

export const dateTime = z
  .string()
  .check((ctx) => {
    const result = dateTimes.check(ctx.value);
    if (!result.ok) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: `is not a valid date-time (${result.reason})` });
    }
  })
  .meta({ format: "date-time", description: "RFC 3339 date-time; seconds optional; zone Z or ±hh:mm required" });

export const calendarDate = z
  .string()
  .check((ctx) => {
    const reason = checkDate(ctx.value);
    if (reason) ctx.issues.push({ code: "custom", input: ctx.value, message: `is not a valid date (${reason})` });
  })
  .meta({ format: "date" });

/**
 * An IANA time zone the runtime's database knows (decision: time zones). A cinema without one gets
 * one derived from its coordinates or its country when the build can.
 */
export const timeZone = z
  .string()
  .check((ctx) => {
    if (!isKnownTimeZone(ctx.value)) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: "is not a time zone of the IANA database (an Area/Location name such as Europe/Berlin)",
      });
    }
  })
  .meta({
    description:
      "The cinema's IANA time zone, by its primary name (e.g. `Europe/Berlin`; `Asia/Kolkata`, never the " +
      "older `Asia/Calcutta`): given by the source, or derived from its coordinates or its country; absent " +
      "when neither tells.",
  });

/**
 * Absolute http(s) URL: what a client can actually open, of a length every browser and proxy takes (decision:
 * validation of source data).
 */
export const httpUrl = z
  .string()
  .check((ctx) => {
    if (!isHttpUrl(ctx.value)) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: "must be an absolute http or https URL in ASCII (percent-encode other characters)",
      });
    } else if (ctx.value.length > MAX_URL_LENGTH) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `must be at most ${MAX_URL_LENGTH} characters long (got ${ctx.value.length})`,
      });
    }
  })
  .meta({ format: "uri", maxLength: MAX_URL_LENGTH });

function isHttpUrl(value: string): boolean {
  // The WHATWG parser repairs "https:example.com" and "http:\\x"; stored text must already be absolute.
  // RFC 3986 URIs are printable ASCII: other characters must arrive percent-encoded.
  if (!/^[\x21-\x7e]+$/.test(value) || !/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const id = text(ID_LENGTH.min, ID_LENGTH.max);

/** Ids listed at most once each, at most `max` of them (attributeIds). */
function idList(max: number) {
  return z
    .array(id)
    .max(max, { message: `must have at most ${max} items` })
    .refine((ids) => new Set(ids).size === ids.length, { message: "must not list the same attribute twice" });
}

/** The zod schema of each field type of a record's shape table. */
type SchemaOf<F extends FieldShape> = {
  id: typeof id;
  dateTime: typeof dateTime;
  url: typeof httpUrl;
  idList: ReturnType<typeof idList>;
  text: ReturnType<typeof text>;
  provenance: typeof provenanceSchema;
}[F["type"]];

type ShapeOf<Fields extends readonly FieldShape[]> = {
  [F in Fields[number] as F["name"]]: F["optional"] extends true ? z.ZodOptional<SchemaOf<F>> : SchemaOf<F>;
};

/**
 * A strict object schema made from a shape table: its fields in the table's order, so JSON.stringify
 * writes them so; a provenance row is `provenance`'s schema.
 */
function objectOf<const Fields extends readonly FieldShape[]>(fields: Fields, provenance?: z.ZodType) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields as readonly FieldShape[]) {
    const schema = schemaOf(field, provenance);
    shape[field.name] = field.optional ? schema.optional() : schema;
  }
  return z.strictObject(shape as ShapeOf<Fields>);
}

function schemaOf(field: FieldShape, provenance: z.ZodType | undefined): z.ZodType {
  switch (field.type) {
    case "id":
      return id;
    case "dateTime":
      return dateTime;
    case "url":
      return httpUrl;
    case "idList":
      return idList(field.max!);
    case "text":
      return text(field.min!, field.max!);
    case "provenance":
      if (!provenance) throw new Error(`${field.name}: a provenance object inside provenance`);
      return provenance;
  }
}

export const provenanceSchema = objectOf(PROVENANCE_FIELDS);

/**
 * Showtimes: derived from their shape table (format/layout/showtime-fields.ts), which the snapshot stores and
 * renders by.
 */
export const showtimeSchema = objectOf(SHOWTIME_FIELDS, provenanceSchema);

/** The validator of a showtime shape table as a validation worker is sent it (build/validate/showtime-shape.ts). */
export function showtimeSchemaOf(fields: readonly FieldShape[], provenance: readonly FieldShape[]): z.ZodType {
  return objectOf(fields, objectOf(provenance));
}

export const locationSchema = z.strictObject({
  // Spec leaves the format open; ISO 3166-1 alpha-2 is what every listings feed uses (README). A
  // market's countries follow the same rule (market-rules.ts), so a cinema's country can name one.
  countryCode: z
    .string()
    .regex(COUNTRY_CODE_PATTERN, { message: COUNTRY_CODE_RULE })
    .meta({ minLength: 2, maxLength: 2 }),
  locality: text(1, 160),
  postcode: text(2, 16),
  address: text(1, 300).optional(),
  latitude: z
    .number()
    .min(-90, { message: "must be between -90 and 90" })
    .max(90, { message: "must be between -90 and 90" })
    .optional(),
  longitude: z
    .number()
    .min(-180, { message: "must be between -180 and 180" })
    .max(180, { message: "must be between -180 and 180" })
    .optional(),
  timeZone: timeZone.optional(),
});

export const cinemaSchema = z.strictObject({
  id,
  chainId: id.optional(),
  name: text(1, 240),
  location: locationSchema,
  provenance: provenanceSchema,
});

export const filmSchema = z.strictObject({
  id,
  title: text(1, 300),
  durationMinutes: z
    .number()
    .int({ message: "must be a whole number of minutes" })
    .min(1, { message: "must be at least 1" })
    .max(MAX_DURATION_MINUTES, { message: `must be at most ${MAX_DURATION_MINUTES}` })
    .optional(),
  certification: text(1, 32).optional(),
  posterUrl: httpUrl.optional(),
  releaseDate: calendarDate.optional(),
  provenance: provenanceSchema,
});

export const attributeSchema = z.strictObject({
  id,
  kind: z.enum(ATTRIBUTE_KINDS, { message: `must be one of ${ATTRIBUTE_KINDS.join(", ")}` }),
  name: text(1, 120),
  description: text(0, 500).optional(),
});

export type Provenance = z.infer<typeof provenanceSchema>;
export type Showtime = z.infer<typeof showtimeSchema>;
export type Cinema = z.infer<typeof cinemaSchema>;
export type Film = z.infer<typeof filmSchema>;
export type Attribute = z.infer<typeof attributeSchema>;

export const RESOURCES = ["cinemas", "films", "showtimes", "attributes"] as const;
export type Resource = (typeof RESOURCES)[number];

export const SCHEMAS = {
  cinemas: cinemaSchema,
  films: filmSchema,
  showtimes: showtimeSchema,
  attributes: attributeSchema,
} as const;
