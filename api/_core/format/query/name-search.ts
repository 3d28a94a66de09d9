/**
 * Name search (decision: name search): the records whose every query word is the start of one of
 * their words, each with its rank: 0 when its name is the query (word for word), 1 when its name
 * starts with the query, 2 otherwise. When no record matches, near spellings (near-spelling.ts): rank 2
 * plus the edits. Marks in arrays as long as the records, not sets: a short query word matches
 * thousands of words.
 */
import type { NameIndex } from "../read/name-index.js";
import { nearEdits } from "./near-spelling.js";

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

/** The first rank of a near spelling (decision: name search): 2 plus its edits, at least one. */
export const NEAR_RANK = 3;

/** What a list of near spellings adds to its envelope (compose-page.ts). */
export const NAME_MATCH_NEAR = ',"nameMatch":"near"';

/** Whether a rank is a near spelling's: a list of them says so in its envelope. */
export function isNearRank(rank: number | undefined): boolean {
  return rank !== undefined && rank >= NEAR_RANK;
}

/** The records a search finds, each once, in no set order, with each one's rank plus one (as searchNames'). */
export interface NameMatches {
  records: readonly number[];
  ranks: readonly number[];
}

/**
 * The records a search finds and their ranks, its work the postings of the query's words rather
 * than the records: what a search of many records that finds few needs (the places; decision: places).
 */
export function matchNames(index: NameIndex, query: NameQuery): NameMatches {
  const ranges = new Map([...new Set(query.words)].map((word) => [word, index.prefixRange(word)]));
  // A word that starts no word at all: no name has every word, and the others need not be marked.
  const records = [...ranges.values()].some(({ lo, hi }) => lo === hi) ? [] : index.recordsInAll([...ranges.values()]);
  if (records.length === 0) {
    const near = nearEdits(index, query.words, ranges);
    // No record has every word as typed, so each has at least one edit: ranks 3 and on, never the exact ones.
    return { records: near.records, ranks: near.edits.map((edits) => ELSEWHERE + edits) };
  }
  // A name that starts with the query's words has each of them at the start of one of its words.
  const { lo, equalEnd, hi } = index.namesStartingWith(query.key);
  const ranks = records.map((record) => {
    const at = index.namePlace[record]!;
    return at < lo || at >= hi ? ELSEWHERE : at < equalEnd ? WHOLE_NAME : NAME_STARTS;
  });
  return { records, ranks };
}

/** Per record: NO_MATCH, or its rank plus one (0, 1, 2 as typed; NEAR_RANK and on for near spellings). */
export function searchNames(index: NameIndex, query: NameQuery): Uint8Array {
  const { records, ranks } = matchNames(index, query);
  const all = new Uint8Array(index.recordCount);
  records.forEach((record, k) => (all[record] = ranks[k]!));
  return all;
}
