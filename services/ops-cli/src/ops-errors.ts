// The two ways a command ends badly, each with its exit code: the operator asked for something the
// CLI does not offer (2, the usage follows), or the system did not do what was asked (1, one line).

/** Exit 2: the command line is wrong; the usage text is printed after the message. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Exit 1: a broker unreachable, a topic or group that does not exist, a replay that failed. */
export class OpsFailure extends Error {
  override readonly name = 'OpsFailure';
  constructor(readonly code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
