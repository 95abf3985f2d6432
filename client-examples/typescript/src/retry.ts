/**
 * Retries of calls that are safe to repeat: reads, and changes made idempotent by a
 * `request_id`. Only the codes that say "try again later" are retried, after the server's
 * `RetryInfo` delay when it sends one (OVERLOADED, RATE_LIMITED, STORE_UNAVAILABLE).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import { retryDelayMs } from "./errors.js";

/** How hard to try. */
export interface RetryPolicy {
  /** Calls in all, the first one included. */
  readonly attempts: number;
  /** The wait before a retry when the server gave no RetryInfo; doubled after each retry. */
  readonly backoffMs: number;
}

/** Three calls, 200 ms apart and then 400 ms unless the server says otherwise. */
const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, backoffMs: 200 };

/**
 * The codes worth a retry: the server is busy or unreachable for now. ABORTED is left out on
 * purpose: Damiera answers it for a stale `expected_ply`/`etag`, which wants the game read again.
 */
const RETRYABLE_CODES: ReadonlySet<Code> = new Set([Code.Unavailable, Code.ResourceExhausted]);

/** Calls `call` until it succeeds, fails with a code not worth a retry, or runs out of attempts. */
export async function withRetries<T>(
  call: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  let backoffMs = policy.backoffMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= policy.attempts || !RETRYABLE_CODES.has(ConnectError.from(error).code)) {
        throw error;
      }
      await sleep(retryDelayMs(error) ?? backoffMs);
      backoffMs *= 2;
    }
  }
}
