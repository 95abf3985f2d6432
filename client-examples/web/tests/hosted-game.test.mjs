// @ts-check
/**
 * The hosted game's watch on its own, against a stand-in for the server: a stream broken for a
 * transient reason is watched again from the moves already seen, waiting twice as long after each
 * break in a row, and a failure that would only repeat (NOT_FOUND) stops the watch and is reported.
 * The TypeScript module is loaded through Vite, as the page loads it.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Code, ConnectError } from "@connectrpc/connect";
import { createServer } from "vite";

/** @type {import("vite").ViteDevServer} */
let vite;
/** @type {typeof import("../src/hosted-game").HostedGame} */
let HostedGame;

before(async () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  vite = await createServer({ root, logLevel: "warn", server: { middlewareMode: true }, appType: "custom" });
  ({ HostedGame } = await vite.ssrLoadModule("/src/hosted-game.ts"));
});

after(() => vite?.close());

/**
 * The game as the stand-in server keeps it after `ply` moves.
 * @param {number} ply
 */
function gameAt(ply) {
  const moves = Array.from({ length: ply }, (_, index) => ({ ply: index, notation: `move ${index}` }));
  return { name: "games/test", moves, state: { ply, etag: `etag ${ply}` } };
}

/**
 * A WatchGame message carrying the whole game after `ply` moves.
 * @param {number} ply
 */
function wholeGame(ply) {
  return { event: { case: "game", value: gameAt(ply) } };
}

/**
 * A stand-in for the server whose successive WatchGame calls answer as `answers` say: the
 * messages of a stream, then its end or, when an error closes the list, that error.
 * @param {Array<Array<object>>} answers
 */
function standIn(answers) {
  /** @type {Array<{ fromPly: number }>} */
  const watches = [];
  const api = {
    games: {
      createGame: async () => ({ game: gameAt(0), whiteToken: "white token", blackToken: "black token" }),
      /** @param {{ fromPly: number }} request */
      watchGame: (request) => {
        watches.push(request);
        const answer = answers.shift() ?? [];
        return (async function* () {
          for (const item of answer) {
            if (item instanceof Error) throw item;
            yield item;
          }
        })();
      },
    },
  };
  return { api: /** @type {any} */ (api), watches };
}

const SETUP = { variant: 1, playerColor: 1, engineLevel: 1, engineMoveTimeMs: 200 };
const UNAVAILABLE = new ConnectError("watch again with from_ply 0", Code.Unavailable);

test("a transient break is watched again from the moves seen, after 1 s, then 2 s, and 1 s again after a message", async () => {
  const { api, watches } = standIn([[UNAVAILABLE], [UNAVAILABLE], [wholeGame(1), UNAVAILABLE], [wholeGame(2)]]);
  /** @type {string[]} */
  const breaks = [];
  /** @type {number[]} */
  const plies = [];
  await new Promise((done, fail) => {
    void HostedGame.create(api, SETUP, {
      changed: (game) => {
        plies.push(game.moves.length);
        if (game.moves.length === 2) done(undefined);
      },
      watchBroken: (failure, retryInMs) => breaks.push(`${failure.reason}, again in ${retryInMs} ms`),
      watchStopped: (failure) => fail(new Error(`the watch stopped: ${failure.message}`)),
    }).catch(fail);
  });
  assert.deepEqual(breaks, [
    "Unavailable, again in 1000 ms",
    "Unavailable, again in 2000 ms",
    "Unavailable, again in 1000 ms",
  ]);
  assert.deepEqual(plies, [1, 2]);
  assert.deepEqual(watches.map((watch) => watch.fromPly), [0, 0, 0, 1]);
});

test("NOT_FOUND stops the watch and is reported, never retried", async () => {
  const notFound = new ConnectError("no game games/test", Code.NotFound);
  const { api, watches } = standIn([[notFound], [wholeGame(1)]]);
  const stopped = await new Promise((done, fail) => {
    void HostedGame.create(api, SETUP, {
      changed: () => fail(new Error("the game changed")),
      watchBroken: () => fail(new Error("the watch was retried")),
      watchStopped: done,
    }).catch(fail);
  });
  assert.deepEqual(stopped, { message: "no game games/test", reason: "NotFound" });
  assert.equal(watches.length, 1);
});
