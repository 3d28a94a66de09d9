/**
 * Keeping a mirror in sync (decision: changes feed), against the API's own lists: random datasets
 * changed by a chain of rebuilds (showtimes added, removed, moved and edited; cinemas, films and
 * attributes appearing, changing and disappearing; the drop-before instant advancing), each built
 * with --previous into the folder in service. A client that starts with a full copy at some step
 * and catches up at later steps, through the typed client and random page sizes, holds exactly
 * the serving snapshot's records after each catch-up, field for field.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler } from "../api/_core/handle-request.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { type Change, type Client, createClient } from "../client/index.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import {
  compareInstants,
  createRandom,
  type Dataset,
  formatInstant,
  generateDataset,
  type Random,
  SHOWS_FROM,
  writeDataset,
} from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("mirror");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

/** A fetch that asks the in-process core, so the typed client itself is what keeps the mirror. */
function clientOf(handle: () => Handler): Client {
  return createClient({
    baseUrl: "http://api.test",
    apiKey: KEYS.bulk,
    sleep: async () => {},
    fetch: async (input) => {
      const url = new URL(String(input));
      const response = await handle()({
        method: "GET",
        url: url.pathname + url.search,
        headers: { authorization: `Bearer ${KEYS.bulk}` },
      });
      return new Response(Buffer.from(response.body), { status: response.status, headers: response.headers });
    },
  });
}

// ---- One step of change, as a provider's next day looks. ----

const clone = (dataset: Dataset): Dataset => JSON.parse(JSON.stringify(dataset));

function step(previous: Dataset, rng: Random, day: number): Dataset {
  const next = clone(previous);
  const pick = <T>(items: T[]) => items[rng.int(items.length)];
  // Showtimes: some removed, some moved, some edited, some added.
  next.showtimes = next.showtimes.filter(() => !rng.chance(0.08));
  for (const s of next.showtimes) {
    if (rng.chance(0.06))
      s.startsAt = formatInstant(SHOWS_FROM + (day * 6 + rng.int(200)) * 1800, "", rng.pick([0, 60]));
    if (rng.chance(0.05)) s.screenName = `Screen ${1 + rng.int(9)}`;
    if (rng.chance(0.04)) s.attributeIds = next.attributes.filter(() => rng.chance(0.3)).map((a) => a.id);
  }
  // A cinema and a film may close (their showtimes go), or appear, or change.
  if (rng.chance(0.3) && next.cinemas.length > 2) {
    const gone = pick(next.cinemas)!.id;
    next.cinemas = next.cinemas.filter((c) => c.id !== gone);
    next.showtimes = next.showtimes.filter((s) => s.cinemaId !== gone);
  }
  if (rng.chance(0.3) && next.films.length > 2) {
    const gone = pick(next.films)!.id;
    next.films = next.films.filter((f) => f.id !== gone);
    next.showtimes = next.showtimes.filter((s) => s.filmId !== gone);
  }
  if (rng.chance(0.4)) next.cinemas.push({ ...clone(next).cinemas[0]!, id: `cinema-new-${day}`, name: `New ${day}` });
  if (rng.chance(0.4)) next.films.push({ ...clone(next).films[0]!, id: `film-new-${day}`, title: `New ${day}` });
  if (rng.chance(0.3)) pick(next.cinemas)!.name = `Renamed ${day}`;
  if (rng.chance(0.3)) pick(next.films)!.title = `Retitled ${day}`;
  // An attribute may go (and from every showtime), or appear.
  if (rng.chance(0.2) && next.attributes.length > 1) {
    const gone = pick(next.attributes)!.id;
    next.attributes = next.attributes.filter((a) => a.id !== gone);
    for (const s of next.showtimes) s.attributeIds = s.attributeIds.filter((id) => id !== gone);
  }
  if (rng.chance(0.2)) next.attributes.push({ id: `attr-new-${day}`, kind: "event", name: `New ${day}` });
  const count = 1 + rng.int(12);
  for (let i = 0; i < count; i++)
    next.showtimes.push({
      id: `st-new-${day}-${i}`,
      filmId: pick(next.films)!.id,
      cinemaId: pick(next.cinemas)!.id,
      startsAt: formatInstant(SHOWS_FROM + (day * 6 + rng.int(200)) * 1800, "", rng.pick([0, 60, -300])),
      attributeIds: [],
      provenance: { observedAt: "2026-11-20T06:00:00Z", provider: "p", externalId: `x-${day}-${i}` },
    });
  return next;
}

