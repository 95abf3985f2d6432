// @ts-check
/**
 * The page in headless Chromium against a real Damiera server ($DAMIERA_URL): the boards of the
 * three variants, then an Italian game played by clicking squares, with the engine's replies, the
 * live analysis, a refused illegal move, a drag-and-drop move, the result of a resignation and the
 * review of the finished game with its chart; then a game under a 3 s clock, ticking in the page,
 * lost on time.
 * Any error in the browser's console fails the test it happened in.
 *
 * The page is built and the browser started once. Each describe opens its own tab and sets up its
 * own game, so no describe depends on another. Inside a describe the tests are independent too,
 * except in "an Italian game played to its end": those are the steps of one game, run in order
 * (node:test runs a describe's tests one after another), each going on from where the previous
 * one left the game, as its comment says.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { after, afterEach, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { openPage, startBrowser } from "./browser.mjs";
import { buildAndServe } from "./page-server.mjs";

const SERVER = process.env.DAMIERA_URL;
if (!SERVER) {
  throw new Error("DAMIERA_URL is not set: give the server's gRPC-Web address, e.g. DAMIERA_URL=http://127.0.0.1:50051");
}
/** The page's query string: which server it calls. */
const PAGE_QUERY = `?server=${encodeURIComponent(SERVER)}`;
const SCREENSHOTS = fileURLToPath(new URL("../test-output/", import.meta.url));

/** How long the engine (level 1) and the analysis think per move in these tests. */
const MOVE_TIME_MS = "200";
/** Enough for the engine's reply on a busy shared server. */
const REPLY_TIMEOUT_MS = 20_000;

/** @type {Awaited<ReturnType<typeof buildAndServe>>} */
let served;
/** @type {Awaited<ReturnType<typeof startBrowser>>} */
let browser;
/**
 * The current describe's tab.
 * @type {import("playwright-core").Page}
 */
let page;
/**
 * The errors the current describe's tab has shown in its console and not yet reported.
 * @type {string[]}
 */
let consoleErrors;

/**
 * The names of the squares matching `selector`, in the page's order (the top row first).
 * @param {string} selector
 */
function squares(selector) {
  return page.locator(selector).evaluateAll((found) => found.map((square) => square.getAttribute("data-square")));
}

/** @param {string} selector */
function count(selector) {
  return page.locator(selector).count();
}

/** The board's position as the FEN the page drew. */
function boardFen() {
  return page.locator("#board").getAttribute("data-fen");
}

/** @param {string} text */
function waitForStatus(text) {
  return page.waitForFunction((wanted) => document.getElementById("status")?.textContent === wanted, text, {
    timeout: REPLY_TIMEOUT_MS,
  });
}

/**
 * Waits until the page says it is the player's move and shows the pieces that can move.
 * @param {"White" | "Black"} side the player's side
 */
function waitForYourMove(side) {
  return page.waitForFunction(
    (wanted) =>
      document.getElementById("status")?.textContent === wanted && document.querySelector(".square.movable") !== null,
    `Your move (${side}).`,
    { timeout: REPLY_TIMEOUT_MS },
  );
}

/** @param {number} plies */
function waitForMoves(plies) {
  return page.waitForFunction((wanted) => document.querySelectorAll("#moves li").length === wanted, plies, {
    timeout: REPLY_TIMEOUT_MS,
  });
}

/** @param {string} name */
async function screenshot(name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
}

/**
 * Plays one of the player's legal moves by clicking the first highlighted piece, then the first
 * square it can move to (through a landing square, if two captures end there), and waits for the
 * engine's reply.
 * @param {"White" | "Black"} side the player's side
 * @returns {Promise<string>} the move played, as the move list shows it
 */
