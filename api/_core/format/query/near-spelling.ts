/**
 * Near spellings (decision: name search): when no name has every word of `q` as the start of one of
 * its words, each query word may instead be a misspelling, within a few edits (edit-distance.ts) of
 * a whole word, or of the start of a word for the query's last word (a search box's word still being
 * typed); a word spelt right as a start still costs nothing. Every word of the index is looked at:
 * its length and the set of its letters reject most in a few operations (one loop, one branch a
 * word), whether it keeps enough of the query's characters near their places most of the rest
 * (edit-distance.ts), the edit distance measures what is left. The records are then found from the
 * postings of the words found (name-index.ts recordsNearAll), not by going through every record.
 * Sets of a word's first letters rejected more words but cost as much as they saved; a trie walk
 * over the sorted words prunes little before the third character with two edits allowed, and
 * branches at almost every word in Chinese and Japanese, whose words are one or two characters.
 */
import type { Dictionary } from "../primitives/dictionary.js";
import { byteLength, codeAt, letterBit, NearWord } from "./edit-distance.js";
import type { CostedRange, NameIndex, WordRange } from "../read/name-index.js";

/**
 * Per word of an index: its length in code points (at most 255), the set of its letters, each a bit
 * (letterBit), and the set of its first START letters; and room to list the words a search measures.
 * Made on the first near search of an index and kept with it: 13 bytes a word.
 */
interface Vocabulary {
  lengths: Uint8Array;
  letters: Uint32Array;
  starts: Uint32Array;
  /** Where a search lists the words it measures (candidatesOf): one per word at most. */
  candidates: Int32Array;
}

/**
 * A start within reach of a query word of m characters has at most m + maxEdits: up to 8, most words'
 * first letters.
 */
const START = 8;

const vocabularies = new WeakMap<NameIndex, Vocabulary>();

function vocabularyOf(index: NameIndex): Vocabulary {
  let vocabulary = vocabularies.get(index);
  if (!vocabulary) vocabularies.set(index, (vocabulary = describeWords(index.wordDictionary)));
  return vocabulary;
}

function describeWords({ bytes, offsets, count }: Dictionary): Vocabulary {
  const lengths = new Uint8Array(count);
  const letters = new Uint32Array(count);
  const starts = new Uint32Array(count);
  for (let w = 0; w < count; w++) {
    let [length, set] = [0, 0];
    for (let p = offsets[w]!, end = offsets[w + 1]!; p < end; p += byteLength(bytes[p]!)) {
      set |= letterBit(codeAt(bytes, p));
      if (++length <= START) starts[w] = set;
    }
    lengths[w] = Math.min(length, 255);
    letters[w] = set;
  }
  return { lengths, letters, starts, candidates: new Int32Array(count) };
}

/**
 * The index words `word` may be within reach of, into `out` (its first n, n returned): one loop
 * over the vocabulary's arrays, a few operations a word and no call. Its length must be within
 * reach, and each edit loses at most one of the query's letters and brings at most one it lacks
 * (counted on a whole word only: a start may be shorter).
 */
function candidatesOf({ lengths, letters, starts }: Vocabulary, word: NearWord, out: Int32Array): number {
  const count = lengths.length;
  const minLength = word.minLength;
  const maxLength = Math.min(word.maxLength, 255);
  const k = word.maxEdits;
  const wanted = word.letters;
  const foreign = word.asStart ? 0 : ~wanted;
  // The query's letters lie in the start it is near: in the first START letters when that is as long.
  const held = word.asStart && word.codes.length + k <= START ? starts : letters;
  let n = 0;
  for (let w = 0; w < count; w++) {
    // Plain variables, no destructuring: this loop runs once per word of the index.
    const length = lengths[w]!;
    let missing = wanted & ~held[w]!;
    let extra = letters[w]! & foreign;
    // k is 1 or 2: drop that many of each, and any left is one letter too many.
    missing &= missing - 1;
    extra &= extra - 1;
    if (k === 2) {
      missing &= missing - 1;
      extra &= extra - 1;
    }
    // Both tests in one number, one branch (rarely taken) a word: the sign of a length out of
    // reach, and the letters left over.
    const outside = (length - minLength) | (maxLength - length);
    if (((outside & 0x8000_0000) | missing | extra) === 0) out[n++] = w;
  }
  return n;
}

/**
 * The words `word` finds, each with its edits: 0 for the words it starts (as exact search finds
 * them), else those within its reach; none when it finds none.
 */
function nearWords(index: NameIndex, word: NearWord, range: WordRange = index.prefixRange(word.text)): CostedRange[] {
  const { lo, hi } = range;
  const found: CostedRange[] = lo < hi ? [{ lo, hi, cost: 0 }] : [];
  if (word.maxEdits === 0) return found;
  const vocabulary = vocabularyOf(index);
  const { bytes, offsets } = index.wordDictionary;
  const candidates = vocabulary.candidates;
  for (let c = 0, n = candidatesOf(vocabulary, word, candidates); c < n; c++) {
    const w = candidates[c]!;
    // The words it starts cost nothing, and are found so.
    if (w >= lo && w < hi) continue;
    const cost = word.editsTo(bytes, offsets[w]!, offsets[w + 1]!);
    if (cost <= word.maxEdits) found.push({ lo: w, hi: w + 1, cost });
  }
  return found;
}

/** The records a search finds by near spellings, in no set order, and each one's edits. */
export interface NearMatches {
  records: number[];
  edits: number[];
}

/**
 * The records where every distinct word of `words` finds one of their words (the last word as a
 * start), each with the fewest edits in all that takes. `ranges`: the words each starts, when known.
 */
export function nearEdits(
  index: NameIndex,
  words: readonly string[],
  ranges?: ReadonlyMap<string, WordRange>,
): NearMatches {
  const last = words.at(-1);
  const groups: CostedRange[][] = [];
  for (const text of new Set(words)) {
    const group = nearWords(index, new NearWord(text, text === last), ranges?.get(text));
    if (group.length === 0) return { records: [], edits: [] };
    groups.push(group);
  }
  const { records, costs } = index.recordsNearAll(groups);
  return { records, edits: costs };
}
