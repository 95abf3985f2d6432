/** A retry policy whose waits are recorded, not waited: retries tested without measuring time. */
import type { RetryPolicy } from "../retry.js";

/** A policy of `attempts` tries and `backoffMs`, and the list its waits go to, in order. */
export function recordingPolicy(attempts: number, backoffMs: number): [RetryPolicy, number[]] {
  const waits: number[] = [];
  return [{ attempts, backoffMs, sleep: async (ms) => void waits.push(ms) }, waits];
}
