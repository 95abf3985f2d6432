/** The words the example prints, without a server: moves with their clocks, and results. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import { describeClock, describeMove, describeStatus } from "../describe.js";
import { AbortReason, GameMoveSchema } from "../gen/damiera/v1/game_service_pb.js";
import {
  Color,
  PositionStatusSchema,
  PositionStatus_State,
  WinReason,
} from "../gen/damiera/v1/types_pb.js";

describe("describe", () => {
  test("clocks in whole seconds, rounded down", () => {
    assert.deepEqual(
      [171_900, 0, 3_900_000].map((ms) => describeClock(durationFromMs(ms))),
      ["2:51", "0:00", "1:05:00"],
    );
  });

  test("a move shows its mover's clock in a timed game only", () => {
    const move = create(GameMoveSchema, { ply: 3, color: Color.BLACK, notation: "11-15" });
    assert.equal(describeMove(move), "ply   3  Black  11-15");
    move.clock = durationFromMs(178_400);
    assert.equal(describeMove(move), "ply   3  Black  11-15  2:58");
  });

  test("results on time, by abandonment and aborted", () => {
    const won = (winner: Color, winReason: WinReason) =>
      create(PositionStatusSchema, { state: PositionStatus_State.WON, winner, winReason });
    assert.equal(describeStatus(won(Color.BLACK, WinReason.TIME)), "Black wins (White lost on time)");
    assert.equal(
      describeStatus(won(Color.WHITE, WinReason.ABANDONMENT)),
      "White wins (Black abandoned the game)",
    );
    assert.equal(describeStatus(won(Color.WHITE, WinReason.NO_PIECES)), "White wins (no pieces)");
    const aborted = create(PositionStatusSchema, { state: PositionStatus_State.ABORTED });
    assert.equal(describeStatus(aborted, AbortReason.NO_FIRST_MOVE), "aborted (no first move)");
  });
});
