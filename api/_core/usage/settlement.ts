/**
 * A request the gateway hands on without seeing its answer (a rewrite; an MCP message, whose tool only
 * the function learns) is counted by the gateway as `cdn`, and settled by the function if it answers
 * it: its own outcome counted, the `cdn` taken back (decision: usage). The internal request carries
 * the day and organization the gateway counted it under, so both counts fall in one row whatever the
 * clocks say, and the operation it counted, the one taken back; the function believes it only on the
 * internal path, which the gateway's secret opens.
 */

/** The internal request's header: `<UTC day> <organization, percent-encoded> <operation counted cdn>`. */
export const USAGE_HEADER = "x-listings-usage";

export interface Settlement {
  day: string;
  organization: string;
  /** The operation the gateway counted `cdn` under: the one taken back. */
  operation: string;
}

const VALUE = /^(\d{4}-\d{2}-\d{2}) (\S{1,1000}) ([A-Za-z0-9_-]{1,100})$/;

export function settlementHeader(settlement: Settlement): string {
  return `${settlement.day} ${encodeURIComponent(settlement.organization)} ${settlement.operation}`;
}

/** What the header says, or undefined when it is absent or not the gateway's. */
export function settlementOf(value: string | undefined): Settlement | undefined {
  const match = value === undefined ? null : VALUE.exec(value);
  if (!match) return undefined;
  try {
    return { day: match[1]!, organization: decodeURIComponent(match[2]!), operation: match[3]! };
  } catch {
    return undefined;
  }
}
