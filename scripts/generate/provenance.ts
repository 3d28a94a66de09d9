import type { Provider } from "./brands.js";
import { formatInstant } from "./calendar.js";
import { type Random, drawInt, flip } from "./random.js";
import type { Provenance } from "./types.js";

/** Creates a provenance object; most sources also say when they last changed the record, to the minute. */
export function createProvenance(
  random: Random,
  provider: Provider,
  observedAtMs: number,
  externalId: string,
  maxAgeHours: number,
): Provenance {
  const observedAt = formatInstant(observedAtMs, provider.withMillis);
  if (!flip(random, 0.85)) return { observedAt, provider: provider.name, externalId };
  const updatedMs = Math.floor(observedAtMs / 60_000 - drawInt(random, 1, maxAgeHours * 60)) * 60_000;
  return { observedAt, sourceUpdatedAt: formatInstant(updatedMs, false), provider: provider.name, externalId };
}
