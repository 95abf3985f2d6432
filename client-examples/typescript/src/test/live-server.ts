/**
 * What the tests share: clients connected to the live server named by DAMIERA_URL or
 * DAMIERA_ADDR, a deadline per suite, a game between two people, and the decoded error of a call
 * that must fail.
 */
import assert from "node:assert/strict";
import type { CallOptions } from "@connectrpc/connect";
import { createDamieraClients } from "../clients.js";
import { serverConfigFromEnv } from "../config.js";
import { decodeDamieraError, type DamieraError } from "../errors.js";
import type { Variant } from "../gen/damiera/v1/types_pb.js";
import { actAsSeat } from "../seat.js";
import { createDamieraTransport } from "../transport.js";

/** One connection for every test of a file. */
export const clients = createDamieraClients(createDamieraTransport(serverConfigFromEnv()));

/**
 * The options of every suite that talks to the server: a deadline far beyond what its tests take
 * on a busy machine, there only so that a hung call fails the suite instead of stalling CI. A test
 * that opens a stream passes it the test's `signal`, which aborts when the test ends, however.
 */
export const LIVE_SUITE = { timeout: 120_000 } as const;

/** A hosted game with a person at each seat, and the call options that act for each. */
export interface TwoPlayerGame {
  readonly name: string;
  readonly white: CallOptions;
  readonly black: CallOptions;
}

/** Creates a game between two people, from the variant's start position. */
export async function createTwoPlayerGame(variant: Variant): Promise<TwoPlayerGame> {
  const created = await clients.games.createGame({ variant });
  assert.ok(created.game, "CreateGame answered no game");
  return {
    name: created.game.name,
    white: actAsSeat(created.whiteToken),
    black: actAsSeat(created.blackToken),
  };
}

/** Awaits a call that must fail and answers its decoded error. */
export async function failureOf(call: Promise<unknown>): Promise<DamieraError> {
  try {
    await call;
  } catch (error) {
    return decodeDamieraError(error);
  }
  assert.fail("the call succeeded, but it should have failed");
}
