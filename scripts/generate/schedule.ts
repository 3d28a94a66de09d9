import { type Performance, chooseAttributes } from "./attributes.js";
import { DAY_COUNT, formatDay, formatInstant, getWeekday, isWeekend } from "./calendar.js";
import { type Random, accumulateWeights, apportion, drawInt, flip, pickWeighted } from "./random.js";
import type { CinemaPlan, FilmPlan, Screen, Showtime } from "./types.js";

// Sunday .. Saturday: weekends are busiest, the start of the week quietest.
const WEEKDAY_WEIGHTS = [1.3, 0.85, 0.9, 0.9, 0.95, 1.15, 1.35];
// New films open on Fridays (days 3 and 10), when screens are re-booked.
const PERIOD_STARTS = [0, 3, 10];
const TURNAROUND = 30;
const LAST_USUAL_START = 22 * 60 + 30;
const LAST_POSSIBLE_START = 24 * 60 + 15;
// One spare day for shows that start after midnight on the last listed day.
const DATES = Array.from({ length: DAY_COUNT + 1 }, (_, day) => formatDay(day));
const COMPACT_DATES = DATES.map((date) => date.replace(/-/g, ""));
const WEEKDAYS = DATES.map((_, day) => getWeekday(day));
/** A day's date, past the spare day too (a cinema whose screens cannot hold its quota plays on). */
const dateOf = (day: number) => DATES[day] ?? formatDay(day);
const compactDateOf = (day: number) => COMPACT_DATES[day] ?? formatDay(day).replace(/-/g, "");

interface Booking {
  screen: Screen;
  /** Matinee film first (if any), then the main film for the rest of the day. */
  films: FilmPlan[];
  capacity: number;
}

/** Renders exactly `quota` showtimes of one cinema over the listed days as NDJSON lines, in start order per day. */
export function renderShowtimes(
  random: Random,
  plan: CinemaPlan,
  quota: number,
  fallback: readonly FilmPlan[],
): string[] {
  const perDay = apportion(
    quota,
    WEEKDAYS.slice(0, DAY_COUNT).map((weekday) => WEEKDAY_WEIGHTS[weekday]!),
  );
  const lines: string[] = [];
  let nextPerformance = plan.firstPerformance;
  let carried = 0;
  let bookings: Booking[] = [];
  for (let day = 0; day < DAY_COUNT; day++) {
    if (PERIOD_STARTS.includes(day)) bookings = bookScreens(random, plan, day, fallback);
    const lastDay = day === DAY_COUNT - 1 ? WEEKDAYS[day]! : undefined;
    const counts = spreadOverScreens(random, bookings, perDay[day]! + carried, lastDay);
    carried = perDay[day]! + carried - counts.reduce((a, b) => a + b, 0);
    const shows = bookings.flatMap((booking, i) => timeShows(random, plan, booking, counts[i]!, day));
    shows.sort((a, b) => a.minute - b.minute || a.screen.number - b.screen.number);
    const stamp = stampProvenance(random, plan, day);
    for (const show of shows) lines.push(JSON.stringify(describeShowtime(random, show, nextPerformance++, stamp)));
  }
  return lines;
}

function describeShowtime(random: Random, show: Performance, perf: number, stamp: Stamp): Showtime {
  const { cinema } = show;
  const date = show.dayIndex + Math.floor(show.minute / 1440);
  const hh = String(Math.floor(show.minute / 60) % 24).padStart(2, "0");
  const mm = String(show.minute % 60).padStart(2, "0");
  // Built field by field because JSON key order follows insertion order and must match spec 2.2.
  const record = {
    id: `st-${cinema.record.id}-${compactDateOf(date)}-${hh}${mm}-s${show.screen.number}`,
    filmId: show.film.record.id,
    cinemaId: cinema.record.id,
    startsAt: `${dateOf(date)}T${hh}:${mm}:00${cinema.offset}`,
  } as Showtime;
  if (cinema.bookingBase && flip(random, 0.97)) record.bookingUrl = cinema.bookingBase + perf;
  record.attributeIds = chooseAttributes(random, show);
  if (cinema.namesScreens) record.screenName = show.screen.name;
  const { observedAt } = stamp;
  const provider = cinema.provider.name;
  const externalId = cinema.provider.formatShowtimeId(cinema.site, perf);
  record.provenance = flip(random, 0.88)
    ? {
        observedAt,
        sourceUpdatedAt: stamp.updates[drawInt(random, 0, stamp.updates.length - 1)]!,
        provider,
        externalId,
      }
    : { observedAt, provider, externalId };
  return record;
}

interface Stamp {
  observedAt: string;
  /** The feed publishes changes in a few batches, so many showtimes share a sourceUpdatedAt. */
  updates: string[];
}

// Feeds are paged by day, so each day of a cinema has its own crawl instant, a moment apart.
function stampProvenance(random: Random, plan: CinemaPlan, day: number): Stamp {
  const observedMs = plan.observedAtMs + day * 1_500;
  const updates = Array.from({ length: 4 }, () =>
    formatInstant(Math.floor(observedMs / 60_000 - drawInt(random, 5, 72 * 60)) * 60_000, false),
  );
  return { observedAt: formatInstant(observedMs, plan.provider.withMillis), updates };
}

