/**
 * The list of the moves played, one item per ply, each marked with the side that played it; the
 * first ply of each pair carries the move number, as players write a game down.
 */
import { colorName } from "./game-text";
import type { GameMove } from "./gen/damiera/v1/game_service_pb";

/** Shows `moves` in `list`, one item per move, replacing what was there. */
export function showMoves(list: HTMLOListElement, moves: readonly GameMove[]): void {
  list.replaceChildren(
    ...moves.map((move) => {
      const item = document.createElement("li");
      item.dataset.color = colorName(move.color).toLowerCase();
      if (move.ply % 2 === 0) item.dataset.number = `${move.ply / 2 + 1}.`;
      item.textContent = move.notation;
      return item;
    }),
  );
}
