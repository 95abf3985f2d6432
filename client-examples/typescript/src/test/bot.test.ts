/** The example bot plays a hosted game against the engine to the end, from a position near it. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { playAgainstEngine } from "../bot.js";
import type { GameMove } from "../gen/damiera/v1/game_service_pb.js";
import { Color, PositionStatus_State, Variant, WinReason } from "../gen/damiera/v1/types_pb.js";
import { clients } from "./live-server.js";

// White: a king on 6 and a man on 14; Black: a lone man on 12. White to move wins by force. The
// FEN is written the server's way, as the game's start position answers it.
const WHITE_WINS_SOON = "W:WK6,14:B12";

describe("the bot", () => {
  test("plays a game against the engine to the end and wins it", async () => {
    const arrived: GameMove[] = [];
    const game = await playAgainstEngine(clients, {
      variant: Variant.ITALIAN,
      fen: WHITE_WINS_SOON,
      // Depth limits, not move times: the same moves on a busy machine as on an idle one.
      bot: { level: 20, limits: { depth: 6 } },
      opponent: { level: 20, limits: { depth: 4 } },
      onMove: (move) => arrived.push(move),
    });

    assert.equal(game.state.status?.state, PositionStatus_State.WON);
    assert.equal(game.state.status?.winner, Color.WHITE);
    assert.equal(game.state.status?.winReason, WinReason.NO_PIECES);
    assert.equal(game.state.ply, game.moves.length);
    // White (the bot) and Black (the engine) took turns from ply 0, and White took the last man.
    game.moves.forEach((move, ply) => {
      assert.equal(move.ply, ply);
      assert.equal(move.color, ply % 2 === 0 ? Color.WHITE : Color.BLACK);
    });
    assert.equal(game.moves.at(-1)?.color, Color.WHITE);
    assert.equal(game.moves.at(-1)?.move?.captures.length, 1);
    assert.deepEqual(arrived, game.moves);

    // The server's record is the game the bot watched.
    const stored = await clients.games.getGame({ name: game.name });
    assert.deepEqual(
      stored.game?.moves.map((move) => move.notation),
      game.moves.map((move) => move.notation),
    );
    assert.equal(stored.game?.startPosition?.fen, WHITE_WINS_SOON);
  });
});
