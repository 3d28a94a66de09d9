/**
 * Reads showtime blocks (layout/showtime-record.ts): a block's header, and a decoder that walks its
 * records and renders each as canonical JSON.
 */
import { type FieldShape, MAX_RECORD_BYTES } from "../layout/showtime-fields.js";
import {
  ATTRS_SAME,
  EXTENDED,
  EXTENSION_FIELDS,
  HAS_URL,
  MAX_STRING_BYTES,
  OBSERVED_SAME,
  OTHER_SAME,
  RESERVED,
  SCREEN_CHANGED,
  UPDATED_CHANGED,
} from "../layout/showtime-record.js";
import { ByteReader, DecodeError, unzigzag } from "../primitives/bytes.js";
import type { Fragments, WrappedTexts } from "../primitives/dictionary.js";
import { copyWords, literal, PAD, PaddedBytes, type PageBuffer } from "../primitives/page-buffer.js";
import { END_MEMBER_SLACK, type ShowtimeEnds } from "./showtime-ends.js";
import { extensionOpen, SHOWTIME_TEXTS } from "./showtime-texts.js";

const EMPTY = new Uint8Array(0);
/** Bytes a decoded block costs beyond its data: its object, the payload's buffer, view and cache slot. */
const BLOCK_OVERHEAD = 200;

/**
 * A block's header, parsed once when the block is read; the records stay encoded. A decoded
 * block is what the block cache holds (the whole record store at 2M showtimes), so it is kept to
 * a few numbers around the padded payload: no arrays of its own.
 */
export class ShowtimeBlock {
  readonly count: number;
  readonly restartInterval: number;
  /** The payload, padded for word copies. */
  readonly data: PaddedBytes;
  /** Where the payload's bytes end in `data`. */
  readonly end: number;
  readonly baseIdStart: number;
  readonly baseIdEnd: number;
  readonly baseUrlStart: number;
  readonly baseUrlEnd: number;
  readonly baseExtStart: number;
  readonly baseExtEnd: number;
  private readonly setsAt: number;
  /** Where the restart table (u16 each) starts, and the records it points into. */
  private readonly restartTable: number;
  private readonly recordsStart: number;
  /** Bytes this block holds in memory, its objects included (what the block cache counts). */
  readonly size: number;

  constructor(payload: Uint8Array) {
    this.data = new PaddedBytes(payload);
    this.end = payload.length;
    const reader = new ByteReader(this.data.bytes, 0, this.end);
    this.count = reader.varint();
    this.restartInterval = reader.varint();
    if (this.count < 1 || this.restartInterval < 1) throw new DecodeError("empty showtime block");
    const span = (): [number, number] => {
      const length = reader.varint();
      const start = reader.at;
      reader.raw(length);
      if (length > MAX_STRING_BYTES) throw new DecodeError("base string too long");
      return [start, start + length];
    };
    [this.baseIdStart, this.baseIdEnd] = span();
    [this.baseUrlStart, this.baseUrlEnd] = span();
    [this.baseExtStart, this.baseExtEnd] = span();
    this.setsAt = reader.at;
    const sets = reader.varint();
    if (sets > this.count) throw new DecodeError("more attribute sets than records");
    for (let i = 0; i < sets; i++) reader.varint();
    this.restartTable = reader.at;
    const restarts = Math.ceil(this.count / this.restartInterval);
    reader.raw(2 * restarts);
    this.recordsStart = reader.at;
    for (let i = 0; i < restarts; i++) if (this.restart(i) >= this.end) throw new DecodeError("restart past the block");
    this.size = this.data.bytes.length + BLOCK_OVERHEAD;
  }

  /** The payload offset of restart i. */
  restart(i: number): number {
    const at = this.restartTable + 2 * i;
    const bytes = this.data.bytes;
    return this.recordsStart + (bytes[at]! | (bytes[at + 1]! << 8));
  }

