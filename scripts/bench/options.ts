/** The bench's command-line values: sizes such as `200k` or `2M`, and the history bench's `SIZE:DAYS` list. */

/** A number of showtimes: digits with an optional k (thousand) or M (million). */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim());
  if (!match) throw new Error(`bad size ${JSON.stringify(text)}: write 20k, 200k or 2M`);
  const unit = match[2]!.toLowerCase() === "k" ? 1e3 : match[2]!.toLowerCase() === "m" ? 1e6 : 1;
  const size = Math.round(Number(match[1]) * unit);
  if (size < 1) throw new Error(`bad size ${JSON.stringify(text)}: at least one showtime`);
  return size;
}

/** The most days of churn one history run builds (a year of daily builds). */
export const MAX_HISTORY_DAYS = 365;

/** `200k:30,2M:3`: at each size, how many days of churn to build after the first day. */
export function parseHistory(text: string): Array<{ showtimes: number; days: number }> {
  return text.split(",").map((item) => {
    const [size, days, extra] = item.split(":");
    if (size === undefined || days === undefined || extra !== undefined)
      throw new Error(`bad --history item ${JSON.stringify(item)}: write SIZE:DAYS, such as 200k:30`);
    if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > MAX_HISTORY_DAYS)
      throw new Error(
        `bad --history item ${JSON.stringify(item)}: DAYS must be a whole number from 1 to ${MAX_HISTORY_DAYS}`,
      );
    return { showtimes: parseSize(size), days: Number(days) };
  });
}
