/**
 * Name search's word index (layout/sections.ts searchSections; decision: name search): every word a
 * film's title, or a cinema's name and locality, is found by, ascending, each with the records that
 * have it; and each record's name key, what whole-name and starts-with matches compare. Cinemas
 * also get their chains (CHAIN_SECTIONS), which the chainId filter reads.
 */
import type { PlainRecord } from "../../api/_core/format/layout/content.js";
import { indexWordsOf, nameKeyOf } from "../../api/_core/format/layout/name-words.js";
import {
  CHAIN_SECTIONS,
  type SearchResource,
  searchSections,
  type WordIndexOwner,
} from "../../api/_core/format/layout/sections.js";
import { ByteWriter } from "../../api/_core/format/primitives/bytes.js";
import { encodeDictionary } from "../../api/_core/format/primitives/dictionary.js";
import { encodePacked } from "../../api/_core/format/primitives/packed.js";

/** The texts a record is found by: the first is its name (the name key's source). */
function namesOf(resource: SearchResource, record: PlainRecord): string[] {
  const json = JSON.parse(Buffer.from(record.json).toString("utf8"));
  return resource === "films" ? [json.title] : [json.name, json.location.locality];
}

export function encodeNames(resource: SearchResource, records: readonly PlainRecord[]): Map<string, Uint8Array> {
  return encodeWordIndex(
    resource,
    records.map((record) => {
      const texts = namesOf(resource, record);
      return { nameKey: nameKeyOf(texts[0]!), words: new Set(texts.flatMap(indexWordsOf)) };
    }),
  );
}

/** A word index of records, each by its name key and the words it is found by (each once). */
export function encodeWordIndex(
  owner: WordIndexOwner,
  records: ReadonlyArray<{ nameKey: string; words: Iterable<string> }>,
): Map<string, Uint8Array> {
  const names = searchSections(owner);
  const postings = new Map<string, number[]>();
  const keys: string[] = [];
  records.forEach((record, i) => {
    keys.push(record.nameKey);
    for (const word of record.words) {
      let list = postings.get(word);
      if (!list) postings.set(word, (list = []));
      list.push(i);
    }
  });
  // JavaScript's string order (UTF-16 code units): the reader's binary search compares the same way.
  const words = [...postings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const starts = new ByteWriter(4 * (words.length + 1));
  const all: number[] = [];
  for (const word of words) {
    starts.u32(all.length);
    for (const record of postings.get(word)!) all.push(record);
  }
  starts.u32(all.length);
  return new Map([
    [names.words, encodeDictionary(words)],
    [names.postings, starts.finish()],
    [names.records, encodePacked(all, Math.max(0, records.length - 1))],
    [names.names, encodeDictionary(keys)],
    [names.byName, encodePacked(byNameOrder(keys), Math.max(0, records.length - 1))],
  ]);
}

/** Record indexes by name key (JavaScript's string order), then by index: the order of titles in a list. */
function byNameOrder(keys: readonly string[]): number[] {
  return keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
}

/** Each cinema's chain id, by a code into the chains' dictionary (ascending ids) plus one; 0 when it has none. */
export function encodeChains(cinemas: readonly PlainRecord[]): Map<string, Uint8Array> {
  const chainOf = cinemas.map((c) => JSON.parse(Buffer.from(c.json).toString("utf8")).chainId as string | undefined);
  const chains = [...new Set(chainOf.filter((id) => id !== undefined))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const code = new Map(chains.map((id, i) => [id, i + 1]));
  const byCinema = new ByteWriter(4 * cinemas.length);
  for (const id of chainOf) byCinema.u32(id === undefined ? 0 : code.get(id)!);
  return new Map([
    [CHAIN_SECTIONS.chains, encodeDictionary(chains)],
    [CHAIN_SECTIONS.cinemaChains, byCinema.finish()],
  ]);
}
