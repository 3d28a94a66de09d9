/**
 * Name search (decision: name search): the records whose every query word is the start of one of
 * their words, each with its rank: 0 when its name is the query (word for word), 1 when its name
 * starts with the query, 2 otherwise. Marks in arrays as long as the records, not sets: a short
 * query word matches thousands of words.
 */
import type { NameIndex } from "../read/name-index.js";

/** A search as parsed: its folded words (layout/name-words.ts) and them joined by single spaces. */
export interface NameQuery {
  words: readonly string[];
  key: string;
}

/** A record's rank plus one in `searchNames`' answer; 0: it does not match. */
export const NO_MATCH = 0;
const WHOLE_NAME = 1;
const NAME_STARTS = 2;
const ELSEWHERE = 3;

/** Per record: NO_MATCH, or its rank plus one (name-search ranks 0, 1, 2). */
export function searchNames(index: NameIndex, query: NameQuery): Uint8Array {
  const n = index.recordCount;
  let hits: Uint8Array | undefined;
  for (const word of new Set(query.words)) {
    const marks = new Uint8Array(n);
    index.markPrefix(word, marks);
    if (hits) for (let i = 0; i < n; i++) hits[i]! &= marks[i]!;
    else hits = marks;
  }
  const ranks = hits ?? new Uint8Array(n);
  for (let i = 0; i < n; i++) if (ranks[i]) ranks[i] = ELSEWHERE;
  // A name that starts with the query's words has each of them at the start of one of its words.
  const { lo, equalEnd, hi } = index.namesStartingWith(query.key);
  for (let i = lo; i < hi; i++) ranks[index.byName[i]!] = i < equalEnd ? WHOLE_NAME : NAME_STARTS;
  return ranks;
}
