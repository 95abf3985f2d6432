// A hosted game in lines of text, as the example prints it: each move (with its mover's clock in a
// timed game), and how the game ended (with both clocks).
package dev.damiera.example

import damiera.v1.GameServiceOuterClass.Game
import damiera.v1.GameServiceOuterClass.GameMove
import com.google.protobuf.Duration as ProtoDuration

/** "  3. BLACK 11-15", then in a timed game the mover's time left: "  3. BLACK 11-15  2:58". */
fun describeMove(move: GameMove): String {
    val clock = if (move.hasClock()) "  ${describeClock(move.clock)}" else ""
    return "%3d. %-5s %s".format(move.ply + 1, move.color.name.removePrefix("COLOR_"), move.notation) + clock
}

/**
 * "games/x over after 40 plies: WON COLOR_BLACK WIN_REASON_TIME; clocks White 0:00, Black 2:51";
 * an aborted game names its ABORT_REASON, an untimed one has no clocks.
 */
fun describeEnd(game: Game): String {
    val state = game.state
    val status = state.status
    val clocks = if (state.clock.hasWhiteTime()) {
        "; clocks White ${describeClock(state.clock.whiteTime)}, Black ${describeClock(state.clock.blackTime)}"
    } else {
        ""
    }
    return "${game.name} over after ${state.ply} plies: ${status.state.name.removePrefix("STATE_")} " +
        listOf(status.winner.name, status.winReason.name, status.drawReason.name, state.abortReason.name)
            .filterNot { it.endsWith("UNSPECIFIED") }
            .joinToString(" ") + clocks
}

/** Time left, rounded down to the second: "2:51", "1:05:00". */
fun describeClock(duration: ProtoDuration): String {
    val seconds = maxOf(duration.seconds, 0)
    val (hours, minutes, rest) = Triple(seconds / 3600, seconds / 60 % 60, seconds % 60)
    return if (hours > 0) "%d:%02d:%02d".format(hours, minutes, rest) else "%d:%02d".format(minutes, rest)
}
