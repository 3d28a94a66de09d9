/**
 * An open snapshot: its manifest, its stored bodies and every list a page can be composed from.
 * Opening checks the manifest and each data file's footer against it; every block and page is
 * then checked when first read. Any failure is a SnapshotError, which the core answers with 503.
 */
import { readFileSync } from "node:fs";
import { BlockFile } from "../primitives/block-file.js";
import { DiskFile } from "../primitives/disk-file.js";
import { SnapshotError } from "../primitives/errors.js";
import {
  BODIES_FILE,
  BODY_INDEX_FILE,
  HISTORY_FILE,
  INDEX_FILE,
  MANIFEST_FILE,
  RECORDS_FILE,
  resolveInside,
  type DataFile,
} from "../primitives/files.js";
import { parseManifest, type DataFileFacts, type Manifest } from "../layout/manifest.js";
import { PagedFile } from "../primitives/paged-file.js";
import { PlainStore } from "./plain-store.js";
import type { RecordList } from "./record-list.js";
import { SnapshotDictionaries } from "./snapshot-dictionaries.js";
import { SnapshotHistory } from "./snapshot-history.js";
import { SnapshotZones } from "./snapshot-zones.js";
import { CinemaChains } from "./cinema-chains.js";
import { NameIndex } from "./name-index.js";
import { PlaceIndex } from "./place-index.js";
import { ShowtimeDays } from "./showtime-days.js";
import type { SearchResource } from "../layout/sections.js";
import { openShowtimeEnds } from "./showtime-ends.js";
import { ShowtimeStore } from "./showtime-store.js";
import { StoredBodies } from "./stored-bodies.js";
import { LruCache } from "../primitives/lru.js";

export interface CacheBudgets {
  /** Bytes of index pages kept verified in memory. */
  pageBytes: number;
  /** Bytes of showtime blocks kept decoded in memory. */
  blockBytes: number;
}

/** Pages of the history kept: a feed page reads its records' generations a range at a time. */
const HISTORY_CACHE_BYTES = 2 ** 20;

/** Pages of the body index kept: the fan-out and the buckets hot pages fall in. */
const BODY_INDEX_CACHE_BYTES = 2 ** 20;

export const DEFAULT_BUDGETS: CacheBudgets = { pageBytes: 4 * 2 ** 20, blockBytes: 56 * 2 ** 20 };

/** The readers of the index and record files, without the stored bodies (the build renders those from these). */
export class SnapshotLists {
  readonly cinemas: PlainStore;
  readonly films: PlainStore;
  readonly attributes: PlainStore;
  readonly showtimes: ShowtimeStore;
  readonly dictionaries: SnapshotDictionaries;

  private zonesRead: SnapshotZones | undefined;
  private zoneTableRead: SnapshotZones | undefined;
  private daysRead: ShowtimeDays | undefined;
  private chainsRead: CinemaChains | undefined;
  private readonly names: Partial<Record<SearchResource, NameIndex>> = {};
  private placesRead: PlaceIndex | undefined;

  constructor(
    private readonly index: PagedFile,
    records: BlockFile,
    showtimeCount: number,
    budgets: CacheBudgets,
  ) {
    try {
      this.cinemas = new PlainStore(index, "cinemas");
      this.films = new PlainStore(index, "films");
      this.attributes = new PlainStore(index, "attributes");
      this.dictionaries = new SnapshotDictionaries(index, this.cinemas.ids, this.films.ids);
      const ends = openShowtimeEnds(index, this.dictionaries.startsAt, this.films.length, () => this.zoneTable);
      this.showtimes = new ShowtimeStore(index, records, this.dictionaries, budgets.blockBytes, showtimeCount, ends);
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw new SnapshotError(INDEX_FILE, (error as Error).message);
    }
  }

  /** The cinemas' time zones, read on first use (only a local-day filter needs them), checked with the zone lists. */
  get zones(): SnapshotZones {
    if (this.zonesRead) return this.zonesRead;
    try {
      const zones = this.zoneTable;
      if (this.showtimes.zoneKeys !== zones.names.length + 1)
        throw new SnapshotError(INDEX_FILE, "its showtimes by zone do not match its time zones");
      return (this.zonesRead = zones);
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw new SnapshotError(INDEX_FILE, (error as Error).message);
    }
  }

  /** The zone table alone, read on first use: what showtimes' ends read (decision: showtime ends). */
  private get zoneTable(): SnapshotZones {
    return (this.zoneTableRead ??= this.readIndex(() => new SnapshotZones(this.index, this.cinemas.length)));
  }

  /** Each cinema's films per local day, read on first use (only discovery needs them). */
  get days(): ShowtimeDays {
    return (this.daysRead ??= this.readIndex(
      () =>
        new ShowtimeDays(this.index, {
          cinemas: this.cinemas.length,
          films: this.films.length,
          showtimes: this.showtimes.count,
          startCodes: this.dictionaries.startsAt.count,
        }),
    ));
  }

  /** The cinemas' chains, read on first use (only the chainId filter needs them). */
  get chains(): CinemaChains {
    return (this.chainsRead ??= this.readIndex(() => new CinemaChains(this.index, this.cinemas.length)));
  }

  /** A resource's word index, read on first use (only name search needs it). */
  nameIndex(resource: SearchResource): NameIndex {
    return (this.names[resource] ??= this.readIndex(() => new NameIndex(this.index, resource, this[resource].length)));
  }

  /** The places to look up by name, read on first use (only /v1/places needs them; decision: places). */
  get places(): PlaceIndex {
    return (this.placesRead ??= this.readIndex(() => new PlaceIndex(this.index)));
  }

