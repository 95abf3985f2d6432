/**
 * The retry policy, without a server: which refusals are retried (by ErrorInfo reason, not by
 * code), the waits asked for (the RetryInfo delay, else the doubling backoff), and giving up.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { retryDelayMs } from "../errors.js";
import { ErrorInfoSchema, RetryInfoSchema } from "../gen/google/rpc/error_details_pb.js";
import { withRetries } from "../retry.js";
import { recordingPolicy } from "./recorded-waits.js";

/** An error as the server sends it: a code, an ErrorInfo `reason`, and a RetryInfo of `delayMs`. */
function refusal(code: Code, reason: string, delayMs?: number): ConnectError {
  const errorInfo = { desc: ErrorInfoSchema, value: { reason, domain: "damiera.dev" } };
  const retryInfo =
    delayMs === undefined
      ? []
      : [{ desc: RetryInfoSchema, value: { retryDelay: durationFromMs(delayMs) } }];
  return new ConnectError(reason, code, undefined, [errorInfo, ...retryInfo]);
}

/** A call that fails with `errors`, one per call, then answers "done"; counts its calls. */
function failingCall(...errors: ConnectError[]) {
  const counter = { calls: 0 };
  const call = async () => {
    const error = errors[counter.calls++];
    if (error) throw error;
    return "done";
  };
  return { call, counter };
}

describe("withRetries", () => {
  test("reads the server's RetryInfo delay", () => {
    assert.equal(retryDelayMs(refusal(Code.ResourceExhausted, "OVERLOADED", 1500)), 1500);
    assert.equal(retryDelayMs(new ConnectError("no details", Code.Unavailable)), undefined);
  });

  test("retries the four retryable reasons, waiting RetryInfo's delay or the backoff", async () => {
    const { call, counter } = failingCall(
      refusal(Code.ResourceExhausted, "OVERLOADED", 1000),
      refusal(Code.ResourceExhausted, "RATE_LIMITED", 250),
      refusal(Code.Aborted, "CONTENDED"),
      refusal(Code.Unavailable, "STORE_UNAVAILABLE", 1000),
    );
    const [policy, waits] = recordingPolicy(5, 100);
    assert.equal(await withRetries(call, policy), "done");
    assert.equal(counter.calls, 5);
    // CONTENDED, the third retry, has no RetryInfo: the backoff, doubled twice.
    assert.deepEqual(waits, [1000, 250, 400, 1000]);
  });

  for (const [what, error] of [
    ["STALE_STATE (ABORTED too)", refusal(Code.Aborted, "STALE_STATE")],
    ["an ILLEGAL_MOVE", refusal(Code.InvalidArgument, "ILLEGAL_MOVE")],
    ["a RESOURCE_EXHAUSTED of no reason", new ConnectError("too large", Code.ResourceExhausted)],
    ["an UNAVAILABLE of no reason", new ConnectError("connection refused", Code.Unavailable)],
  ] as const) {
    test(`does not retry ${what}`, async () => {
      const { call, counter } = failingCall(error);
      const [policy, waits] = recordingPolicy(3, 100);
      await assert.rejects(withRetries(call, policy), error);
      assert.equal(counter.calls, 1);
      assert.deepEqual(waits, []);
    });
  }

  test("gives up after the last attempt with the last error", async () => {
    const last = refusal(Code.ResourceExhausted, "OVERLOADED", 1000);
    const { call, counter } = failingCall(refusal(Code.Aborted, "CONTENDED"), last, last);
    const [policy, waits] = recordingPolicy(2, 100);
    await assert.rejects(withRetries(call, policy), last);
    assert.equal(counter.calls, 2);
    assert.deepEqual(waits, [100]);
  });
});
