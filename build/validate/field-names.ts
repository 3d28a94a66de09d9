/**
 * "Did you mean" for unknown fields: the fields a schema defines at a path, and the one an unknown
 * name most likely misspells (a prefix of it, or within two edits, ignoring case).
 */
import { z } from "zod";

/** The field names of the object a schema describes at `path` (array indexes step into items). */
export function fieldsAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let current: z.ZodType | undefined = schema;
  for (const key of [...path, undefined]) {
    while (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
      current = current.unwrap() as z.ZodType;
    if (key === undefined) break;
    if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else if (current instanceof z.ZodObject) current = (current.shape as Record<string, z.ZodType>)[String(key)];
    else return [];
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known field an unknown name most likely means, or undefined. */
export function closestField(unknown: string, known: readonly string[]): string | undefined {
  const wanted = unknown.toLowerCase();
  if (wanted.length < 2) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const candidate = name.toLowerCase();
    const distance = candidate.startsWith(wanted) || wanted.startsWith(candidate) ? 1 : editDistance(wanted, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