async function clickFirstLegalMove(side = "White") {
  const plies = await count("#moves li");
  const fenBefore = await boardFen();
  const [from] = await squares(".square.movable");
  await page.click(`[data-square="${from}"]`);
  const [to] = await squares(".square.target");
  await page.click(`[data-square="${to}"]`);
  if ((await page.textContent("#message"))?.startsWith("Several captures end on")) {
    // Two captures share their start and end: name the path by its first landing square.
    const [step] = await squares(".square.step");
    await page.click(`[data-square="${step}"]`);
  }
  await waitForMoves(plies + 2);
  await waitForYourMove(side);
  assert.notEqual(await boardFen(), fenBefore, "the board changed");
  const played = await page.locator("#moves li").nth(plies).textContent();
  assert.match(played ?? "", new RegExp(`^${from}[-x](\\w+x)*${to}$`));
  return played ?? "";
}

before(async () => {
  served = await buildAndServe();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await served?.close();
});

afterEach(() => {
  assert.deepEqual(consoleErrors.splice(0), [], "the browser's console shows no error");
});

/**
 * Gives the describe it is called in a tab of its own, with the page loaded and the variants
 * known before its first test, and closed after its last.
 */
function ownTab() {
  before(async () => {
    const opened = await openPage(browser.context, `${served.url}${PAGE_QUERY}`);
    page = opened.page;
    consoleErrors = opened.errors;
    await page.waitForSelector("#setup:not([inert])");
  });
  after(() => page.close());
}

/**
 * Shows a variant's start position from one side, with no game running.
 * @param {string} variant the variant's name in the list
 * @param {"white" | "black"} side the player's side
 */
async function showBoard(variant, side) {
  await page.selectOption("select[name=variant]", { label: variant });
  await page.selectOption("select[name=color]", side);
}

describe("the boards", () => {
  ownTab();

  test("the variant list is the server's ListVariants", async () => {
    assert.deepEqual(await page.locator("select[name=variant] option").allTextContents(), [
      "Dama Italiana",
      "Dama Triestina",
      "Dama Turca",
    ]);
    assert.equal(await page.textContent("#server"), SERVER);
  });

  test("Italian: 8x8, the 32 dark squares numbered from Black's side, White's men on 21-32", async () => {
    await showBoard("Dama Italiana", "white");
    assert.equal(await count("#board .square"), 64);
    assert.equal(await count("#board .square.dark"), 32);
    const named = await squares("#board [data-square]");
    assert.deepEqual(named, Array.from({ length: 32 }, (_, index) => String(index + 1)));
    // Square 1 is the top-left corner (a8); the bottom-right corner (h1) is dark: 32.
    assert.equal(await page.locator("#board .square").first().getAttribute("data-square"), "1");
    assert.equal(await page.locator("#board .square").last().getAttribute("data-square"), "32");
    assert.deepEqual(await squares("[data-piece='white man']"), named.slice(20));
    assert.deepEqual(await squares("[data-piece='black man']"), named.slice(0, 12));
  });

  test("Italian from Black's side: the board turned round, square 32 top-left", async () => {
    await showBoard("Dama Italiana", "black");
    assert.equal(await page.locator("#board .square").first().getAttribute("data-square"), "32");
    assert.equal(await page.locator("#board .square").last().getAttribute("data-square"), "1");
  });

  test("Triestina: 10x10, the 50 dark squares, 1 at a10 and 50 at j1, 20 men a side", async () => {
    await showBoard("Dama Triestina", "white");
    assert.equal(await count("#board .square"), 100);
    assert.equal(await count("#board .square.dark"), 50);
    assert.deepEqual(await squares("#board [data-square]"), Array.from({ length: 50 }, (_, index) => String(index + 1)));
    assert.equal(await page.locator("#board .square").first().getAttribute("data-square"), "1");
    assert.equal(await page.locator("#board .square").last().getAttribute("data-square"), "50");
    assert.equal(await count("[data-piece='white man']"), 20);
    assert.equal(await count("[data-piece='black man']"), 20);
    await screenshot("triestina-board");
  });

  test("Turkish: 8x8 with all 64 squares in play, a8 top-left, a1 bottom-left, 16 men a side", async () => {
    await showBoard("Dama Turca", "white");
    assert.equal(await count("#board .square"), 64);
    const named = await squares("#board [data-square]");
    assert.equal(named.length, 64);
    assert.deepEqual(named.slice(0, 8), ["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"]);
    assert.deepEqual(named.slice(56), ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]);
    assert.deepEqual(
      await squares("[data-piece='white man']"),
      [...named.slice(40, 56)],
      "White's men on ranks 2 and 3",
    );
    assert.deepEqual(await squares("[data-piece='black man']"), [...named.slice(8, 24)], "Black's on ranks 6 and 7");
    await screenshot("turkish-board");
  });
});