// ---- The mirror. ----

type Mirror = Map<Change["type"], Map<string, unknown>>;

const emptyMirror = (): Mirror =>
  new Map(["cinema", "film", "attribute", "showtime"].map((t) => [t as Change["type"], new Map()]));

/** Applies a sync the way the docs' example does: each page in order, then the drop-before rule. Returns the token. */
async function sync(client: Client, mirror: Mirror, since: string | undefined, limit: number): Promise<string> {
  const feed = client.changes({ since, limit });
  for await (const page of feed) {
    for (const change of page.data) {
      const records = mirror.get(change.type)!;
      if (change.op === "upsert") {
        // Every change keeps references whole: a showtime's film and cinema are there already.
        if (change.type === "showtime") {
          expect(mirror.get("film")!.has(change.record.filmId), `film of ${change.id}`).toBe(true);
          expect(mirror.get("cinema")!.has(change.record.cinemaId), `cinema of ${change.id}`).toBe(true);
        }
        records.set(change.id, change.record);
      } else records.delete(change.id);
    }
    const dropBefore = page.dropBefore;
    if (dropBefore)
      for (const [id, s] of mirror.get("showtime")!)
        if (compareInstants((s as { startsAt: string }).startsAt, dropBefore) < 0) mirror.get("showtime")!.delete(id);
  }
  return feed.syncToken!;
}

/** Every record the API lists, by type: what the mirror must hold. */
async function served(client: Client): Promise<Mirror> {
  const all = emptyMirror();
  for await (const c of client.cinemas({ limit: 100 })) all.get("cinema")!.set(c.id, c);
  for await (const f of client.films({ limit: 100 })) all.get("film")!.set(f.id, f);
  for await (const a of client.attributes({ limit: 100 })) all.get("attribute")!.set(a.id, a);
  for await (const s of client.showtimes({ limit: 100 })) all.get("showtime")!.set(s.id, s);
  return all;
}

const asObject = (mirror: Mirror) =>
  Object.fromEntries(
    [...mirror].map(([type, records]) => [type, Object.fromEntries([...records].sort(([a], [b]) => (a < b ? -1 : 1)))]),
  );

async function buildStep(dataset: Dataset, dir: string, label: string, dropBefore?: number): Promise<void> {
  const dataDir = path.join(dir, `data-${label}`);
  writeDataset(dataDir, dataset);
  const before = dropBefore === undefined ? undefined : formatInstant(dropBefore, "", 0);
  const result = await runBuild({
    dataDir,
    output: createDiskWriter(path.join(dir, "live")),
    previous: label === "0" ? undefined : path.join(dir, "live"),
    dropBefore: before === undefined ? undefined : { text: before, key: instantKeyOfText(before) },
    gzipLevel: 1,
    gzipWorkers: 0,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
}

import { instantKeyOf as instantKeyOfText } from "../api/_core/format/primitives/date-time.js";
import { scaled } from "./helpers/deadlines.js";

test("a mirror that copies once and catches up later holds exactly what the API serves", {
  timeout: scaled(300_000),
}, async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        showtimes: fc.integer({ min: 20, max: 160 }),
        steps: fc.integer({ min: 2, max: 6 }),
        startAt: fc.nat({ max: 3 }),
        limits: fc.array(fc.constantFrom(1, 2, 3, 7, 50, 1000, 5000), { minLength: 1, maxLength: 4 }),
        catchUps: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      }),
      async ({ seed, showtimes, steps, startAt, limits, catchUps }) => {
        const dir = path.join(root, `run-${run++}`);
        try {
          const rng = createRandom(seed);
          let dataset = generateDataset({ seed, showtimes, cinemas: 3, films: 3 });
          let handle: Handler | undefined;
          const client = clientOf(() => handle!);
          const open = () =>
            createHandler({
              snapshots: new SnapshotSource(path.join(dir, "live")),
              access: fileAccess(accessFile),
              now: () => TEST_NOW,
            });
          const mirror = emptyMirror();
          let token: string | undefined;
          let started = false;
          for (let k = 0; k <= steps; k++) {
            if (k > 0) dataset = step(dataset, rng, k);
            // The drop-before instant advances on some steps, as a daily release's does.
            const dropBefore = k > 0 && rng.chance(0.6) ? SHOWS_FROM + k * 3 * 3600 : undefined;
            await buildStep(dataset, dir, String(k), dropBefore);
            handle = open();
            const limit = limits[k % limits.length]!;
            if (!started && k >= Math.min(startAt, steps)) {
              token = await sync(client, mirror, undefined, limit);
              started = true;
            } else if (started && (catchUps[k % catchUps.length] || k === steps)) {
              token = await sync(client, mirror, token, limit);
            } else continue;
            expect(asObject(mirror), `step ${k}`).toEqual(asObject(await served(client)));
          }
        } finally {
          removeDir(dir);
        }
      },
    ),
    { numRuns: 12, seed: Number(process.env.FC_SEED ?? 20_261_129) },
  );
});

