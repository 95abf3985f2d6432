// Hosted games against the engine: WatchGame's events, a move resent with its requestId, a whole game.
package dev.damiera.example

import damiera.v1.GameServiceOuterClass.Game
import damiera.v1.GameServiceOuterClass.WatchGameResponse
import damiera.v1.GameServiceOuterClass.WatchGameResponse.EventCase
import damiera.v1.Types.Color
import damiera.v1.Types.PositionStatus.State
import damiera.v1.Types.Variant
import damiera.v1.Types.WinReason
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Test
import java.util.UUID
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.seconds

class HostedGameTest : LiveServerTest() {
    @Test
    fun `WatchGame sends the game, then each move in order, then the end`() = runBlocking {
        val seat = client.games.createAgainstEngine(Variant.VARIANT_ITALIAN, "watcher", quickEngine)
        val events = Channel<WatchGameResponse>(Channel.UNLIMITED)
        launch {
            client.games.watchEvents(seat.name).collect { events.send(it) }
            events.close()
        }
        val first = withTimeout(5.seconds) { events.receive() }
        assertEquals(EventCase.GAME, first.eventCase)
        assertEquals(0, first.game.movesCount)

        client.games.makeMove(seat, "22-18", expectedPly = 0)
        val seen = mutableListOf(first)
        withTimeout(10.seconds) {
            while (seen.last().stateOrNull()?.ply != 2) seen += events.receive()
        }
        client.games.resign(seat)
        withTimeout(5.seconds) { for (event in events) seen += event }

        val changes = seen.drop(1).filter { it.eventCase == EventCase.UPDATE }
        val moves = changes.flatMap { it.update.movesList }
        assertEquals(listOf(0, 1), moves.map { it.ply })
        assertEquals(listOf(Color.COLOR_WHITE, Color.COLOR_BLACK), moves.map { it.color })
        assertEquals("22-18", moves.first().notation)
        val end = changes.last().update.state
        assertEquals(2, end.ply)
        assertEquals(State.STATE_WON, end.status.state)
        assertEquals(Color.COLOR_BLACK, end.status.winner)
        assertEquals(WinReason.WIN_REASON_RESIGNATION, end.status.winReason)
    }

    @Test
    fun `a game against the engine is played to its end and the engine wins`() = runBlocking {
        val player = EngineGame(client.games, FirstLegalMove(client.rules))
        val snapshots = mutableListOf<Game>()
        val game = withTimeout(60.seconds) {
            player.play(Variant.VARIANT_ITALIAN, "first legal move", quickEngine) { snapshots += it }
        }

        assertEquals(State.STATE_WON, game.state.status.state)
        assertEquals(Color.COLOR_BLACK, game.state.status.winner)
        assertTrue(game.state.status.winReason in setOf(WinReason.WIN_REASON_NO_PIECES, WinReason.WIN_REASON_NO_MOVES))
        assertEquals(List(game.movesCount) { it }, game.movesList.map { it.ply })
        assertEquals(game.state.ply, game.movesCount)
        assertEquals(snapshots.map { it.state.ply }.sorted(), snapshots.map { it.state.ply })

        val replayed = game.movesList.fold(game.startPosition.fen) { fen, move ->
            client.rules.applyMove(Variant.VARIANT_ITALIAN, fen, move.notation).position.fen
        }
        assertEquals(game.state.position.fen, replayed)
        assertTrue("[Result \"0-1\"]" in client.games.exportPdn(game.name))
    }

    @Test
    fun `a move sent again with its requestId answers the stored move, not a second one`() = runBlocking {
        val seat = client.games.createAgainstEngine(Variant.VARIANT_ITALIAN, "retrying", quickEngine)
        val requestId = UUID.randomUUID().toString()
        val first = client.games.makeMove(seat, "22-18", expectedPly = 0, requestId = requestId)
        val again = client.games.makeMove(seat, "22-18", expectedPly = 0, requestId = requestId)
        assertEquals(0 to "22-18", first.ply to first.notation)
        assertEquals(first.ply to first.notation, again.ply to again.notation)
        assertEquals(1, client.games.resign(seat).movesList.count { it.color == Color.COLOR_WHITE })
    }

    private fun WatchGameResponse.stateOrNull() = when (eventCase) {
        EventCase.GAME -> game.state
        EventCase.UPDATE -> update.state
        else -> null
    }
}
