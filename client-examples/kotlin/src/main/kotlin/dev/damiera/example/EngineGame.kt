// Plays one hosted game against the engine to its end, driven by the game's own WatchGame stream.
package dev.damiera.example

import damiera.v1.GameServiceOuterClass.EngineSeat
import damiera.v1.GameServiceOuterClass.Game
import damiera.v1.Types.Color
import damiera.v1.Types.PositionStatus.State
import damiera.v1.Types.Variant
import kotlinx.coroutines.flow.last
import kotlinx.coroutines.flow.onEach

/**
 * This client sits at White and [picker] chooses its moves; the server plays Black. The loop is
 * the stream itself: every snapshot where White is to move gets one move, and the engine's reply
 * arrives as the next snapshots, so there is no polling and no separate "wait for the engine".
 */
class EngineGame(private val games: GameRepository, private val picker: MovePicker) {
    /**
     * Creates the game, plays it out and answers it as it ended. [onChange] sees every snapshot
     * (a UI would render it). Cancelling the caller's scope stops the stream and the game stays
     * stored on the server, where the same seat can come back to it.
     */
    suspend fun play(
        variant: Variant,
        playerName: String,
        engine: EngineSeat,
        onChange: (Game) -> Unit = {},
    ): Game {
        val seat = games.createAgainstEngine(variant, playerName, engine)
        var lastPlyPlayed = -1
        return games.watch(seat.name)
            .onEach(onChange)
            .onEach { game ->
                val ply = game.state.ply
                if (isOurTurn(game) && ply != lastPlyPlayed) {
                    lastPlyPlayed = ply
                    games.makeMove(seat, picker.pick(game), expectedPly = ply)
                }
            }
            .last()
    }

    private fun isOurTurn(game: Game): Boolean =
        game.state.status.state == State.STATE_ONGOING && game.state.position.sideToMove == Color.COLOR_WHITE
}
