/**
 * Reports a condition that is checked again and again (on every request, or every few hundred
 * milliseconds) once per problem and once when it ends, never once per check: an access file
 * that went missing, a store that is down, an Edge Config item that is broken.
 */
export interface ProblemReport {
  /**
   * Reports `message` unless its problem is the one already reported: the problem is `kind` when
   * given (an outage whose reason changes between attempts is still one outage), else the message.
   */
  problem(message: string, kind?: string): void;
  /** Reports `message` if a problem was reported and not yet resolved. */
  resolved(message: string): void;
  /** Whether a problem is reported and not yet resolved. */
  readonly failing: boolean;
}

export function problemReport(report: (message: string) => void = () => {}): ProblemReport {
  let current: string | undefined;
  return {
    problem(message, kind = message) {
      if (kind !== current) report(message);
      current = kind;
    },
    resolved(message) {
      if (current !== undefined) report(message);
      current = undefined;
    },
    get failing() {
      return current !== undefined;
    },
  };
}
