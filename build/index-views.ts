/** Stage 4: sort every list (spec ordering decisions, v1 issue) and group showtimes into views. */
import { compareEntries, type BuildContext, type Entry, type View } from "./context.js";
import { RESOURCES } from "./schemas.js";

/** The views of one list, created on first use; `all` keeps creation order, which follows the list. */
class ViewSet {
  readonly all: View[] = [];
  private readonly byCinema = new Map<string, View>();
  private readonly byFilm = new Map<string, View>();
  private readonly byPair = new Map<string, Map<string, View>>();

  add(cinemaId: string, filmId: string, position: number): void {
    this.viewOf(this.byCinema, cinemaId, () => ({ cinemaId })).positions.push(position);
    this.viewOf(this.byFilm, filmId, () => ({ filmId })).positions.push(position);
    let pairs = this.byPair.get(cinemaId);
    if (!pairs) this.byPair.set(cinemaId, (pairs = new Map()));
    this.viewOf(pairs, filmId, () => ({ cinemaId, filmId })).positions.push(position);
  }

  // Keyed by the ids themselves (interned at validation): no key string is built per showtime.
  private viewOf(map: Map<string, View>, id: string, filters: () => View["filters"]): View {
    let view = map.get(id);
    if (!view) {
      map.set(id, (view = { filters: filters(), positions: [] }));
      this.all.push(view);
    }
    return view;
  }
}

/** Every cinema, film and cinema+film view of the sorted showtimes, positions ascending. */
function groupShowtimes(showtimes: Entry[]): View[] {
  const views = new ViewSet();
  showtimes.forEach((s, position) => views.add(s.cinemaId!, s.filmId!, position));
  return views.all;
}

export async function indexViews(ctx: BuildContext): Promise<void> {
  for (const resource of RESOURCES) ctx.entries[resource].sort(compareEntries);
  ctx.views = groupShowtimes(ctx.entries.showtimes);
}
