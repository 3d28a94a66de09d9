/**
 * The changes history a snapshot carries (decision: changes feed), in its own paged file,
 * `history.pages`. A history is a chain of generations: each build that changes what the feed
 * shows is one more; a build that changes nothing keeps the generation (and every token). What a
 * snapshot keeps of it:
 *
 *   history.meta                  JSON (HistoryMeta)
 *   history.<type>.changed        packed, one value per record in store order: the generation it
 *                                 last changed in, minus the horizon (0: at or before it)
 *   history.showtimes.changed.max packed, per CHANGED_CHUNK records: the largest value among them
 *   history.<type>.deletes        text chunks (text-chunks.ts): each deletion as the feed writes
 *                                 it, {"op":"delete","type":…,"id":…[,"cinemaId":…]}, ordered by
 *                                 generation
 *   history.<type>.deletes.at     packed, one value per deletion: its generation minus the horizon
 *
 * Tokens name a generation of a history; a token at or after the horizon can be answered, from
 * the records changed since it and the deletions since it. Deletions at or before the horizon are
 * no longer kept.
 */
export const HISTORY_TYPES = ["attributes", "cinemas", "films", "showtimes"] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];

/** The singular the feed writes as `type`. */
export const SINGULAR: Record<HistoryType, "attribute" | "cinema" | "film" | "showtime"> = {
  attributes: "attribute",
  cinemas: "cinema",
  films: "film",
  showtimes: "showtime",
};

/** Records per entry of the showtimes' summary of changes: a page of changes skips the unchanged 64 at a time. */
export const CHANGED_CHUNK = 64;

export interface HistoryMeta {
  /** Names the chain: 32 hex digits, a digest of the build that began it. */
  id: string;
  generation: number;
  /** The oldest generation a token may name: every change after it is kept. */
  horizon: number;
  /** How much is kept: at least this many generations back, and at least this many days. */
  keep: { generations: number; days: number };
  /** When each kept generation was built (epoch seconds), oldest first, for the days rule. */
  builtAt: Array<[generation: number, epochSeconds: number]>;
}

export const historySections = (type: HistoryType) => ({
  changed: `history.${type}.changed`,
  deletes: `history.${type}.deletes`,
  deletesAt: `history.${type}.deletes.at`,
});
export const HISTORY_META = "history.meta";
export const SHOWTIMES_CHANGED_MAX = "history.showtimes.changed.max";

/** What the manifest says of the history: which chain and how far along (operators and tools read it). */
export interface HistoryFacts {
  id: string;
  generation: number;
}

/** Checks a history meta object as read; returns a reason when it is not one. */
export function checkHistoryMeta(value: unknown): string | undefined {
  const m = value as Partial<HistoryMeta> | null;
  if (m === null || typeof m !== "object") return "is not an object";
  if (typeof m.id !== "string" || !/^[0-9a-f]{32}$/.test(m.id)) return "has no id";
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  if (!count(m.generation) || !count(m.horizon) || m.horizon! > m.generation!) return "has no generation";
  if (!m.keep || !count(m.keep.generations) || !count(m.keep.days)) return "says nothing of what it keeps";
  if (
    !Array.isArray(m.builtAt) ||
    !m.builtAt.every((e) => Array.isArray(e) && count(e[0]) && Number.isSafeInteger(e[1]))
  )
    return "has no build times";
  return undefined;
}
