/**
 * Where a variant's squares are drawn, from the board size and square naming that ListVariants
 * gives. Numbered boards (Italian, Triestina) play on the dark squares: seen from White, the
 * bottom-right corner is dark, and the dark squares are numbered from Black's side down, each row
 * left to right as White sees it (square 1 is a8 on 8x8, a10 on 10x10). The Turkish board plays
 * on all 64 squares, named as in chess (a1 is White's bottom-left), and is drawn in one colour.
 */
import { SquareNaming } from "./gen/damiera/v1/rules_service_pb";

/** One square of the drawn board. */
export interface BoardCell {
  /** The square's name as the variant writes it ("22", "c3"); null for a square no piece uses. */
  readonly name: string | null;
  /** True for a dark square of a numbered board. */
  readonly dark: boolean;
}

/** The board as drawn: `size` rows of `size` cells, the top row first, each row left to right. */
export interface BoardLayout {
  /** Squares along one side: 8 or 10. */
  readonly size: number;
  /** Every square, `size * size` of them. */
  readonly cells: readonly BoardCell[];
}

const FILES = "abcdefghij";

/**
 * The name of the square on `file` (0 is White's left) and `rank` (1 is White's side), or null
 * when pieces never stand there.
 */
function squareName(size: number, naming: SquareNaming, file: number, rank: number): string | null {
  if (naming === SquareNaming.ALGEBRAIC) {
    return `${FILES[file]}${rank}`;
  }
  const rowFromTop = size - rank;
  if ((file + rowFromTop) % 2 !== 0) {
    return null;
  }
  return String(rowFromTop * (size / 2) + Math.floor(file / 2) + 1);
}

/** The cells of a `size` board, seen from White, or from Black when `flipped`. */
export function boardLayout(size: number, naming: SquareNaming, flipped: boolean): BoardLayout {
  const cells: BoardCell[] = [];
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const file = flipped ? size - 1 - column : column;
      const rank = flipped ? row + 1 : size - row;
      const rowFromTop = size - rank;
      cells.push({
        name: squareName(size, naming, file, rank),
        dark: naming === SquareNaming.NUMBERS && (file + rowFromTop) % 2 === 0,
      });
    }
  }
  return { size, cells };
}
