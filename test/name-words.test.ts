/**
 * The words of a name (format/layout/name-words.ts; decision: name search), case by case: what each
 * folds to, and the words of titles in scripts without spaces, pinned. The suite runs on every
 * Node.js line the project supports, so a line whose Intl segmented these titles otherwise (and
 * would build another word index) fails here.
 */
import { describe, expect, test } from "vitest";
import { foldWord, indexWordsOf, nameKeyOf, wordsOf } from "../api/_core/format/layout/name-words.js";

describe("a word is folded", () => {
  test.each([
    ["Köln", "koln", "an umlaut dropped"],
    ["Amélie", "amelie", "an acute accent"],
    ["ÉCOLE", "ecole", "an accent on a capital"],
    ["Straße", "strasse", "ß as ss"],
    ["Ørsted", "orsted", "ø, which does not decompose"],
    ["Łódź", "lodz", "ł and accents"],
    ["Đà", "da", "đ"],
    ["Þór", "thor", "þ as th"],
    ["Æon", "aeon", "æ as ae"],
    ["ﬁlm", "film", "a ligature decomposed"],
    ["ＡＢＣ", "abc", "full-width letters"],
    ["Ⅻ", "xii", "a Roman numeral"],
    ["x²", "x2", "a superscript digit"],
    ["don't", "dont", "an apostrophe dropped"],
    ["L’Odyssée", "lodyssee", "a typographic apostrophe"],
    ["Ἀθῆναι", "αθηναι", "Greek breathings and accents"],
    ["Ёлка", "елка", "Cyrillic ё"],
    ["İstanbul", "istanbul", "a dotted capital I"],
    ["สวัสดี", "สวัสดี", "Thai vowel marks kept: they are letters, not accents"],
    ["नमस्ते", "नमस्ते", "Devanagari signs kept"],
  ])("%s is %s (%s)", (word, folded) => {
    expect(foldWord(word)).toBe(folded);
  });
});

describe("the words of a name", () => {
  test.each([
    ["Dune: Part Two", ["dune", "part", "two"]],
    ["spider-man 2", ["spider", "man", "2"]],
    ["千と千尋の神隠し", ["千", "と", "千尋", "の", "神隠し"]],
    ["となりのトトロ", ["となり", "の", "トトロ"]],
    ["ภาพยนตร์ สวัสดีครับ", ["ภาพยนตร์", "สวัสดี", "ครับ"]],
    ["  !?  ", []],
  ])("%s", (name, words) => {
    expect(wordsOf(name)).toEqual(words);
  });

  test("a name is found by the parts its apostrophes join, each word once", () => {
    expect(indexWordsOf("L'Odyssée de l'espace")).toEqual(["lodyssee", "l", "odyssee", "de", "lespace", "espace"]);
  });

  test("a name's key is its words, single spaces between", () => {
    expect(nameKeyOf("  Dune:   Part  Two! ")).toBe("dune part two");
  });
});
