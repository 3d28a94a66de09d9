/**
 * Errors that point at the mistake (decision: pointed errors): an offset whose "+" arrived as a
 * space, and an Authorization header without the Bearer word, each say what to send instead.
 */
import { expect, test } from "vitest";
import { auth, describeMatrix, KEYS, useClient, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();

describeMatrix("pointed errors", (runtime) => {
  const api = useClient(runtime, () => ({ snapshotDir: fixture.snapshotDir, accessFile: fixture.accessFile }));

  test.each([
    ["startsAfter", "2026-11-24T18:00+01:00", true],
    ["startsBefore", "2026-11-24T18:00:30.5+05:30", true],
    ["startsAfter", "2026-11-24T18:00", false],
  ])(
    "%s=%s: the message shows the value received, and hints %%2B when a + became a space",
    async (name, value, hinted) => {
      const response = await api.request(`/v1/showtimes?${name}=${value}`, { headers: auth(KEYS.valid) });
      expect(response.status).toBe(400);
      const { message } = response.json().error;
      expect(message).toContain(`received ${JSON.stringify(value.replace("+", " "))}`);
      expect(message.includes("%2B")).toBe(hinted);
    },
  );

  test.each([
    ["the key alone", KEYS.valid, /must be the word Bearer/],
    ["another scheme", `Basic ${KEYS.valid}`, /must be the word Bearer/],
    ["Bearer without a key", "Bearer", /must be the word Bearer/],
    ["an unknown key", "Bearer cl_nope", /not valid \(unknown, revoked or expired\)/],
  ])("Authorization: %s → 401 saying what to send", async (_what, header, message) => {
    const response = await api.request("/v1/films", { headers: { authorization: header } });
    expect(response.status).toBe(401);
    expect(response.json().error.message).toMatch(message);
  });
});
