/**
 * Turns a failed call into a sentence for the player: the server's message and the
 * `google.rpc.ErrorInfo` reason it carries (AIP-193), such as ILLEGAL_MOVE or NOT_YOUR_TURN; and
 * tells a failure worth trying again from one that would only fail again.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb";

/** What went wrong, as the server put it, with the reason a program would switch on. */
export interface CallFailure {
  /** The status message, for people. */
  readonly message: string;
  /** ErrorInfo's reason; the status code's name when the server sent no ErrorInfo. */
  readonly reason: string;
}

/** Reads the server's answer out of any error a call threw. */
export function callFailure(error: unknown): CallFailure {
  const failure = ConnectError.from(error);
  const [info] = failure.findDetails(ErrorInfoSchema);
  return { message: failure.rawMessage, reason: info?.reason ?? Code[failure.code] };
}

/**
 * True when the same call may well succeed later: the server is unavailable (restarting, or
 * ending its watch streams as it shuts down), the rate limit was hit, or the connection failed,
 * which a browser's fetch does not explain and Connect reports as UNKNOWN.
 */
export function isTransient(error: unknown): boolean {
  const code = ConnectError.from(error).code;
  return code === Code.Unavailable || code === Code.ResourceExhausted || code === Code.Unknown;
}

/** True for the error of a call that this page cancelled itself. */
export function wasCancelled(error: unknown): boolean {
  return ConnectError.from(error).code === Code.Canceled;
}
