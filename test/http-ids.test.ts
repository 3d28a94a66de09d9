/**
 * Ids are any string of 1..160 characters (spec §2, decision: ids): get-one takes the
 * percent-decoded path segment, decoded exactly once, so ids with '/', '%', spaces, dots, Unicode
 * or case-only differences all work when percent-encoded; filters take them from the query.
 */
import { expect, test } from "vitest";
import { expectedList, TRICKY_CINEMA_IDS, TRICKY_FILM_IDS } from "./helpers/dataset.js";
import { auth, describeMatrix, KEYS, useClient, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const enc = encodeURIComponent;

describeMatrix("ids", (runtime) => {
  const api = useClient(runtime, () => ({ snapshotDir: fixture.snapshotDir, accessFile: fixture.accessFile }));
  const get = (path: string) => api.request(path, { headers: auth(KEYS.valid) });
  const idAt = async (path: string) => {
    const res = await get(path);
    return res.status === 200 ? res.json().data.id : res.status;
  };

  test.each([
    ...TRICKY_CINEMA_IDS.map((id) => [`/v1/cinemas/${enc(id)}`, id, "encodeURIComponent"]),
    ...TRICKY_FILM_IDS.map((id) => [`/v1/films/${enc(id)}`, id, "encodeURIComponent"]),
    ["/v1/films/film%2f2049", "film/2049", "lowercase hex in an escape"],
    ["/v1/cinemas/%2E%2E", "..", "dots encoded: no client or proxy can collapse them"],
    ["/v1/cinemas/dots.in.id", "dots.in.id", "dots need no encoding"],
    ["/v1/cinemas/a+b", "a+b", "'+' is literal in a path (it means space only in a query)"],
    ["/v1/cinemas/a%2Bb", "a+b", "'+' encoded"],
    ["/v1/cinemas/Case", "Case", "one of a case-only pair"],
    ["/v1/cinemas/case", "case", "the other of the pair: a different record"],
    ["/v1/films/film%2525", "film%25", "a literal '%25' in an id, decoded once"],
  ])("%s → %s (%s)", async (path, id) => {
    expect(await idAt(path)).toBe(id);
  });

  test.each([
    ["/v1/films/film%25", "decoding twice would find film%25; once gives film%"],
    ["/v1/cinemas/a%20b", "a space is not a plus"],
    ["/v1/cinemas/CASE", "ids are compared exactly, no case folding"],
    [`/v1/cinemas/${enc("Cine\u0301 Lumière ★")}`, "no Unicode normalization: a decomposed é is another id"],
    [`/v1/films/${enc("📽".repeat(159))}`, "a prefix of the 160-character id"],
  ])("%s is 404 (%s)", async (path) => {
    expect(await idAt(path)).toBe(404);
  });

  test("every tricky id works as a showtimes filter, alone and paired", async () => {
    for (const cinemaId of TRICKY_CINEMA_IDS) {
      const body = (await get(`/v1/showtimes?limit=100&cinemaId=${enc(cinemaId)}`)).json();
      expect(body.data, cinemaId).toEqual(expectedList(fixture.dataset, "showtimes", { cinemaId }));
    }
    for (const filmId of TRICKY_FILM_IDS) {
      const body = (await get(`/v1/showtimes?limit=100&filmId=${enc(filmId)}`)).json();
      expect(body.data, filmId).toEqual(expectedList(fixture.dataset, "showtimes", { filmId }));
    }
    const { cinemaId, filmId } = fixture.dataset.showtimes.find(
      (s) => TRICKY_CINEMA_IDS.includes(s.cinemaId) && TRICKY_FILM_IDS.includes(s.filmId),
    )!;
    const body = (await get(`/v1/showtimes?limit=100&cinemaId=${enc(cinemaId)}&filmId=${enc(filmId)}`)).json();
    expect(body.data).toEqual(expectedList(fixture.dataset, "showtimes", { cinemaId, filmId }));
    expect(body.data.length).toBeGreaterThan(0);
  });

  test("in a query, '+' is a space (form encoding) and %2B is a plus", async () => {
    const spaced = (await get("/v1/showtimes?limit=100&cinemaId=with+space")).json().data;
    expect(spaced).toEqual(expectedList(fixture.dataset, "showtimes", { cinemaId: "with space" }));
    expect(spaced.length, "the fixture should give this cinema showtimes").toBeGreaterThan(0);
    const plus = (await get("/v1/showtimes?limit=100&cinemaId=a%2Bb")).json().data;
    expect(plus).toEqual(expectedList(fixture.dataset, "showtimes", { cinemaId: "a+b" }));
  });

  test("ids sort by plain string comparison (UTF-16 units): 'Case' < 'case', '🎬' < 'ｚ'", async () => {
    const ids: string[] = (await get("/v1/cinemas?limit=100")).json().data.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expectedList(fixture.dataset, "cinemas").map((c) => c.id));
    expect(ids.indexOf("Case")).toBeLessThan(ids.indexOf("case"));
    expect(ids.indexOf("🎬 Cinema")).toBeLessThan(ids.indexOf("ｚ fullwidth"));
  });
});
