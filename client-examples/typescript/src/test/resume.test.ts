/**
 * A watch that outlives a broken stream, without a server: scripted watches break, and the watch
 * resumes from the moves received, only on UNAVAILABLE, a few breaks in a row at most.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import {
  WatchGameResponseSchema,
  type GameService,
  type WatchGameResponse,
} from "../gen/damiera/v1/game_service_pb.js";
import { watchResuming, type GameChange } from "../resume.js";
import { recordingPolicy } from "./recorded-waits.js";

/** `count` moves from ply `from` on. */
function moves(from: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({ ply: from + i, notation: `move ${from + i}` }));
}

/** The first message of a watch from the start: the whole game of `plies` moves. */
function wholeGame(plies: number): WatchGameResponse {
  const value = { moves: moves(0, plies), state: { ply: plies } };
  return create(WatchGameResponseSchema, { event: { case: "game", value } });
}

/** `count` new moves from ply `from` on. */
function update(from: number, count: number): WatchGameResponse {
  const value = { moves: moves(from, count), state: { ply: from + count } };
  return create(WatchGameResponseSchema, { event: { case: "update", value } });
}

const KEEP_ALIVE = create(WatchGameResponseSchema, { event: { case: "keepAlive", value: {} } });

/** How a server that shuts down ends a watch. */
function shutdown(): ConnectError {
  return new ConnectError("the server is shutting down: watch again", Code.Unavailable);
}

/**
 * A game service whose watches answer `scripts` in turn: messages, then the end of the stream or
 * an error. Records each watch's `fromPly` and signal.
 */
function scriptedWatches(...scripts: (WatchGameResponse | ConnectError)[][]) {
  const fromPlies: (number | undefined)[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const watchGame: Client<typeof GameService>["watchGame"] = (request, options) => {
    fromPlies.push(request.fromPly);
    signals.push(options?.signal);
    const script = scripts[fromPlies.length - 1] ?? [];
    return (async function* () {
      for (const step of script) {
        if (step instanceof ConnectError) throw step;
        yield step;
      }
    })();
  };
  return { games: { watchGame }, fromPlies, signals };
}

/** The plies of every move the changes brought, in order. */
async function pliesOf(changes: AsyncIterable<GameChange>): Promise<number[]> {
  const plies: number[] = [];
  for await (const change of changes) plies.push(...change.moves.map((move) => move.ply));
  return plies;
}

describe("watchResuming", () => {
  test("watches again from the moves received when the stream breaks", async () => {
    const { games, fromPlies } = scriptedWatches(
      [wholeGame(2), update(2, 1), shutdown()],
      [update(3, 2)],
    );
    const [policy, waits] = recordingPolicy(3, 100);
    assert.deepEqual(await pliesOf(watchResuming(games, "games/1", { policy })), [0, 1, 2, 3, 4]);
    assert.deepEqual(fromPlies, [undefined, 3]);
    assert.deepEqual(waits, [100]);
  });

  test("a break before the whole game came asks for the whole game again", async () => {
    const { games, fromPlies } = scriptedWatches([shutdown()], [wholeGame(2)]);
    const [policy] = recordingPolicy(3, 100);
    assert.deepEqual(await pliesOf(watchResuming(games, "games/1", { policy })), [0, 1]);
    assert.deepEqual(fromPlies, [undefined, undefined]);
  });

  test("gives up after as many breaks in a row as the policy's attempts", async () => {
    const last = shutdown();
    const { games, fromPlies } = scriptedWatches([shutdown()], [shutdown()], [last], []);
    const [policy, waits] = recordingPolicy(3, 100);
    await assert.rejects(pliesOf(watchResuming(games, "games/1", { policy })), last);
    assert.equal(fromPlies.length, 3);
    assert.deepEqual(waits, [100, 200]);
  });

  test("a message between breaks, a keep-alive too, starts the count again", async () => {
    const { games, fromPlies } = scriptedWatches(
      [wholeGame(1), shutdown()],
      [KEEP_ALIVE, shutdown()],
      [update(1, 1)],
    );
    const [policy, waits] = recordingPolicy(2, 100);
    assert.deepEqual(await pliesOf(watchResuming(games, "games/1", { policy })), [0, 1]);
    assert.deepEqual(fromPlies, [undefined, 1, 1]);
    assert.deepEqual(waits, [100, 100]);
  });

  test("any other error ends the watch at once", async () => {
    const notFound = new ConnectError("no such game", Code.NotFound);
    const { games, fromPlies } = scriptedWatches([notFound], [wholeGame(0)]);
    const [policy, waits] = recordingPolicy(3, 100);
    await assert.rejects(pliesOf(watchResuming(games, "games/1", { policy })), notFound);
    assert.equal(fromPlies.length, 1);
    assert.deepEqual(waits, []);
  });

  test("leaving the loop early aborts the stream", async () => {
    const { games, signals } = scriptedWatches([wholeGame(1), update(1, 1)]);
    for await (const _ of watchResuming(games, "games/1")) break;
    assert.equal(signals[0]?.aborted, true);
  });
});
