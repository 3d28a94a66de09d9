/** Stage 4: sort every list (spec ordering decisions, v1 issue) and group showtimes into views. */
import { compareEntries, type BuildContext, type Entry, type View } from "./context.js";
import { RESOURCES } from "./schemas.js";

function addTo(views: Map<string, View>, filters: View["filters"], position: number): void {
  const key = JSON.stringify([filters.cinemaId ?? null, filters.filmId ?? null]);
  let view = views.get(key);
  if (!view) views.set(key, (view = { filters, positions: [] }));
  view.positions.push(position);
}

/** Every cinema, film and cinema+film view of the sorted showtimes, positions ascending. */
function groupShowtimes(showtimes: Entry[]): View[] {
  const views = new Map<string, View>();
  showtimes.forEach((s, position) => {
    addTo(views, { cinemaId: s.cinemaId! }, position);
    addTo(views, { filmId: s.filmId! }, position);
    addTo(views, { cinemaId: s.cinemaId!, filmId: s.filmId! }, position);
  });
  // Map order is insertion order, which follows the sorted list: deterministic.
  return [...views.values()];
}

export async function indexViews(ctx: BuildContext): Promise<void> {
  for (const resource of RESOURCES) ctx.entries[resource].sort(compareEntries);
  ctx.views = groupShowtimes(ctx.entries.showtimes);
}
