/**
 * Name search (decision: name search): the records whose every query word is the start of one of
 * their words, each with its rank: 0 when its name is the query (word for word), 1 when its name
 * starts with the query, 2 otherwise.
 */
import type { NameIndex } from "../read/name-index.js";

/** A search as parsed: its folded words (layout/name-words.ts) and them joined by single spaces. */
export interface NameQuery {
  words: readonly string[];
  key: string;
}

export const WHOLE_NAME = 0;
export const NAME_STARTS = 1;
export const ELSEWHERE = 2;

/** Records (indexes) matching `query`, each with its rank. */
export function searchNames(index: NameIndex, query: NameQuery): Map<number, number> {
  const lists = [...new Set(query.words)].map((word) => index.recordsWithPrefix(word));
  lists.sort((a, b) => a.length - b.length);
  let found: ArrayLike<number> = lists[0] ?? [];
  for (const list of lists.slice(1)) {
    const other = new Set(list);
    found = Array.from(found).filter((record) => other.has(record));
  }
  const ranks = new Map<number, number>();
  for (let i = 0; i < found.length; i++) {
    const key = index.nameKey(found[i]!);
    ranks.set(found[i]!, key === query.key ? WHOLE_NAME : key.startsWith(query.key) ? NAME_STARTS : ELSEWHERE);
  }
  return ranks;
}
