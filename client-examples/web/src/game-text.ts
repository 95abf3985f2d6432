/**
 * Words for people: a side's name, how a game stands, and a search's score.
 */
import { AbortReason, type GameState } from "./gen/damiera/v1/game_service_pb";
import {
  Color,
  DrawReason,
  PositionStatus_State,
  WinReason,
  type Score,
} from "./gen/damiera/v1/types_pb";

/** "White", "Black", or "nobody" for a colour the server left unspecified. */
export function colorName(color: Color): string {
  return color === Color.WHITE ? "White" : color === Color.BLACK ? "Black" : "nobody";
}

/** The other side. */
export function opponentOf(color: Color): Color {
  return color === Color.WHITE ? Color.BLACK : Color.WHITE;
}

const WIN_REASONS: Record<WinReason, string> = {
  [WinReason.UNSPECIFIED]: "",
  [WinReason.NO_PIECES]: "no pieces left",
  [WinReason.NO_MOVES]: "no legal move left",
  [WinReason.LONE_MAN_AGAINST_KING]: "a lone man against a king",
  [WinReason.RESIGNATION]: "resignation",
  [WinReason.CAPTURE_FAULT]: "a capture fault",
  [WinReason.TIME]: "time",
  [WinReason.ABANDONMENT]: "abandonment",
};

/** What the loser did, for the reasons said of the loser: "Black wins: White lost on time". */
const LOSSES: Partial<Record<WinReason, string>> = {
  [WinReason.TIME]: "lost on time",
  [WinReason.ABANDONMENT]: "abandoned the game",
};

const ABORT_REASONS: Record<AbortReason, string> = {
  [AbortReason.UNSPECIFIED]: "Aborted",
  [AbortReason.SEAT]: "Aborted by a player",
  [AbortReason.NO_FIRST_MOVE]: "Aborted: the first move did not come in time",
};

const DRAW_REASONS: Record<DrawReason, string> = {
  [DrawReason.UNSPECIFIED]: "",
  [DrawReason.REPETITION]: "repetition",
  [DrawReason.MOVE_COUNT]: "the move count",
  [DrawReason.ONE_PIECE_EACH]: "one piece each",
  [DrawReason.AGREEMENT]: "agreement",
};

/**
 * The result of a finished game ("Black wins by resignation", "Black wins: White lost on time",
 * "Aborted by a player"); null while play goes on.
 */
export function resultText(state: GameState | undefined): string | null {
  const status = state?.status;
  switch (status?.state) {
    case PositionStatus_State.WON: {
      const loss = LOSSES[status.winReason];
      const winner = colorName(status.winner);
      if (loss) return `${winner} wins: ${colorName(opponentOf(status.winner))} ${loss}`;
      return `${winner} wins by ${WIN_REASONS[status.winReason]}`;
    }
    case PositionStatus_State.DRAWN:
      return `Drawn by ${DRAW_REASONS[status.drawReason]}`;
    case PositionStatus_State.ABORTED:
      return ABORT_REASONS[state?.abortReason ?? AbortReason.UNSPECIFIED];
    default:
      return null;
  }
}

/** A score from the side to move's view: "+0.35" men, "wins in 7 plies", "loses in 4 plies". */
export function scoreText(score: Score | undefined): string {
  switch (score?.value.case) {
    case "estimate": {
      const men = score.value.value / 100;
      return `${men > 0 ? "+" : ""}${men.toFixed(2)}`;
    }
    case "winInPlies":
      return `wins in ${score.value.value} plies`;
    case "lossInPlies":
      return `loses in ${score.value.value} plies`;
    default:
      return "?";
  }
}
