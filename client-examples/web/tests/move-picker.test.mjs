// @ts-check
/**
 * The move picker on its own, with hand-written moves: picking, a capture named by its first
 * landing square when two captures share their start and end (RULES.md's 22x13x6 and 22x15x6),
 * and clicks no legal move fits passed on as move text. The TypeScript module is loaded through
 * Vite, as the page loads it.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

/**
 * A legal move as the server writes it.
 * @param {string} notation the move in full, "22x13x6" or "23-19"
 */
function move(notation) {
  const [fromSquare, ...path] = notation.split(/[-x]/);
  return { notation, fromSquare, toSquare: path[path.length - 1], path };
}

// White man on 22 with two ways to take two pieces and end on 6, and a man on 23 that steps.
const MOVES = [move("22x13x6"), move("22x15x6"), move("23-19")];

/** @type {import("vite").ViteDevServer} */
let vite;
/** @type {typeof import("../src/move-picker").MovePicker} */
let MovePicker;

before(async () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  vite = await createServer({ root, logLevel: "warn", server: { middlewareMode: true }, appType: "custom" });
  ({ MovePicker } = await vite.ssrLoadModule("/src/move-picker.ts"));
});

after(() => vite?.close());

/**
 * The picker's highlights, as plain sorted lists.
 * @param {InstanceType<typeof MovePicker>} picker
 */
function marks(picker) {
  const { movable, picked, targets, steps } = picker.marks();
  return { movable: [...movable].sort(), picked, targets: [...targets].sort(), steps: [...steps].sort() };
}

test("before a click only the pieces that can move are marked", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  assert.deepEqual(marks(picker), { movable: ["22", "23"], picked: [], targets: [], steps: [] });
});

test("a click on a piece that cannot move is answered with a hint", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  assert.deepEqual(picker.click("21"), {
    kind: "hint",
    hint: "Pick one of your highlighted pieces: those are the ones that can move.",
  });
});

test("a picked piece shows where its moves end and where its captures land first", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  assert.deepEqual(picker.click("22"), { kind: "picking" });
  assert.deepEqual(marks(picker), { movable: ["22", "23"], picked: ["22"], targets: ["6"], steps: ["13", "15"] });
});

test("two captures ending on the same square: the end alone is not enough", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  picker.click("22");
  assert.deepEqual(picker.click("6"), {
    kind: "hint",
    hint: "Several captures end on 6: click the squares they land on, in order.",
  });
  assert.deepEqual(marks(picker).picked, ["22"], "the piece stays picked");
});

test("two captures ending on the same square: the first landing square names one", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  picker.click("22");
  const pick = picker.click("15");
  assert.equal(pick.kind, "move");
  assert.equal(pick.kind === "move" && pick.move.notation, "22x15x6");
  assert.deepEqual(marks(picker).picked, [], "a chosen move clears the selection");
});

test("a simple move: its piece, then its end", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  picker.click("23");
  const pick = picker.click("19");
  assert.equal(pick.kind === "move" && pick.move.notation, "23-19");
});

test("another movable piece replaces the one picked; the picked one again drops it", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  picker.click("22");
  assert.deepEqual(picker.click("23"), { kind: "picking" });
  assert.deepEqual(marks(picker).targets, ["19"]);
  assert.deepEqual(picker.click("23"), { kind: "cleared" });
  assert.deepEqual(marks(picker).picked, []);
});

test("a square no legal move reaches goes to the server as move text", () => {
  const picker = new MovePicker(/** @type {any} */ (MOVES));
  picker.click("23");
  assert.deepEqual(picker.click("18"), { kind: "unlisted", notation: "23-18" });
  assert.deepEqual(marks(picker).picked, []);
});
