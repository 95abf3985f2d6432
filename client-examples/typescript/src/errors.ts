/**
 * Damiera's errors as a program reads them (Google AIP-193): the status code, and the
 * `google.rpc.ErrorInfo` in the status details whose `reason` says what went wrong.
 */
import { durationMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema, RetryInfoSchema } from "./gen/google/rpc/error_details_pb.js";

/** The domain of every ErrorInfo that Damiera sends. */
const DAMIERA_ERROR_DOMAIN = "damiera.dev";

/** A failed call, decoded. */
export interface DamieraError {
  /** The gRPC status code, e.g. `Code.InvalidArgument`. */
  readonly code: Code;
  /** The message for people, without the code in front. */
  readonly message: string;
  /** What a program switches on (ILLEGAL_MOVE, GAME_NOT_FOUND, …); undefined without one. */
  readonly reason: string | undefined;
  /** The ErrorInfo's facts, such as `legalMoves` for ILLEGAL_MOVE; empty without one. */
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * Decodes any error thrown by a call. Errors that did not come from the wire (a refused
 * connection, a deadline passed on this side) have a code but no ErrorInfo.
 */
export function decodeDamieraError(error: unknown): DamieraError {
  const connectError = ConnectError.from(error);
  const info = connectError
    .findDetails(ErrorInfoSchema)
    .find((detail) => detail.domain === DAMIERA_ERROR_DOMAIN);
  return {
    code: connectError.code,
    message: connectError.rawMessage,
    reason: info?.reason,
    metadata: info?.metadata ?? {},
  };
}

/** How long the server asked the client to wait before retrying, from a `google.rpc.RetryInfo`. */
export function retryDelayMs(error: unknown): number | undefined {
  const delay = ConnectError.from(error).findDetails(RetryInfoSchema)[0]?.retryDelay;
  return delay ? durationMs(delay) : undefined;
}
