/**
 * Damiera's errors decoded from the wire: the status code, and the reason and metadata of the
 * ErrorInfo in Damiera's domain (an ErrorInfo of another domain would leave the reason undefined).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code } from "@connectrpc/connect";
import { Variant } from "../gen/damiera/v1/types_pb.js";
import { actAsSeat } from "../seat.js";
import { clients, createTwoPlayerGame, failureOf, LIVE_SUITE } from "./live-server.js";

const ITALIAN_START_MOVES = "21-17 22-18 23-19 24-20 21-18 22-19 23-20";

describe("errors", LIVE_SUITE, () => {
  test("ApplyMove of an illegal move: ILLEGAL_MOVE with the legal moves", async () => {
    const error = await failureOf(
      clients.rules.applyMove({ variant: Variant.ITALIAN, fen: "W:W22,23:B18", notation: "22-17" }),
    );
    assert.equal(error.code, Code.InvalidArgument);
    assert.equal(error.reason, "ILLEGAL_MOVE");
    assert.deepEqual(error.metadata, { legalMoves: "22x13" });
  });

  test("a FEN that is no position: INVALID_FEN naming the token at fault", async () => {
    const error = await failureOf(
      clients.rules.listLegalMoves({ variant: Variant.ITALIAN, fen: "X:W21:B1" }),
    );
    assert.equal(error.code, Code.InvalidArgument);
    assert.equal(error.reason, "INVALID_FEN");
    assert.deepEqual(error.metadata, { token: "X" });
  });

  test("no variant: UNSUPPORTED_VARIANT", async () => {
    const error = await failureOf(clients.rules.listLegalMoves({ variant: Variant.UNSPECIFIED }));
    assert.equal(error.code, Code.InvalidArgument);
    assert.equal(error.reason, "UNSUPPORTED_VARIANT");
  });

  test("MakeMove of an illegal move in a hosted game: ILLEGAL_MOVE, as in ApplyMove", async () => {
    const game = await createTwoPlayerGame(Variant.ITALIAN);
    const error = await failureOf(
      clients.games.makeMove({ name: game.name, notation: "22-17" }, game.white),
    );
    assert.equal(error.code, Code.InvalidArgument);
    assert.equal(error.reason, "ILLEGAL_MOVE");
    assert.deepEqual(error.metadata, { legalMoves: ITALIAN_START_MOVES });
  });

  test("seat actions: MISSING_TOKEN, WRONG_TOKEN, NOT_YOUR_TURN, STALE_STATE", async () => {
    const game = await createTwoPlayerGame(Variant.ITALIAN);
    const move = { name: game.name, notation: "22-18" };
    const byBlack = { name: game.name, notation: "9-13" };
    const staleMove = { ...move, expectedPly: 3 };
    const expectations = [
      [() => clients.games.makeMove(move), Code.Unauthenticated, "MISSING_TOKEN"],
      [() => clients.games.makeMove(move, actAsSeat("nope")), Code.PermissionDenied, "WRONG_TOKEN"],
      [() => clients.games.makeMove(byBlack, game.black), Code.FailedPrecondition, "NOT_YOUR_TURN"],
      [() => clients.games.makeMove(staleMove, game.white), Code.Aborted, "STALE_STATE"],
    ] as const;
    for (const [call, code, reason] of expectations) {
      const error = await failureOf(call());
      assert.deepEqual([Code[error.code], error.reason], [Code[code], reason]);
    }
  });

  test("an unknown game: NOT_FOUND, GAME_NOT_FOUND", async () => {
    const error = await failureOf(clients.games.getGame({ name: "games/0123456789abcdef" }));
    assert.equal(error.code, Code.NotFound);
    assert.equal(error.reason, "GAME_NOT_FOUND");
  });
});
