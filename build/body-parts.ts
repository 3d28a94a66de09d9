/** A precomputed body as the build sends it to be encoded: text, and record handles into the arena. */
import { encodeBodyFile } from "../api/_core/body-file.js";
import { joinBodyParts } from "../api/_core/render-body.js";
import type { RecordArena } from "./record-arena.js";

/** Literal text, or the handle of a record in the arena. */
export type BodyPart = string | number;

/** The body file (entity tag, then gzip) of the body the parts spell. */
export function encodeParts(parts: readonly BodyPart[], arena: RecordArena, level: number): Buffer {
  return encodeBodyFile(joinBodyParts(parts.map((part) => (typeof part === "number" ? arena.bytes(part) : part))), level);
}
