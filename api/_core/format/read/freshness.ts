/**
 * Freshness of a page (decision: freshness): the earliest provenance.observedAt and the latest
 * provenance.sourceUpdatedAt among its records, compared as instants; the first record wins a tie.
 * Instants are compared by rank (equal instants, equal ranks) and shown as written in the source.
 */
/** Texts by code: a dictionary, or the fragments rendering keeps of it. */
export interface TextTable {
  text(i: number): string;
}
import type { Freshness } from "../layout/manifest.js";

export interface TimeDictionary {
  dictionary: TextTable;
  ranks: Int32Array;
}

export class FreshnessFold {
  private observed = -1;
  private updated = -1;

  constructor(
    private readonly observedTimes: TimeDictionary,
    private readonly updatedTimes: TimeDictionary,
  ) {}

  /** Folds in one record's codes (-1: the record has none). */
  add(observed: number, updated: number): void {
    const o = this.observedTimes.ranks;
    if (observed >= 0 && (this.observed < 0 || o[observed]! < o[this.observed]!)) this.observed = observed;
    const u = this.updatedTimes.ranks;
    if (updated >= 0 && (this.updated < 0 || u[updated]! > u[this.updated]!)) this.updated = updated;
  }

  /** The fold so far, to go back to when a record written is taken back (a page over its size). */
  save(): [number, number] {
    return [this.observed, this.updated];
  }

  restore([observed, updated]: [number, number]): void {
    this.observed = observed;
    this.updated = updated;
  }

  /** The folded freshness, or `fallback` when no record carried provenance. */
  result(fallback: Freshness): Freshness {
    if (this.observed < 0) return fallback;
    const observedAt = this.observedTimes.dictionary.text(this.observed);
    return this.updated < 0
      ? { observedAt }
      : { observedAt, sourceUpdatedAt: this.updatedTimes.dictionary.text(this.updated) };
  }
}