/** Re-books every screen for a period: the premium screen gets the top film, others a popularity draw. */
function bookScreens(random: Random, plan: CinemaPlan, day: number, fallback: readonly FilmPlan[]): Booking[] {
  let open = plan.programme.filter((film) => film.opensOnDay <= day);
  if (open.length === 0) open = fallback.filter((film) => film.opensOnDay <= day);
  // Zipf within the programme, flattened a little so the top film takes about a fifth of the screens.
  const totals = accumulateWeights(open.map((_, i) => 1 / (i + 2)));
  // Capacity assumes the later weekday opening so it holds on every day of the period.
  const earliest = firstStart(1);
  return plan.screens.map((screen) => {
    const main = screen.premium ? open[0]! : open[pickWeighted(random, totals)]!;
    const matinee = flip(random, 0.35) ? open[pickWeighted(random, totals)]! : undefined;
    // Family films take the matinee slot whichever of the two was drawn as main.
    const films =
      !matinee || matinee === main ? [main] : main.isFamily && !matinee.isFamily ? [main, matinee] : [matinee, main];
    const longest = Math.max(...films.map((film) => film.runtime));
    return { screen, films, capacity: 1 + Math.floor((LAST_POSSIBLE_START - earliest) / (longest + TURNAROUND)) };
  });
}

/**
 * Shares a day's showtimes over the screens, unevenly, never beyond what a screen can fit;
 * the excess moves to the next day, and on the last day (its weekday given) the quota wins over
 * the cap: the rest goes to the first screen, then the next, each while its shows still start
 * before the spare day ends, and what is left to the first screen.
 */
function spreadOverScreens(random: Random, bookings: Booking[], total: number, lastDay?: number): number[] {
  const counts = apportion(
    total,
    bookings.map(() => 0.7 + 0.6 * random()),
  );
  let excess = 0;
  counts.forEach((count, i) => {
    const over = Math.max(0, count - bookings[i]!.capacity);
    counts[i] = count - over;
    excess += over;
  });
  for (let i = 0; excess > 0 && i < counts.length; i++) {
    const room = Math.min(excess, bookings[i]!.capacity - counts[i]!);
    counts[i]! += room;
    excess -= room;
  }
  if (lastDay === undefined) return counts;
  for (let i = 0; excess > 0 && i < counts.length; i++) {
    while (excess > 0 && startsBeforeSpareDayEnds(bookings[i]!, counts[i]! + 1, lastDay)) {
      counts[i]!++;
      excess--;
    }
  }
  // A cinema whose screens cannot hold its quota even so (a few screens of long films in a small
  // dataset): the first screen plays on past the spare day, so the count stays exact.
  counts[0]! += excess;
  return counts;
}

/** The first minute after the spare day, counted from the last listed day's midnight. */
const SPARE_DAY_END = 2 * 1440;

/**
 * Whether `count` shows on one screen on the last day all start before the spare day ends: laid
 * out as timeShows lays them when they do not fit the usual day (back to back from the first
 * start); when they do fit, the last starts by the usual last start.
 */
function startsBeforeSpareDayEnds(booking: Booking, count: number, weekday: number): boolean {
  const filmAt = filmOrder(booking.films, count);
  let minute = firstStart(weekday);
  for (let i = 0; i < count - 1; i++) minute = Math.ceil((minute + filmAt(i).runtime + TURNAROUND) / 5) * 5;
  return minute < SPARE_DAY_END;
}

/** The film of each of a screen's `count` shows: the matinee film for the first third, if any, then the main one. */
function filmOrder(films: FilmPlan[], count: number): (show: number) => FilmPlan {
  const matinees = films.length === 2 ? Math.ceil(count / 3) : 0;
  return (show) => (show < matinees ? films[0]! : films[films.length - 1]!);
}

function firstStart(weekday: number): number {
  return isWeekend(weekday) ? 10 * 60 : 11 * 60 + 30;
}

/** Lays out `count` starts on one screen: back to back at worst, with free time spread as gaps otherwise. */
function timeShows(
  random: Random,
  cinema: CinemaPlan,
  booking: Booking,
  count: number,
  dayIndex: number,
): Performance[] {
  const { films, screen } = booking;
  const filmAt = filmOrder(films, count);
  const weekday = WEEKDAYS[dayIndex]!;
  const earliest = firstStart(weekday);
  let needed = 0;
  for (let i = 0; i < count - 1; i++) needed += filmAt(i).runtime + TURNAROUND;
  const slack = Math.max(0, LAST_USUAL_START - earliest - needed);
  // Free time goes before the first show, between shows and after the last; a lone show leans to the evening.
  const lead = count === 1 ? 0.4 + 0.5 * random() : random();
  const gaps = Array.from({ length: Math.max(0, count - 1) }, () => random());
  const tail = count === 1 ? 1 - lead : 1.5 * random();
  const unit = slack / (gaps.reduce((a, b) => a + b, lead + tail) || 1);
  const shows: Performance[] = [];
  let at = earliest + lead * unit;
  for (let i = 0; i < count; i++) {
    const minute = Math.ceil(at / 5) * 5;
    shows.push({ cinema, screen, film: filmAt(i), dayIndex, weekday, minute });
    at = minute + filmAt(i).runtime + TURNAROUND + unit * (gaps[i] ?? 0);
  }
  return shows;
}
