/**
 * WatchGame: the whole game first, then one update per stored change in the order made, ending
 * with the game; and a resumed watch that gets only the moves it missed.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { GameState, WatchGameResponse } from "../gen/damiera/v1/game_service_pb.js";
import { Color, PositionStatus_State, Variant, WinReason } from "../gen/damiera/v1/types_pb.js";
import { clients, createTwoPlayerGame, LIVE_SUITE } from "./live-server.js";

/** The next message of a watch that is not a keep-alive; undefined when the stream has ended. */
async function nextChange(
  watch: AsyncIterator<WatchGameResponse>,
): Promise<WatchGameResponse["event"] | undefined> {
  for (;;) {
    const next = await watch.next();
    if (next.done) return undefined;
    if (next.value.event.case !== "keepAlive") return next.value.event;
  }
}

/** The update's moves as "ply notation" and its state, failing when the change is no update. */
function updateOf(
  event: WatchGameResponse["event"] | undefined,
): [string[], GameState | undefined] {
  assert.equal(event?.case, "update");
  return [event.value.moves.map((move) => `${move.ply} ${move.notation}`), event.value.state];
}

describe("WatchGame", LIVE_SUITE, () => {
  // Each watch ends with its test, passed or failed: the test's signal aborts then.
  test("streams the game, then each move and the resignation in order, then ends", async (t) => {
    const game = await createTwoPlayerGame(Variant.ITALIAN);
    const watch = clients.games
      .watchGame({ name: game.name }, { timeoutMs: 0, signal: t.signal })
      [Symbol.asyncIterator]();

    const first = await nextChange(watch);
    assert.equal(first?.case, "game");
    assert.equal(first.value.name, game.name);
    assert.deepEqual(first.value.moves, []);
    assert.equal(first.value.state?.ply, 0);

    await clients.games.makeMove({ name: game.name, notation: "22-18" }, game.white);
    const [whiteMoves, afterWhite] = updateOf(await nextChange(watch));
    assert.deepEqual(whiteMoves, ["0 22-18"]);
    assert.equal(afterWhite?.ply, 1);
    assert.equal(afterWhite?.position?.sideToMove, Color.BLACK);

    await clients.games.makeMove({ name: game.name, notation: "12-16" }, game.black);
    const [blackMoves, afterBlack] = updateOf(await nextChange(watch));
    assert.deepEqual(blackMoves, ["1 12-16"]);
    assert.equal(afterBlack?.ply, 2);
    assert.equal(
      afterBlack?.position?.fen,
      "W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16",
    );

    await clients.games.resign({ name: game.name }, game.black);
    const [resignationMoves, final] = updateOf(await nextChange(watch));
    assert.deepEqual(resignationMoves, []);
    assert.equal(final?.status?.state, PositionStatus_State.WON);
    assert.equal(final?.status?.winner, Color.WHITE);
    assert.equal(final?.status?.winReason, WinReason.RESIGNATION);

    assert.equal(await nextChange(watch), undefined, "the stream should end with the game");
  });

  test("from_ply resumes with only the moves from that ply on", async (t) => {
    const game = await createTwoPlayerGame(Variant.TURKISH);
    await clients.games.makeMove({ name: game.name, notation: "a3-a4" }, game.white);
    await clients.games.makeMove({ name: game.name, notation: "h6-h5" }, game.black);
    await clients.games.makeMove({ name: game.name, notation: "b3-b4" }, game.white);

    const watch = clients.games
      .watchGame({ name: game.name, fromPly: 1 }, { timeoutMs: 0, signal: t.signal })
      [Symbol.asyncIterator]();
    const [missed, state] = updateOf(await nextChange(watch));

    assert.deepEqual(missed, ["1 h6-h5", "2 b3-b4"]);
    assert.equal(state?.ply, 3);
    assert.equal(state?.status?.state, PositionStatus_State.ONGOING);
  });
});
