/** The retry policy, without a server: which codes are retried, and the RetryInfo delay obeyed. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code, ConnectError } from "@connectrpc/connect";
import { retryDelayMs } from "../errors.js";
import { RetryInfoSchema } from "../gen/google/rpc/error_details_pb.js";
import { withRetries } from "../retry.js";

/** An error like the server's OVERLOADED: RESOURCE_EXHAUSTED with a RetryInfo of `delayMs`. */
function overloaded(delayMs: number): ConnectError {
  return new ConnectError("every search thread is busy", Code.ResourceExhausted, undefined, [
    { desc: RetryInfoSchema, value: { retryDelay: { seconds: 0n, nanos: delayMs * 1e6 } } },
  ]);
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
    assert.equal(retryDelayMs(overloaded(25)), 25);
    assert.equal(retryDelayMs(new ConnectError("no details", Code.Unavailable)), undefined);
  });

  test("retries RESOURCE_EXHAUSTED and UNAVAILABLE, waiting the RetryInfo delay", async () => {
    const unavailable = new ConnectError("down", Code.Unavailable);
    const { call, counter } = failingCall(overloaded(30), unavailable);
    const started = performance.now();
    assert.equal(await withRetries(call, { attempts: 3, backoffMs: 1 }), "done");
    assert.equal(counter.calls, 3);
    assert.ok(performance.now() - started >= 30, "the RetryInfo delay was not waited");
  });

  test("does not retry an error the caller must fix", async () => {
    const illegal = new ConnectError("not a legal move", Code.InvalidArgument);
    const { call, counter } = failingCall(illegal);
    await assert.rejects(withRetries(call, { attempts: 3, backoffMs: 1 }), illegal);
    assert.equal(counter.calls, 1);
  });

  test("gives up after the last attempt with the last error", async () => {
    const last = overloaded(1);
    const { call, counter } = failingCall(overloaded(1), last, overloaded(1));
    await assert.rejects(withRetries(call, { attempts: 2, backoffMs: 1 }), last);
    assert.equal(counter.calls, 2);
  });
});