  /** Reads a part of index.pages; whatever fails is a SnapshotError naming it. */
  private readIndex<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw new SnapshotError(INDEX_FILE, (error as Error).message);
    }
  }

  /**
   * Per attribute-set code, 1 when the set holds every one of `attributeIds` (an unknown id: no
   * set does). Thousands of sets, not millions of showtimes, are looked at.
   */
  setsHolding(attributeIds: readonly string[]): Uint8Array {
    const members = this.dictionaries.attributeSetMembers();
    const sets = new Uint8Array(members.length);
    const wanted = attributeIds.map((id) => this.attributes.indexOf(id));
    if (wanted.includes(-1)) return sets;
    members.forEach((held, code) => {
      if (wanted.every((a) => held.includes(a))) sets[code] = 1;
    });
    return sets;
  }

  /** A resource's whole list, in list order (filtered lists are selections: query/). */
  list(resource: "cinemas" | "films" | "attributes" | "showtimes"): RecordList {
    return resource === "showtimes" ? this.showtimes.all() : this[resource];
  }
}

/** Opens the data files a manifest (or a build in progress) names. */
export function openDataFiles(dir: string, files: Partial<Record<DataFile, DataFileFacts>>, budgets: CacheBudgets) {
  const disk = (name: DataFile) => {
    const facts = files[name];
    if (!facts) throw new SnapshotError(name, "is not listed in manifest.json");
    const file = new DiskFile(resolveInside(dir, name), name);
    if (file.size !== facts.bytes) {
      file.close();
      throw new SnapshotError(name, `has ${file.size} bytes, manifest.json says ${facts.bytes}`);
    }
    return { file, digest: facts.digest };
  };
  const opened: DiskFile[] = [];
  const track = <T extends { file: DiskFile; digest: number }>(d: T) => {
    opened.push(d.file);
    return d;
  };
  try {
    const index = track(disk(INDEX_FILE));
    const records = track(disk(RECORDS_FILE));
    const bodies = files[BODIES_FILE] ? track(disk(BODIES_FILE)) : undefined;
    const bodyIndex = files[BODY_INDEX_FILE] ? track(disk(BODY_INDEX_FILE)) : undefined;
    const history = files[HISTORY_FILE] ? track(disk(HISTORY_FILE)) : undefined;
    return {
      index: new PagedFile(index.file, index.digest, new LruCache<number, Uint8Array>(budgets.pageBytes)),
      records: new BlockFile(records.file, records.digest),
      bodies: bodies && new BlockFile(bodies.file, bodies.digest),
      bodyIndex:
        bodyIndex &&
        new PagedFile(bodyIndex.file, bodyIndex.digest, new LruCache<number, Uint8Array>(BODY_INDEX_CACHE_BYTES)),
      history:
        history && new PagedFile(history.file, history.digest, new LruCache<number, Uint8Array>(HISTORY_CACHE_BYTES)),
      close: () => opened.forEach((f) => f.close()),
    };
  } catch (error) {
    opened.forEach((f) => f.close());
    throw error;
  }
}

export class Snapshot {
  readonly bodies: StoredBodies;
  private readonly files: ReturnType<typeof openDataFiles>;
  private opened: SnapshotLists | undefined;
  /** Why the lists could not be read, once that is known: not tried again for this snapshot. */
  private failure: unknown;

  /** Opens every data file and checks each against the manifest; reads nothing else yet. */
  constructor(
    readonly manifest: Manifest,
    dir: string,
    private readonly budgets: CacheBudgets,
  ) {
    this.files = openDataFiles(dir, manifest.files, budgets);
    try {
      this.bodies = new StoredBodies(this.files.bodies!, this.files.bodyIndex!);
    } catch (error) {
      this.files.close();
      throw error;
    }
  }

  /**
   * The lists, read on first use: a stored page needs none of them, so a cold start that serves
   * one reads no dictionary or directory.
   */
  get lists(): SnapshotLists {
    if (this.opened) return this.opened;
    if (this.failure) throw this.failure;
    try {
      const lists = new SnapshotLists(
        this.files.index,
        this.files.records,
        this.manifest.counts.showtimes,
        this.budgets,
      );
      for (const [resource, store] of [
        ["cinemas", lists.cinemas],
        ["films", lists.films],
        ["attributes", lists.attributes],
      ] as const) {
        if (store.length !== this.manifest.counts[resource])
          throw new SnapshotError(
            INDEX_FILE,
            `holds ${store.length} ${resource}, manifest.json says ${this.manifest.counts[resource]}`,
          );
      }
      return (this.opened = lists);
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }

  private historyRead: SnapshotHistory | undefined;

  /** The changes history, read on first use (only the changes feed and the next build need it). */
  get history(): SnapshotHistory {
    if (this.historyRead) return this.historyRead;
    if (!this.files.history) throw new SnapshotError(HISTORY_FILE, "is not listed in manifest.json");
    try {
      const { counts } = this.manifest;
      return (this.historyRead = new SnapshotHistory(this.files.history, counts));
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw new SnapshotError(HISTORY_FILE, (error as Error).message);
    }
  }

  /** Bytes each cache holds now, as counted against its bound. */
  cachedBytes(): { pages: number; blocks: number } {
    return { pages: this.files.index.cache.size, blocks: this.opened?.showtimes.cachedBytes ?? 0 };
  }

  close(): void {
    this.files.close();
  }
}

/** Reads and parses a snapshot folder's manifest. */
export function readManifest(dir: string): Manifest {
  let text: string;
  try {
    text = readFileSync(resolveInside(dir, MANIFEST_FILE), "utf8");
  } catch (error) {
    throw new SnapshotError(
      MANIFEST_FILE,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}): build a snapshot first`,
    );
  }
  return parseManifest(text);
}
