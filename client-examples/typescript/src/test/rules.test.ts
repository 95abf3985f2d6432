/** RulesService answers, checked against the rules: legal moves, a capture played, perft counts. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Color, PositionStatus_State, Variant, WinReason } from "../gen/damiera/v1/types_pb.js";
import { clients, LIVE_SUITE } from "./live-server.js";

describe("RulesService", LIVE_SUITE, () => {
  test("the Italian start position has exactly these 7 moves", async () => {
    const answer = await clients.rules.listLegalMoves({ variant: Variant.ITALIAN });
    assert.deepEqual(
      answer.moves.map((move) => move.notation),
      ["21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"],
    );
    assert.equal(answer.mustCapture, false);
  });

  test("the Triestina start has 9 moves and the Turkish start 8", async () => {
    const triestina = await clients.rules.listLegalMoves({ variant: Variant.TRIESTINA });
    const turkish = await clients.rules.listLegalMoves({ variant: Variant.TURKISH });
    assert.equal(triestina.moves.length, 9);
    assert.deepEqual(
      turkish.moves.map((move) => move.notation),
      ["a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"],
    );
  });

  test("a position with captures lists only the captures, and says so", async () => {
    const answer = await clients.rules.listLegalMoves({
      variant: Variant.ITALIAN,
      fen: "W:W22,23,K31:B18,19,11,10",
    });
    assert.deepEqual(
      answer.moves.map((move) => move.notation),
      ["22x13x6", "22x15x6", "23x14x5", "23x14x7"],
    );
    assert.equal(answer.mustCapture, true);
  });

  test("a double capture given in short form is played in full and wins", async () => {
    const answer = await clients.rules.applyMove({
      variant: Variant.ITALIAN,
      fen: "W:W22:B18,10",
      notation: "22x6",
    });
    assert.equal(answer.playedMove?.notation, "22x13x6");
    assert.deepEqual(answer.playedMove?.path, ["13", "6"]);
    assert.deepEqual(answer.playedMove?.captures, ["18", "10"]);
    assert.equal(answer.position?.fen, "B:W6:B");
    assert.equal(answer.status?.state, PositionStatus_State.WON);
    assert.equal(answer.status?.winner, Color.WHITE);
    assert.equal(answer.status?.winReason, WinReason.NO_PIECES);
  });

  // The counts of the engine's own perft table (service/engine/tests/data/start.perft).
  for (const [variant, nodes] of [
    [Variant.ITALIAN, 1469n],
    [Variant.TRIESTINA, 4265n],
    [Variant.TURKISH, 7538n],
  ] as const) {
    test(`perft 4 from the ${Variant[variant]} start counts ${nodes} sequences`, async () => {
      const answer = await clients.rules.perft({ variant, depth: 4 });
      assert.equal(answer.nodes, nodes);
    });
  }
});
