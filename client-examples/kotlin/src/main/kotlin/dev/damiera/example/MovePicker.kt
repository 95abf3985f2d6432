// How this client chooses its own moves: the first legal move, or a weak engine's hint.
package dev.damiera.example

import damiera.v1.EngineServiceOuterClass.SearchRequest
import damiera.v1.GameServiceOuterClass.Game
import damiera.v1.Types.SearchLimits
import kotlin.time.Duration

/** Chooses the move to play in a game where this client is to move. */
fun interface MovePicker {
    /** The move, in the variant's notation, for the side to move in [game]. */
    suspend fun pick(game: Game): String
}

/** Plays the first move the rules list: instant, predictable, and weak. */
class FirstLegalMove(private val rules: RulesRepository) : MovePicker {
    override suspend fun pick(game: Game): String =
        rules.legalMoves(game.variant, game.state.position.fen).movesList.first().notation
}

/**
 * Asks the engine for a hint at a low [level] with a short [moveTime]. It sends the game's moves
 * from its start rather than only the current position, since they count for repetitions.
 */
class EngineHint(
    private val engine: EngineRepository,
    private val level: Int,
    private val moveTime: Duration,
) : MovePicker {
    override suspend fun pick(game: Game): String {
        val search = SearchRequest.newBuilder()
            .setVariant(game.variant)
            .setFen(game.startPosition.fen)
            .addAllMoves(game.movesList.map { it.notation })
            .setLevel(level)
            .setThreads(1)
            .setLimits(SearchLimits.newBuilder().setMoveTime(moveTime.toProto()))
            .build()
        // The deadline leaves the search its move time plus room for the queue and the network.
        return engine.bestMove(search, deadline = moveTime * 10).bestMove.notation
    }
}
