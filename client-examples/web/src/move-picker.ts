/**
 * Turns the player's clicks into a move. The first click picks a piece that has a legal move;
 * the next names where it goes: a square the move ends on, or, for a capture sequence, a square
 * it lands on. When several captures share a landing square, the player clicks along the path
 * until one move is left. A click on a square no legal move reaches is passed on as move text for
 * the server to refuse, so the page never judges a move itself.
 */
import type { Move } from "./gen/damiera/v1/types_pb";

/** What a click did. */
export type Pick =
  /** A piece (or a step of its path) is picked; more clicks are needed. */
  | { readonly kind: "picking" }
  /** The selection was dropped. */
  | { readonly kind: "cleared" }
  /** One legal move is chosen. */
  | { readonly kind: "move"; readonly move: Move }
  /** No legal move fits the clicks: this text goes to the server, which will say why. */
  | { readonly kind: "unlisted"; readonly notation: string }
  /** The click means nothing yet; `hint` says what to do. */
  | { readonly kind: "hint"; readonly hint: string };

/** The squares to highlight. */
export interface PickMarks {
  /** Pieces with a legal move. */
  readonly movable: ReadonlySet<string>;
  /** The picked piece, then the landing squares clicked so far. */
  readonly picked: readonly string[];
  /** Squares where a move of the picked piece ends. */
  readonly targets: ReadonlySet<string>;
  /** Squares a capture of the picked piece lands on next, before its end. */
  readonly steps: ReadonlySet<string>;
}

/** The clicks made so far against one position's legal moves. */
export class MovePicker {
  private picked: string[] = [];

  constructor(private readonly moves: readonly Move[]) {}

  /** The legal moves that fit the clicks so far. */
  private candidates(): Move[] {
    const [from, ...steps] = this.picked;
    return this.moves.filter(
      (move) => move.fromSquare === from && steps.every((square, index) => move.path[index] === square),
    );
  }

  /** Takes a click on `square`. */
  click(square: string): Pick {
    if (this.picked.length === 0) {
      return this.pickPiece(square);
    }
    const candidates = this.candidates();
    const next = this.picked.length - 1;
    const ending = candidates.filter((move) => move.toSquare === square);
    const landing = candidates.filter((move) => move.path[next] === square);
    if (ending.length === 1) {
      return this.chosen(ending[0]);
    }
    if (landing.length === 1) {
      return this.chosen(landing[0]);
    }
    if (landing.length > 1) {
      this.picked.push(square);
      return { kind: "picking" };
    }
    if (ending.length > 1) {
      return { kind: "hint", hint: `Several captures end on ${square}: click the squares they land on, in order.` };
    }
    if (square === this.picked[0]) {
      return this.clear();
    }
    if (this.movable().has(square)) {
      this.picked = [square];
      return { kind: "picking" };
    }
    const notation = [...this.picked, square].join(this.picked.length > 1 ? "x" : "-");
    this.picked = [];
    return { kind: "unlisted", notation };
  }

  /** Drops the selection. */
  clear(): Pick {
    this.picked = [];
    return { kind: "cleared" };
  }

  /** What to highlight now. */
  marks(): PickMarks {
    const candidates = this.picked.length > 0 ? this.candidates() : [];
    const next = this.picked.length - 1;
    return {
      movable: this.movable(),
      picked: [...this.picked],
      targets: new Set(candidates.map((move) => move.toSquare)),
      steps: new Set(
        candidates
          .map((move) => move.path[next])
          .filter((square) => square !== undefined && !candidates.some((move) => move.toSquare === square)),
      ),
    };
  }

  private movable(): Set<string> {
    return new Set(this.moves.map((move) => move.fromSquare));
  }

  private pickPiece(square: string): Pick {
    if (!this.movable().has(square)) {
      return { kind: "hint", hint: "Pick one of your highlighted pieces: those are the ones that can move." };
    }
    this.picked = [square];
    return { kind: "picking" };
  }

  private chosen(move: Move): Pick {
    this.picked = [];
    return { kind: "move", move };
  }
}
