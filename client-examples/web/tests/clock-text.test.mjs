// @ts-check
/**
 * The words and numbers of a timed game, without a server: the clock faces, the results on time,
 * by abandonment and aborted, and the form's clock options as CreateGame's time control. The
 * TypeScript modules are loaded through Vite, as the page loads them.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

/** @type {import("vite").ViteDevServer} */
let vite;
/** @type {typeof import("../src/clock-view").clockText} */
let clockText;
/** @type {typeof import("../src/game-text").resultText} */
let resultText;
/** @type {typeof import("../src/setup-form").timeControlOf} */
let timeControlOf;
/** @type {typeof import("../src/gen/damiera/v1/types_pb")} */
let types;
/** @type {typeof import("../src/gen/damiera/v1/game_service_pb").AbortReason} */
let AbortReason;

before(async () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  vite = await createServer({ root, logLevel: "warn", server: { middlewareMode: true }, appType: "custom" });
  ({ clockText } = await vite.ssrLoadModule("/src/clock-view.ts"));
  ({ resultText } = await vite.ssrLoadModule("/src/game-text.ts"));
  ({ timeControlOf } = await vite.ssrLoadModule("/src/setup-form.ts"));
  types = /** @type {any} */ (await vite.ssrLoadModule("/src/gen/damiera/v1/types_pb.ts"));
  ({ AbortReason } = await vite.ssrLoadModule("/src/gen/damiera/v1/game_service_pb.ts"));
});

after(() => vite?.close());

test("clock faces: hours, minutes, and tenths under ten seconds, rounded down", () => {
  assert.deepEqual(
    [3_900_000, 171_900, 10_000, 9_999, 4_350, 0, -20].map(clockText),
    ["1:05:00", "2:51", "0:10", "0:09.9", "0:04.3", "0:00.0", "0:00.0"],
  );
});

test("results say who lost on time or abandoned, and why a game was aborted", () => {
  const { Color, PositionStatus_State: State, WinReason } = types;
  /** @param {object} status @param {number} [abortReason] */
  const state = (status, abortReason = AbortReason.UNSPECIFIED) => /** @type {any} */ ({ status, abortReason });
  const won = State.WON;
  assert.equal(
    resultText(state({ state: won, winner: Color.BLACK, winReason: WinReason.TIME })),
    "Black wins: White lost on time",
  );
  assert.equal(
    resultText(state({ state: won, winner: Color.WHITE, winReason: WinReason.ABANDONMENT })),
    "White wins: Black abandoned the game",
  );
  assert.equal(resultText(state({ state: State.ABORTED }, AbortReason.SEAT)), "Aborted by a player");
  assert.equal(
    resultText(state({ state: State.ABORTED }, AbortReason.NO_FIRST_MOVE)),
    "Aborted: the first move did not come in time",
  );
  assert.equal(resultText(state({ state: State.ONGOING })), null);
});

test("the form's clock options become CreateGame's time control", () => {
  assert.equal(timeControlOf(""), undefined);
  const fischer = /** @type {any} */ (timeControlOf("fischer 180 2"));
  assert.equal(fischer.kind.case, "fischer");
  assert.deepEqual(
    [fischer.kind.value.base.seconds, fischer.kind.value.increment.seconds],
    [180n, 2n],
  );
  const perMove = /** @type {any} */ (timeControlOf("move 30"));
  assert.deepEqual([perMove.kind.case, perMove.kind.value.seconds], ["perMove", 30n]);
});
