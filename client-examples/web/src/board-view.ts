/**
 * Draws a board and its pieces as a grid of squares, with the highlights of the move being
 * picked, and reports clicks and drag-and-drops on the squares. It shows; it decides nothing.
 */
import type { BoardLayout } from "./board-geometry";
import type { PickMarks } from "./move-picker";
import { Color, PieceKind, type Position } from "./gen/damiera/v1/types_pb";

/** Everything one drawing of the board shows. */
export interface BoardPicture {
  /** Where the squares go. */
  readonly layout: BoardLayout;
  /** The pieces; its FEN is kept on the board element for tests and tools. */
  readonly position: Position;
  /** The highlights of the move being picked. */
  readonly marks: PickMarks;
  /** The squares of the last move played (its start and landings), to outline. */
  readonly lastMove: readonly string[];
}

/** The board in the page. */
export class BoardView {
  /**
   * @param element the element the board is drawn in
   * @param onSquare called with a square's name when it is clicked
   * @param onDrag called with the squares a piece was dragged from and dropped on
   */
  constructor(
    private readonly element: HTMLElement,
    onSquare: (square: string) => void,
    onDrag: (from: string, to: string) => void,
  ) {
    const squareOf = (event: Event) =>
      (event.target as HTMLElement).closest<HTMLElement>("[data-square]")?.dataset.square;
    element.addEventListener("click", (event) => {
      const square = squareOf(event);
      if (square) onSquare(square);
    });
    element.addEventListener("dragstart", (event) => {
      const square = squareOf(event);
      if (!square || !event.dataTransfer) return;
      event.dataTransfer.setData("text/plain", square);
      event.dataTransfer.effectAllowed = "move";
    });
    element.addEventListener("dragover", (event) => {
      if (squareOf(event)) event.preventDefault();
    });
    element.addEventListener("drop", (event) => {
      const to = squareOf(event);
      const from = event.dataTransfer?.getData("text/plain");
      if (!to || !from) return;
      event.preventDefault();
      onDrag(from, to);
    });
  }

  /** Draws `picture`, replacing what was drawn before. */
  draw(picture: BoardPicture): void {
    const { layout, position, marks } = picture;
    const pieces = new Map(position.pieces.map((piece) => [piece.square, piece]));
    this.element.style.setProperty("--board-size", String(layout.size));
    this.element.dataset.fen = position.fen;
    this.element.replaceChildren(
      ...layout.cells.map((cell) => {
        const square = document.createElement("div");
        square.className = cell.dark ? "square dark" : "square light";
        if (cell.name === null) return square;
        square.dataset.square = cell.name;
        square.classList.toggle("movable", marks.movable.has(cell.name));
        square.classList.toggle("picked", marks.picked.includes(cell.name));
        square.classList.toggle("target", marks.targets.has(cell.name));
        square.classList.toggle("step", marks.steps.has(cell.name));
        square.classList.toggle("last-move", picture.lastMove.includes(cell.name));
        const label = document.createElement("span");
        label.className = "label";
        label.textContent = cell.name;
        square.append(label);
        const piece = pieces.get(cell.name);
        if (piece) {
          const disc = document.createElement("div");
          disc.className = [
            "piece",
            piece.color === Color.WHITE ? "white" : "black",
            piece.kind === PieceKind.KING ? "king" : "man",
          ].join(" ");
          disc.draggable = marks.movable.has(cell.name);
          square.dataset.piece = disc.className.replace("piece ", "");
          square.append(disc);
        }
        return square;
      }),
    );
  }
}
