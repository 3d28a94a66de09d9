/** A failure with its exit status, thrown so that the lock is given back before the process exits. */
export class KeysFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