  /** The start-time code of restart i's record (stored whole there: a search reads it without decoding). */
  restartStartsAt(i: number): number {
    const bytes = this.data.bytes;
    let at = this.restart(i) + 1;
    let value = 0;
    let scale = 1;
    for (let k = 0; k < 8; k++) {
      const b = bytes[at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return unzigzag(value);
      scale *= 0x80;
    }
    throw new DecodeError("varint too long");
  }

  /** Attribute-set codes present in the block, ascending (filters skip a block that has none they need). */
  attributeSets(): number[] {
    const reader = new ByteReader(this.data.bytes, this.setsAt, this.end);
    return Array.from({ length: reader.varint() }, () => reader.varint());
  }
}

/** The dictionaries a record renders from, wrapped in their JSON text (dictionary.ts Fragments). */
export interface ShowtimeFragments {
  /** `","filmId":"<id>` per film. */
  films: Fragments;
  /** `","cinemaId":"<id>","startsAt":"` per cinema. */
  cinemas: Fragments;
  startsAt: Fragments;
  attributes: Fragments;
  screens: Fragments;
  observed: WrappedTexts;
  updated: WrappedTexts;
  providers: Fragments;
}

const ID_OPEN = literal(SHOWTIME_TEXTS.idOpen);
const URL_OPEN = literal(SHOWTIME_TEXTS.urlOpen);
const URL_CLOSE = literal(SHOWTIME_TEXTS.urlClose);
const CLOSE = literal(SHOWTIME_TEXTS.close);
const PROVENANCE_CLOSE = literal(SHOWTIME_TEXTS.provenanceClose);
const RECORD_CLOSE = literal(SHOWTIME_TEXTS.recordClose);
const [ID_OPEN_END, URL_OPEN_END, URL_CLOSE_END, CLOSE_END, PROVENANCE_CLOSE_END, RECORD_CLOSE_END] = [
  ID_OPEN,
  URL_OPEN,
  URL_CLOSE,
  CLOSE,
  PROVENANCE_CLOSE,
  RECORD_CLOSE,
].map((text) => text.bytes.length - PAD) as [number, number, number, number, number, number];
/** Room a record needs beyond its fragments and strings: the fixed text above. */
const RECORD_SLACK = 32;

/**
 * Walks the records of one block, decoding each into its codes and strings; renders the current
 * record as its canonical JSON. One decoder is reused for every block a page reads.
 */
export class ShowtimeDecoder {
  block!: ShowtimeBlock;
  /** Index in the block of the record decoded last (-1 before the first). */
  index = -1;
  private at = 0;
  private payload: Uint8Array = EMPTY;
  private payloadView: DataView = new DataView(new ArrayBuffer(8));
  private payloadEnd = 0;
  flags = 0;
  startsAt = 0;
  other = -1;
  attributes = -1;
  screen = -1;
  observed = -1;
  provider = -1;
  updated = -1;
  /** The current strings, in scratch buffers: id [0, idLength), url, externalId likewise. */
  readonly id = new PaddedBytes(MAX_STRING_BYTES);
  readonly url = new PaddedBytes(MAX_STRING_BYTES);
  readonly ext = new PaddedBytes(MAX_STRING_BYTES);
  idLength = 0;
  urlLength = 0;
  extLength = 0;
  /**
   * When flags has EXTENDED: which extension fields the record has, each's value in the payload, their text's
   * length.
   */
  extensionMask = 0;
  private readonly extensionStart: Int32Array;
  private readonly extensionEnd: Int32Array;
  private extensionLength = 0;
  /** `,"name":` of each extension field, by bit. */
  private readonly extensionOpens: PaddedBytes[];

  /**
   * `extensions`: the extension rows this reader knows, by bit (the shape table's; tests give others).
   * `ends`: each record's derived end, for a snapshot that holds running times (none: no record has one).
   */
  constructor(
    private readonly fragments: ShowtimeFragments,
    extensions: readonly FieldShape[] = EXTENSION_FIELDS,
    private readonly ends?: ShowtimeEnds,
  ) {
    this.extensionOpens = extensions.map((f) => new PaddedBytes(Buffer.from(extensionOpen(f), "utf8")));
    this.extensionStart = new Int32Array(extensions.length);
    this.extensionEnd = new Int32Array(extensions.length);
  }

  /** Positions the decoder so that the next call to next() decodes record `k` of `block`. */
  seek(block: ShowtimeBlock, k: number): void {
    if (k < 0 || k >= block.count) throw new DecodeError(`record ${k} is not in the block`);
    this.block = block;
    this.payload = block.data.bytes;
    this.payloadView = block.data.view;
    this.payloadEnd = block.end;
    const restart = Math.floor(k / block.restartInterval);
    this.index = restart * block.restartInterval - 1;
    this.at = block.restart(restart);
    while (this.index < k - 1) this.next();
  }

