/** Each cinema's chain (layout/sections.ts CHAIN_SECTIONS), resident once the chainId filter first needs it. */
import { CHAIN_SECTIONS } from "../layout/sections.js";
import { Dictionary } from "../primitives/dictionary.js";
import { SnapshotError } from "../primitives/errors.js";
import type { PagedFile } from "../primitives/paged-file.js";
import { lowerBound } from "../primitives/search.js";

export class CinemaChains {
  private readonly chains: Dictionary;
  private readonly byCinema: Uint32Array;

  constructor(index: PagedFile, cinemaCount: number) {
    this.chains = new Dictionary(index.readSection(CHAIN_SECTIONS.chains));
    this.byCinema = index.readUint32Section(CHAIN_SECTIONS.cinemaChains);
    if (this.byCinema.length !== cinemaCount)
      throw new SnapshotError(index.file.name, "its chains do not match the cinemas");
    for (const code of this.byCinema)
      if (code > this.chains.count)
        throw new SnapshotError(index.file.name, "a cinema names a chain that is not listed");
  }

  /** The cinemas (indexes, ascending) of the chain with this id: none when no cinema has it. */
  cinemasOf(chainId: string): number[] {
    const n = this.chains.count;
    const at = lowerBound(n, (i) => this.chains.text(i) >= chainId);
    if (at === n || this.chains.text(at) !== chainId) return [];
    const found: number[] = [];
    for (let c = 0; c < this.byCinema.length; c++) if (this.byCinema[c] === at + 1) found.push(c);
    return found;
  }
}