/**
 * Starts a game against the engine at level 1, thinking MOVE_TIME_MS a move.
 * @param {string} variant the variant's name in the list
 * @param {"white" | "black"} side the player's side
 */
async function startGame(variant, side) {
  await showBoard(variant, side);
  await page.selectOption("select[name=level]", "1");
  await page.selectOption("select[name=moveTime]", MOVE_TIME_MS);
  await page.click("#setup button[type=submit]");
}

// Each test leaves the game at its start, White to move, with no piece picked.
describe("the start of an Italian game against the engine", () => {
  ownTab();
  before(async () => {
    await startGame("Dama Italiana", "white");
    await waitForYourMove("White");
  });

  test("the pieces that can move and their targets are highlighted", async () => {
    assert.deepEqual(await squares(".square.movable"), ["21", "22", "23", "24"]);
    await page.click("[data-square='22']");
    assert.deepEqual(await squares(".square.picked"), ["22"]);
    assert.deepEqual(await squares(".square.target"), ["18", "19"]);
    await page.click("[data-square='22']");
    assert.deepEqual(await squares(".square.target"), []);
  });

  test("an illegal click is refused with the server's ILLEGAL_MOVE and its legal moves", async () => {
    const fenBefore = await boardFen();
    await page.click("[data-square='22']");
    await page.click("[data-square='15']");
    await page.waitForFunction(() => document.getElementById("message")?.textContent !== "");
    assert.equal(
      await page.textContent("#message"),
      "22-15 was refused: notation: 22-15 is not a legal move here; " +
        "legal moves: 21-17, 22-18, 23-19, 24-20, 21-18, 22-19, 23-20 [ILLEGAL_MOVE]",
    );
    assert.equal(await boardFen(), fenBefore, "the board did not change");
    assert.equal(await count("#moves li"), 0);
    assert.deepEqual(await squares(".square.movable"), ["21", "22", "23", "24"], "the player may try again");
  });

  test("a click on a square no move starts from says what to do", async () => {
    await page.click("[data-square='15']");
    assert.equal(
      await page.textContent("#message"),
      "Pick one of your highlighted pieces: those are the ones that can move.",
    );
  });

  test("the analysis panel streams the engine's depths, scores and lines", async () => {
    await page.waitForSelector("#analysis .best", { timeout: REPLY_TIMEOUT_MS });
    const depths = await page.locator("#analysis li[data-depth]").allTextContents();
    assert.ok(depths.length >= 1, "at least one completed depth");
    for (const depth of depths) {
      assert.match(depth, /^depth \d+\/\d+ {2}([+-]?\d+\.\d\d|wins in \d+ plies|loses in \d+ plies) {2}\d+ nodes {2}\d+[-x]\d+/);
    }
    assert.match(await page.textContent("#analysis .best") ?? "", /^Best: \d+[-x][\dx]+ \(.+, depth \d+\)$/);
    assert.equal(await page.textContent("#analysis p"), "White to move, after 0 moves:");
  });
});

