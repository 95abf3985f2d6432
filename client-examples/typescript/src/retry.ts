/**
 * Retries of calls that are safe to repeat: reads, and changes made idempotent by a
 * `request_id`. Only the refusals docs/api.md calls retryable are retried, all answered before
 * the server acted: OVERLOADED, RATE_LIMITED, CONTENDED and STORE_UNAVAILABLE, after the server's
 * `RetryInfo` delay when it sends one. This loop stays, where the Go, Kotlin and Python clients
 * leave UNAVAILABLE to Damiera's gRPC service config (proto/service_config.json): Connect, which
 * this client speaks gRPC with, reads no service config and has no retry policy of its own.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { decodeDamieraError, retryDelayMs } from "./errors.js";

/** How hard to try. */
export interface RetryPolicy {
  /** Calls in all, the first one included. */
  readonly attempts: number;
  /** The wait before a retry when the server gave no RetryInfo; doubled after each retry. */
  readonly backoffMs: number;
  /** How to wait `ms`; the timers' own unless given (a test records the waits instead). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Three calls, 200 ms apart and then 400 ms unless the server says otherwise. */
const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, backoffMs: 200 };

/**
 * The ErrorInfo reasons worth a retry: the server refused for now and changed nothing. Decided by
 * reason, not by code: STALE_STATE is ABORTED like CONTENDED but wants the game read again, and a
 * RESOURCE_EXHAUSTED without a reason (a message over the size limit) would fail every time.
 */
const RETRIED_REASONS: ReadonlySet<string> = new Set([
  "OVERLOADED", // RESOURCE_EXHAUSTED: every search thread busy and the queue full
  "RATE_LIMITED", // RESOURCE_EXHAUSTED: this client is over the server's --rate-limit
  "CONTENDED", // ABORTED: the game changed too often while the call was being applied
  "STORE_UNAVAILABLE", // UNAVAILABLE: the database did not answer; nothing was changed
]);

/** Calls `call` until it succeeds, fails for a reason not worth a retry, or runs out of tries. */
export async function withRetries<T>(
  call: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const { reason } = decodeDamieraError(error);
      if (attempt >= policy.attempts || reason === undefined || !RETRIED_REASONS.has(reason)) {
        throw error;
      }
      await pauseBeforeRetry(error, attempt, policy);
    }
  }
}

/**
 * Waits before retry number `retry` (1 for the first) after `error`: the server's RetryInfo delay
 * when it sent one, else the policy's backoff doubled for each retry before this one.
 */
export function pauseBeforeRetry(
  error: unknown,
  retry: number,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<void> {
  const ms = retryDelayMs(error) ?? policy.backoffMs * 2 ** (retry - 1);
  return policy.sleep ? policy.sleep(ms, signal) : sleep(ms, undefined, { signal });
}
