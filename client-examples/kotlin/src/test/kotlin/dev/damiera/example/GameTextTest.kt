// The lines the example prints for a game, without a server: moves with clocks, and the ends.
package dev.damiera.example

import damiera.v1.GameServiceOuterClass.AbortReason
import damiera.v1.GameServiceOuterClass.Clock
import damiera.v1.GameServiceOuterClass.Game
import damiera.v1.GameServiceOuterClass.GameMove
import damiera.v1.GameServiceOuterClass.GameState
import damiera.v1.Types.Color
import damiera.v1.Types.PositionStatus
import damiera.v1.Types.WinReason
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.time.Duration.Companion.milliseconds

class GameTextTest {
    @Test
    fun `a move shows its mover's clock in a timed game only`() {
        val move = GameMove.newBuilder().setPly(2).setColor(Color.COLOR_BLACK).setNotation("11-15")
        assertEquals("  3. BLACK 11-15", describeMove(move.build()))
        assertEquals("  3. BLACK 11-15  2:58", describeMove(move.setClock(178_400.milliseconds.toProto()).build()))
    }

    @Test
    fun `a game lost on time ends with both clocks`() {
        val status = PositionStatus.newBuilder().setState(PositionStatus.State.STATE_WON)
            .setWinner(Color.COLOR_BLACK).setWinReason(WinReason.WIN_REASON_TIME)
        val clock = Clock.newBuilder().setWhiteTime(0.milliseconds.toProto()).setBlackTime(171_900.milliseconds.toProto())
        val game = Game.newBuilder().setName("games/g1")
            .setState(GameState.newBuilder().setPly(40).setStatus(status).setClock(clock)).build()
        assertEquals(
            "games/g1 over after 40 plies: WON COLOR_BLACK WIN_REASON_TIME; clocks White 0:00, Black 2:51",
            describeEnd(game),
        )
    }

    @Test
    fun `an aborted game names why and an untimed one has no clocks`() {
        val status = PositionStatus.newBuilder().setState(PositionStatus.State.STATE_ABORTED)
        val game = Game.newBuilder().setName("games/g2").setState(
            GameState.newBuilder().setStatus(status).setAbortReason(AbortReason.ABORT_REASON_NO_FIRST_MOVE),
        ).build()
        assertEquals("games/g2 over after 0 plies: ABORTED ABORT_REASON_NO_FIRST_MOVE", describeEnd(game))
        assertEquals("1:05:00", describeClock(3_900_000.milliseconds.toProto()))
    }
}