// The steps of one game, in order: each test goes on from the position the previous one left.
describe("an Italian game played to its end", () => {
  ownTab();
  before(async () => {
    await startGame("Dama Italiana", "white");
    await waitForYourMove("White");
  });

  test("from the start: moves played by clicking squares, each answered by the engine", async () => {
    await page.click("[data-square='22']");
    await page.click("[data-square='18']");
    await waitForMoves(2);
    await waitForYourMove("White");
    assert.equal(await page.locator("#moves li").first().textContent(), "22-18");
    assert.equal(await page.textContent("#message"), "");
    assert.equal(await count("[data-square='22'][data-piece]"), 0, "22 is empty");
    assert.equal(await page.getAttribute("[data-square='18']", "data-piece"), "white man");
    await clickFirstLegalMove();
    await clickFirstLegalMove();
    assert.equal(await count("#moves li"), 6);
  });

  test("after those six moves: the analysis follows the game", async () => {
    await page.waitForSelector("#analysis .best", { timeout: REPLY_TIMEOUT_MS });
    assert.equal(await page.textContent("#analysis p"), "White to move, after 6 moves:");
  });

  test("White to move again: a move played by dragging a piece onto its target", async () => {
    const fenBefore = await boardFen();
    const [from] = await squares(".square.movable");
    await page.click(`[data-square="${from}"]`);
    const [to] = await squares(".square.target");
    await page.click(`[data-square="${from}"]`);
    await page.dragAndDrop(`[data-square="${from}"] .piece`, `[data-square="${to}"]`);
    await waitForMoves(8);
    await waitForYourMove("White");
    assert.notEqual(await boardFen(), fenBefore);
    assert.match((await page.locator("#moves li").nth(6).textContent()) ?? "", new RegExp(`^${from}[-x](\\d+x)*${to}$`));
  });

  test("the game still going: resigning ends it with the result shown", async () => {
    await page.click("#resign");
    await waitForStatus("Black wins by resignation.");
    assert.equal(await page.isDisabled("#resign"), true);
    assert.equal(await count(".square.movable"), 0, "nothing moves after the game");
  });

  test("the game over: the review shows each side's faults and the chart", async () => {
    // Eight moves, each position searched 100 ms: a few seconds.
    await page.waitForSelector("#review img.chart", { timeout: REPLY_TIMEOUT_MS });
    assert.match((await page.textContent("#review .progress")) ?? "", /^White: \d+ inaccuracies, \d+ mistakes, \d+ blunders\. Black: /);
    const chart = (await page.getAttribute("#review img.chart", "src")) ?? "";
    assert.ok(chart.startsWith("data:image/svg+xml"), chart.slice(0, 40));
    await page.waitForFunction(() => /** @type {HTMLImageElement} */ (document.querySelector("#review img.chart"))?.naturalWidth === 640);
    await screenshot("italian-game");
  });
});

describe("a game replaced while it is being created", () => {
  ownTab();

  test("the page shows what it was asked for last, not the game created too late", async () => {
    // Hold CreateGame's answer until the player has moved on to another variant.
    /** @type {() => void} */
    let release = () => {};
    const held = new Promise((resume) => (release = () => resume(undefined)));
    await page.route("**/damiera.v1.GameService/CreateGame", async (route) => {
      await held;
      await route.continue();
    });
    await startGame("Dama Italiana", "white");
    assert.equal(await page.isDisabled("#setup button[type=submit]"), true, "one game at a time");
    await showBoard("Dama Triestina", "white");
    release();
    // The start button comes back once the page is done with the created game.
    await page.waitForSelector("#setup button[type=submit]:not([disabled])", { timeout: REPLY_TIMEOUT_MS });
    assert.equal(await page.textContent("#status"), "Dama Triestina: choose your side and the engine, then start.");
    assert.equal(await count("#board .square"), 100);
    assert.equal(await count("#moves li"), 0);
    assert.equal(await page.isDisabled("#resign"), true);
    await page.unrouteAll();
  });
});