describe("cases the random chains rarely reach", () => {
  /** Builds `dataset` as step `label` into a chain folder and returns a client of what it serves. */
  async function chainStep(dir: string, dataset: Dataset, label: string, dropBefore?: number): Promise<Client> {
    await buildStep(dataset, dir, label, dropBefore);
    const handle = createHandler({
      snapshots: new SnapshotSource(path.join(dir, "live")),
      access: fileAccess(accessFile),
      now: () => TEST_NOW,
    });
    return clientOf(() => handle);
  }

  test(
    "a showtime moved earlier, then left out by the drop-before instant, is deleted for a mirror " +
      "holding its old time",
    async () => {
      const dir = path.join(root, "moved-then-dropped");
      try {
        const base = generateDataset({ seed: 7, showtimes: 6, cinemas: 1, films: 1 });
        const late = { ...base.showtimes[0]!, id: "st-late", startsAt: formatInstant(SHOWS_FROM + 48 * 3600, "", 0) };
        const v0: Dataset = { ...base, showtimes: [late] };
        let client = await chainStep(dir, v0, "0");
        const mirror = emptyMirror();
        const token = await sync(client, mirror, undefined, 10);
        // Moved to an hour from the start, then the drop-before instant passes it.
        const v1: Dataset = { ...v0, showtimes: [{ ...late, startsAt: formatInstant(SHOWS_FROM + 3600, "", 0) }] };
        await chainStep(dir, v1, "1");
        client = await chainStep(dir, v1, "2", SHOWS_FROM + 2 * 3600);
        await sync(client, mirror, token, 10);
        expect(mirror.get("showtime")!.has("st-late")).toBe(false);
        expect(asObject(mirror)).toEqual(asObject(await served(client)));
      } finally {
        removeDir(dir);
      }
    },
  );

  test(
    "a showtime moved into the gap between the requested drop-before and the earliest start kept is " +
      "served and mirrored; one cancelled in that gap was a deletion",
    async () => {
      const dir = path.join(root, "moved-into-gap");
      try {
        const base = generateDataset({ seed: 7, showtimes: 6, cinemas: 1, films: 1 });
        const at = (id: string, hours: number) => ({
          ...base.showtimes[0]!,
          id,
          startsAt: formatInstant(SHOWS_FROM + hours * 3600, "", 0),
        });
        const v0: Dataset = { ...base, showtimes: [at("st-cancelled", 1), at("st-first", 5), at("st-moved", 30)] };
        let client = await chainStep(dir, v0, "0");
        const mirror = emptyMirror();
        const token = await sync(client, mirror, undefined, 10);
        // Asked to drop before SHOWS_FROM, with st-cancelled gone: the earliest start kept is 5 h on.
        const v1: Dataset = { ...v0, showtimes: [at("st-first", 5), at("st-moved", 30)] };
        await chainStep(dir, v1, "1", SHOWS_FROM);
        // No --drop-before: the requested instant is carried, and st-moved moves before st-cancelled's time.
        const v2: Dataset = { ...v0, showtimes: [at("st-first", 5), at("st-moved", 0.5)] };
        client = await chainStep(dir, v2, "2");
        const serving = await served(client);
        expect([...serving.get("showtime")!.keys()].sort()).toEqual(["st-first", "st-moved"]);
        // The mirror copied before st-cancelled went: the rule drops only before st-moved now, so it
        // needs the deletion.
        await sync(client, mirror, token, 10);
        expect(asObject(mirror)).toEqual(asObject(serving));
      } finally {
        removeDir(dir);
      }
    },
  );
});
