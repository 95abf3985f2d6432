/** The call options that act for one seat of a hosted game: its secret token as a bearer token. */
import type { CallOptions } from "@connectrpc/connect";

/** Options for MakeMove, Resign and the other seat actions, sent with the seat's token. */
export function actAsSeat(token: string): CallOptions {
  return { headers: { authorization: `Bearer ${token}` } };
}
