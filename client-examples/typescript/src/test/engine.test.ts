/** EngineService: a depth-limited search answers the one winning move and says why it stopped. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code } from "@connectrpc/connect";
import { StopReason } from "../gen/damiera/v1/engine_service_pb.js";
import { Variant } from "../gen/damiera/v1/types_pb.js";
import { clients, failureOf, LIVE_SUITE } from "./live-server.js";

describe("EngineService", LIVE_SUITE, () => {
  test("BestMove finds the double capture that wins at once", async () => {
    const { result } = await clients.engine.bestMove({
      search: { variant: Variant.ITALIAN, fen: "W:W22:B18,10", limits: { depth: 4 } },
    });
    assert.equal(result?.bestMove?.notation, "22x13x6");
    assert.deepEqual(result?.score?.value, { case: "winInPlies", value: 1 });
    assert.equal(result?.stopReason, StopReason.LIMIT);
  });

  test("BestMove after the game's last move: GAME_OVER", async () => {
    const error = await failureOf(
      clients.engine.bestMove({
        search: {
          variant: Variant.ITALIAN,
          fen: "W:W22:B18,10",
          moves: ["22x6"],
          limits: { depth: 2 },
        },
      }),
    );
    assert.equal(error.code, Code.FailedPrecondition);
    assert.equal(error.reason, "GAME_OVER");
  });
});
