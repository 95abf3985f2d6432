// Plays one Italian game against the engine and prints it: `mvn -B -q compile exec:java`.
package dev.damiera.example

import damiera.v1.GameServiceOuterClass.EngineSeat
import damiera.v1.Types.SearchLimits
import damiera.v1.Types.Variant
import kotlinx.coroutines.runBlocking
import kotlin.time.Duration.Companion.milliseconds

fun main() = runBlocking {
    DamieraClient(DamieraConfig.fromEnvironment()).use { client ->
        showIllegalMove(client)
        val engine = EngineSeat.newBuilder()
            .setLevel(8)
            .setLimits(SearchLimits.newBuilder().setMoveTime(200.milliseconds.toProto()))
            .build()
        val hint = EngineHint(client.engine, level = 1, moveTime = 100.milliseconds)
        var printed = 0
        val game = EngineGame(client.games, hint).play(Variant.VARIANT_ITALIAN, "Kotlin example", engine) { game ->
            for (move in game.movesList.drop(printed)) {
                println(describeMove(move))
            }
            printed = game.movesCount
        }
        println(describeEnd(game))
        println()
        println(client.games.exportPdn(game.name))
    }
}

/** A move that is not legal, decoded: the reason a program switches on and the legal moves. */
private suspend fun showIllegalMove(client: DamieraClient) {
    try {
        client.rules.applyMove(Variant.VARIANT_ITALIAN, fen = "", notation = "22-17")
    } catch (error: DamieraException) {
        if (error.reason != "ILLEGAL_MOVE") throw error
        println("22-17 refused: ${error.code} ${error.reason}; legal moves: ${error.metadata["legalMoves"]}")
    }
}
