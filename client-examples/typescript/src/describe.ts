/** Words for people: a game's moves, its clocks and how it ended, as the example prints them. */
import type { Duration } from "@bufbuild/protobuf/wkt";
import { AbortReason, type GameMove } from "./gen/damiera/v1/game_service_pb.js";
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

/** Time left, rounded down to the second: "2:51", "1:05:00". */
export function describeClock(duration: Duration): string {
  const seconds = Math.max(Number(duration.seconds), 0);
  const [hours, minutes] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60];
  const rest = String(seconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** One line per move: "ply   3  Black  11-15", then in a timed game the mover's time left: "  2:58". */
export function describeMove(move: GameMove): string {
  const ply = String(move.ply).padStart(3);
  const clock = move.clock ? `  ${describeClock(move.clock)}` : "";
  return `ply ${ply}  ${colorName(move.color).padEnd(5)}  ${move.notation}${clock}`;
}

/** What the loser did, for the reasons said of the loser. */
const LOSSES: Partial<Record<WinReason, string>> = {
  [WinReason.TIME]: "lost on time",
  [WinReason.ABANDONMENT]: "abandoned the game",
};

/**
 * "White wins (no pieces)", "Black wins (White lost on time)", "draw (repetition)", "aborted (no
 * first move)" (with the game state's abort reason), "ongoing".
 */
export function describeStatus(
  status: PositionStatus | undefined,
  abortReason: AbortReason = AbortReason.UNSPECIFIED,
): string {
  switch (status?.state) {
    case PositionStatus_State.WON: {
      const loss = LOSSES[status.winReason];
      const loser = status.winner === Color.WHITE ? Color.BLACK : Color.WHITE;
      const reason = loss ? `${colorName(loser)} ${loss}` : enumWords(WinReason[status.winReason]);
      return `${colorName(status.winner)} wins (${reason})`;
    }
    case PositionStatus_State.DRAWN:
      return `draw (${enumWords(DrawReason[status.drawReason])})`;
    case PositionStatus_State.ABORTED:
      return `aborted (${enumWords(AbortReason[abortReason])})`;
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