/** @param {string} side "white" or "black" */
function clockFace(side) {
  return page.textContent(`#clocks [data-color=${side}] .time`);
}

/** "0:02.7" or "1:05" as seconds. @param {string | null} text */
function clockSeconds(text) {
  const [minutes, seconds] = (text ?? "").split(":");
  return Number(minutes) * 60 + Number(seconds);
}

// The steps of one game under a 3 s clock, in order.
describe("a game under a clock", () => {
  ownTab();
  before(async () => {
    // A clock shorter than the form offers, added as one more option of its field.
    await page.locator("select[name=timeControl]").evaluate((select) => select.append(new Option("3+0", "fischer 3 0")));
    await page.selectOption("select[name=timeControl]", "fischer 3 0");
    await startGame("Dama Italiana", "white");
    await waitForYourMove("White");
  });

  test("before each side's first move both clocks show the base time and neither runs", async () => {
    assert.equal(await clockFace("white"), "0:03.0");
    assert.equal(await clockFace("black"), "0:03.0");
    assert.equal(await count("#clocks .running"), 0);
  });

  test("after the engine's first reply White's clock ticks in the page between server messages", async () => {
    await page.click("[data-square='22']");
    await page.click("[data-square='18']");
    await waitForMoves(2);
    await waitForYourMove("White");
    assert.equal(await count("#clocks [data-color=white].running"), 1);
    const read = () =>
      page.evaluate(() => ({
        updates: document.getElementById("clocks")?.dataset.updates,
        white: document.querySelector("#clocks [data-color=white] .time")?.textContent ?? "",
        black: document.querySelector("#clocks [data-color=black] .time")?.textContent ?? "",
      }));
    const first = await read();
    await page.waitForTimeout(500);
    const second = await read();
    assert.equal(second.updates, first.updates, "no server message came in between");
    const drop = clockSeconds(first.white) - clockSeconds(second.white);
    assert.ok(drop >= 0.4 && drop <= 0.7, `White's clock went from ${first.white} to ${second.white}`);
    assert.equal(second.black, first.black, "Black's clock stands still");
  });

  test("White's clock runs out: the page shows the loss on time", async () => {
    await waitForStatus("Black wins: White lost on time.");
    assert.equal(await count("#clocks .running"), 0);
    assert.equal(await count(".square.movable"), 0, "nothing moves after the game");
    await screenshot("game-lost-on-time");
  });
});

// Each test starts a game of its own.
describe("other games", () => {
  ownTab();

  test("as Black in Italian: the engine opens, the board is seen from Black's side", async () => {
    await startGame("Dama Italiana", "black");
    await waitForMoves(1);
    await waitForYourMove("Black");
    assert.equal(await page.locator("#board .square").first().getAttribute("data-square"), "32");
    assert.equal(await page.locator("#moves li").first().getAttribute("data-color"), "white");
    // Whatever White opened with, it ends on 17-20 and leaves 13-16 empty: Black's front men
    // 9-12 each have a step and nothing to take. The board turned round lists them from 12.
    assert.deepEqual(await squares(".square.movable"), ["12", "11", "10", "9"]);
    await clickFirstLegalMove("Black");
    assert.equal(await count("#moves li"), 3);
  });

  test("Turkish: a move by clicking squares named a1-h8, answered by the engine", async () => {
    await startGame("Dama Turca", "white");
    await waitForYourMove("White");
    assert.deepEqual(await squares(".square.movable"), ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"]);
    await page.click("[data-square='d3']");
    assert.deepEqual(await squares(".square.target"), ["d4"]);
    await page.click("[data-square='d4']");
    await waitForMoves(2);
    await waitForYourMove("White");
    assert.equal(await page.locator("#moves li").first().textContent(), "d3-d4");
    assert.equal(await page.getAttribute("[data-square='d4']", "data-piece"), "white man");
    await screenshot("turkish-game");
  });
});