  private varint(): number {
    const p = this.payload;
    let b = p[this.at++]!;
    if (b < 0x80) return b;
    let value = b & 0x7f;
    let scale = 0x80;
    for (let i = 0; i < 7; i++) {
      b = p[this.at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
    throw new DecodeError("varint too long");
  }

  /** Decodes a string coded against the field's last value, in place in its scratch buffer. */
  private string(target: PaddedBytes, lastLength: number): number {
    const shared = this.varint();
    const rest = this.varint();
    const end = shared + rest;
    if (shared > lastLength || end > MAX_STRING_BYTES || this.at + rest > this.payloadEnd)
      throw new DecodeError("bad string in a showtime block");
    copyWords(target.view, shared, this.payloadView, this.at, this.at + rest);
    this.at += rest;
    return end;
  }

  private reset(): void {
    const b = this.block;
    const view = b.data.view;
    this.idLength = copyWords(this.id.view, 0, view, b.baseIdStart, b.baseIdEnd);
    this.urlLength = copyWords(this.url.view, 0, view, b.baseUrlStart, b.baseUrlEnd);
    this.extLength = copyWords(this.ext.view, 0, view, b.baseExtStart, b.baseExtEnd);
    this.startsAt = 0;
    this.other = this.attributes = this.screen = this.observed = this.provider = this.updated = -1;
  }

  /** Decodes the next record of the block. */
  next(): void {
    const index = ++this.index;
    if (index >= this.block.count) throw new DecodeError("read past the last record of a block");
    if (index % this.block.restartInterval === 0) {
      this.reset();
      this.at = this.block.restart(index / this.block.restartInterval);
    }
    if (this.at >= this.payloadEnd) throw new DecodeError("showtime block ends early");
    const flags = (this.flags = this.payload[this.at++]!);
    this.startsAt += unzigzag(this.varint());
    this.idLength = this.string(this.id, this.idLength);
    if (!(flags & OTHER_SAME)) this.other = this.varint();
    if (flags & HAS_URL) this.urlLength = this.string(this.url, this.urlLength);
    if (!(flags & ATTRS_SAME)) this.attributes = this.varint();
    if (flags & SCREEN_CHANGED) this.screen = this.varint() - 1;
    if (!(flags & OBSERVED_SAME)) {
      this.observed = this.varint();
      this.provider = this.varint();
    }
    if (flags & UPDATED_CHANGED) this.updated = this.varint() - 1;
    this.extLength = this.string(this.ext, this.extLength);
    if (flags & (EXTENDED | RESERVED)) this.extensions(flags);
    if (this.at > this.payloadEnd) throw new DecodeError("showtime block ends early");
  }

  /**
   * The mask and values of a record's extension fields (layout/showtime-record.ts), left in the
   * payload where render copies them from. A bit this reader does not know, a value past the
   * block or longer than a record may be is a snapshot it cannot read.
   */
  private extensions(flags: number): void {
    const opens = this.extensionOpens;
    const mask = flags & RESERVED ? 0 : this.varint();
    // The reserved bit and an empty mask are never written; a bit past the rows known here is a newer writer's field.
    if (mask === 0 || mask >= 2 ** opens.length)
      throw new DecodeError("a showtime record holds a field this server does not know");
    let bytes = 0;
    let length = 0;
    for (let i = 0; i < opens.length; i++) {
      if (!(mask & (1 << i))) continue;
      const size = this.varint();
      bytes += size;
      if (size === 0 || bytes > MAX_RECORD_BYTES || this.at + size > this.payloadEnd)
        throw new DecodeError("bad extension field in a showtime block");
      this.extensionStart[i] = this.at;
      this.at += size;
      this.extensionEnd[i] = this.at;
      length += opens[i]!.bytes.length - PAD + size;
    }
    this.extensionMask = mask;
    this.extensionLength = length;
  }

  /** The current record's value of extension field i (canonical JSON text), or undefined when it has none. */
  extension(i: number): Uint8Array | undefined {
    if (!(this.flags & EXTENDED) || !(this.extensionMask & (1 << i))) return undefined;
    return this.payload.subarray(this.extensionStart[i]!, this.extensionEnd[i]!);
  }

  /** The current record's id bytes (escaped JSON text). */
  idBytes(): Uint8Array {
    return this.id.bytes.subarray(0, this.idLength);
  }

  /**
   * Writes the current record's canonical JSON: the fields in the schema's order, strings as
   * JSON.stringify writes them. The caller says which film and cinema (one is the block's cluster,
   * the other the record's `other` code). `withoutProvenance`: the record as find_showtimes lists it
   * (decision: MCP), every member but its provenance.
   */
  render(out: PageBuffer, film: number, cinemaIndex: number, withoutProvenance = false): void {
    const f = this.fragments;
    const cinema = f.cinemas;
    const flags = this.flags;
    const { startsAt, attributes, observed, provider } = this;
    const hasScreen = this.screen >= 0;
    const hasUpdated = this.updated >= 0;
    const screen = hasScreen ? this.screen : 0;
    const updated = hasUpdated ? this.updated : 0;
    // A code past its dictionary can only come from a corrupt block; the checksum makes this rare, not impossible.
    if (
      !(film >= 0 && film < f.films.start.length) ||
      !(startsAt >= 0 && startsAt < f.startsAt.start.length) ||
      !(attributes >= 0 && attributes < f.attributes.start.length) ||
      !(observed >= 0 && observed < f.observed.count) ||
      !(provider >= 0 && provider < f.providers.start.length) ||
      !(screen >= 0 && screen < (hasScreen ? f.screens.start.length : 1)) ||
      !(updated >= 0 && updated < (hasUpdated ? f.updated.count : 1)) ||
      !(cinemaIndex >= 0 && cinemaIndex < cinema.start.length)
    ) {
      throw new DecodeError("a showtime refers to a dictionary entry that does not exist");
    }
    const fs = f.films.start,
      fe = f.films.end,
      ss = f.startsAt.start,
      se = f.startsAt.end,
      as = f.attributes.start,
      ae = f.attributes.end;
    const ps = f.providers.start,
      pe = f.providers.end;
    const ob = f.observed,
      up = f.updated;
    let length =
      RECORD_SLACK +
      this.idLength +
      this.urlLength +
      this.extLength +
      fe[film]! -
      fs[film]! +
      cinema.end[cinemaIndex]! -
      cinema.start[cinemaIndex]!;
    length +=
      se[startsAt]! -
      ss[startsAt]! +
      ae[attributes]! -
      as[attributes]! +
      ob.length(observed) +
      pe[provider]! -
      ps[provider]!;
    if (hasScreen) length += f.screens.end[screen]! - f.screens.start[screen]!;
    if (hasUpdated) length += up.length(updated);
    const ends = this.ends;
    if (ends) length += se[startsAt]! - ss[startsAt]! + END_MEMBER_SLACK;
    out.ensure(length);
    const o = out.view;
    let w = copyWords(o, out.length, ID_OPEN.view, 0, ID_OPEN_END);
    w = copyWords(o, w, this.id.view, 0, this.idLength);
    w = copyWords(o, w, f.films.view, fs[film]!, fe[film]!);
    w = copyWords(o, w, cinema.view, cinema.start[cinemaIndex]!, cinema.end[cinemaIndex]!);
    w = copyWords(o, w, f.startsAt.view, ss[startsAt]!, se[startsAt]!);
    if (ends) w = ends.write(out.bytes, w, startsAt, film, cinemaIndex);
    if (flags & HAS_URL) {
      w = copyWords(o, w, URL_OPEN.view, 0, URL_OPEN_END);
      w = copyWords(o, w, this.url.view, 0, this.urlLength);
      w = copyWords(o, w, URL_CLOSE.view, 0, URL_CLOSE_END);
    }
    w = copyWords(o, w, f.attributes.view, as[attributes]!, ae[attributes]!);
    if (hasScreen) w = copyWords(o, w, f.screens.view, f.screens.start[screen]!, f.screens.end[screen]!);
    if (withoutProvenance) {
      if (flags & EXTENDED) this.renderExtensions(out, w);
      else out.length = copyWords(o, w, RECORD_CLOSE.view, 0, RECORD_CLOSE_END);
      return;
    }
    w = copyWords(o, w, ob.head.view, 0, ob.head.bytes.length - PAD);
    w = copyWords(o, w, ob.data.view, ob.offsets[observed]!, ob.offsets[observed + 1]!);
    w = copyWords(o, w, ob.tail.view, 0, ob.tail.bytes.length - PAD);
    if (hasUpdated) {
      w = copyWords(o, w, up.head.view, 0, up.head.bytes.length - PAD);
      w = copyWords(o, w, up.data.view, up.offsets[updated]!, up.offsets[updated + 1]!);
      w = copyWords(o, w, up.tail.view, 0, up.tail.bytes.length - PAD);
    }
    w = copyWords(o, w, f.providers.view, ps[provider]!, pe[provider]!);
    w = copyWords(o, w, this.ext.view, 0, this.extLength);
    if (flags & EXTENDED) this.renderExtensions(out, copyWords(o, w, PROVENANCE_CLOSE.view, 0, PROVENANCE_CLOSE_END));
    else out.length = copyWords(o, w, CLOSE.view, 0, CLOSE_END);
  }

  /** Writes at `at` `,"name":<json>` per extension field the record has (in bit order), then closes the record. */
  private renderExtensions(out: PageBuffer, at: number): void {
    out.length = at;
    out.ensure(this.extensionLength + RECORD_CLOSE_END);
    const o = out.view;
    const opens = this.extensionOpens;
    const mask = this.extensionMask;
    let w = out.length;
    for (let i = 0; i < opens.length; i++) {
      if (!(mask & (1 << i))) continue;
      w = copyWords(o, w, opens[i]!.view, 0, opens[i]!.bytes.length - PAD);
      w = copyWords(o, w, this.payloadView, this.extensionStart[i]!, this.extensionEnd[i]!);
    }
    out.length = copyWords(o, w, RECORD_CLOSE.view, 0, RECORD_CLOSE_END);
  }
}
