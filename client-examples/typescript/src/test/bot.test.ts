/**
 * The example bot plays a hosted game against the engine to the end, from a position near it, and
 * plays on when its watch of the game breaks.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { playAgainstEngine, type BotGameOptions } from "../bot.js";
import type { GameMove, GameService } from "../gen/damiera/v1/game_service_pb.js";
import { Color, PositionStatus_State, Variant, WinReason } from "../gen/damiera/v1/types_pb.js";
import { clients, LIVE_SUITE } from "./live-server.js";

// White: a king on 6 and a man on 14; Black: a lone man on 12. White to move wins by force. The
// FEN is written the server's way, as the game's start position answers it.
const WHITE_WINS_SOON = "W:WK6,14:B12";

/** The game both tests play, ended with the test's `signal`, every move given to `onMove`. */
function winningGame(signal: AbortSignal, onMove: (move: GameMove) => void): BotGameOptions {
  return {
    variant: Variant.ITALIAN,
    fen: WHITE_WINS_SOON,
    // Depth limits, not move times: the same moves on a busy machine as on an idle one.
    bot: { level: 20, limits: { depth: 6 } },
    opponent: { level: 20, limits: { depth: 4 } },
    onMove,
    signal,
  };
}

/** A move as "ply notation". */
function plyAndNotation(move: GameMove): string {
  return `${move.ply} ${move.notation}`;
}

/**
 * The game service, but its first watch breaks after `messages` messages the way a server that
 * shuts down ends it: UNAVAILABLE, "watch again with from_ply N". Records each watch's `fromPly`,
 * and how many moves `arrived` held when the watch broke.
 */
function firstWatchBreaking(messages: number, arrived: readonly GameMove[]) {
  const fromPlies: (number | undefined)[] = [];
  const breakAt = { arrived: 0 };
  async function* breaking<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
    let count = 0;
    for await (const message of stream) {
      if (count++ === messages) {
        breakAt.arrived = arrived.length;
        throw new ConnectError(`watch again with from_ply ${arrived.length}`, Code.Unavailable);
      }
      yield message;
    }
  }
  const watchGame: Client<typeof GameService>["watchGame"] = (request, options) => {
    fromPlies.push(request.fromPly);
    const stream = clients.games.watchGame(request, options);
    return fromPlies.length === 1 ? breaking(stream) : stream;
  };
  return { games: { ...clients.games, watchGame }, fromPlies, breakAt };
}

describe("the bot", LIVE_SUITE, () => {
  test("plays a game against the engine to the end and wins it", async (t) => {
    const arrived: GameMove[] = [];
    const game = await playAgainstEngine(clients, winningGame(t.signal, (m) => arrived.push(m)));

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
    assert.equal(game.moves.at(-1)?.structured?.captures.length, 1);

    // The server's record is the game the bot watched, and told of move by move.
    const { game: stored } = await clients.games.getGame({ name: game.name });
    assert.equal(stored?.startPosition?.fen, WHITE_WINS_SOON);
    assert.deepEqual(game.moves.map(plyAndNotation), stored?.moves.map(plyAndNotation));
    assert.deepEqual(arrived.map(plyAndNotation), stored?.moves.map(plyAndNotation));
  });

  test("watches again from the moves it has when the watch breaks, and wins", async (t) => {
    const arrived: GameMove[] = [];
    const broken = firstWatchBreaking(2, arrived);
    const game = await playAgainstEngine(
      { ...clients, games: broken.games },
      winningGame(t.signal, (move) => arrived.push(move)),
    );

    assert.ok(broken.breakAt.arrived > 0, "the watch broke before any move arrived");
    assert.deepEqual(broken.fromPlies, [undefined, broken.breakAt.arrived]);
    assert.equal(game.state.status?.winner, Color.WHITE);
    // Every move arrived exactly once, across the break.
    const { game: stored } = await clients.games.getGame({ name: game.name });
    assert.deepEqual(arrived.map(plyAndNotation), stored?.moves.map(plyAndNotation));
  });
});
