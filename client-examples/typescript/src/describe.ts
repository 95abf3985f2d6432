/** Words for people: a game's moves and how it ended, as the example prints them. */
import type { GameMove } from "./gen/damiera/v1/game_service_pb.js";
import {
  Color,
  DrawReason,
  PositionStatus_State,
  WinReason,
  type PositionStatus,
} from "./gen/damiera/v1/types_pb.js";

/** "White" or "Black". */
function colorName(color: Color): string {
  return color === Color.WHITE ? "White" : color === Color.BLACK ? "Black" : "nobody";
}

/** One line per move: "ply 3  Black  11-15". */
export function describeMove(move: GameMove): string {
  const ply = String(move.ply).padStart(3);
  return `ply ${ply}  ${colorName(move.color).padEnd(5)}  ${move.notation}`;
}

/** "White wins (no pieces)", "draw (repetition)", "ongoing". */
export function describeStatus(status: PositionStatus | undefined): string {
  switch (status?.state) {
    case PositionStatus_State.WON:
      return `${colorName(status.winner)} wins (${enumWords(WinReason[status.winReason])})`;
    case PositionStatus_State.DRAWN:
      return `draw (${enumWords(DrawReason[status.drawReason])})`;
    case PositionStatus_State.ONGOING:
      return "ongoing";
    default:
      return "unknown";
  }
}

/** NO_PIECES → "no pieces". */
function enumWords(name: string | undefined): string {
  return (name ?? "unspecified").toLowerCase().replaceAll("_", " ");
}
