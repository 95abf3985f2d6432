// Exact rules answers: start positions, a compulsory capture and the position it leaves.
package dev.damiera.example

import damiera.v1.Types.Color
import damiera.v1.Types.PositionStatus.State
import damiera.v1.Types.Variant
import damiera.v1.Types.WinReason
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

class RulesTest : LiveServerTest() {
    @Test
    fun `the Italian start position has exactly seven moves, in a stable order`() = runBlocking {
        val answer = client.rules.legalMoves(Variant.VARIANT_ITALIAN)
        assertEquals(
            listOf("21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"),
            answer.movesList.map { it.notation },
        )
        assertFalse(answer.mustCapture)
    }

    @Test
    fun `the Turkish start position has one move forwards for each man of the third rank`() = runBlocking {
        val answer = client.rules.legalMoves(Variant.VARIANT_TURKISH)
        assertEquals(
            listOf("a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"),
            answer.movesList.map { it.notation },
        )
    }

    @Test
    fun `a capture is compulsory and taken in full`() = runBlocking {
        val answer = client.rules.legalMoves(Variant.VARIANT_ITALIAN, "W:W22:B18,10")
        assertTrue(answer.mustCapture)
        val move = answer.movesList.single()
        assertEquals("22x13x6", move.notation)
        assertEquals("22x6", move.shortNotation)
        assertEquals(listOf("13", "6"), move.pathList)
        assertEquals(listOf("18", "10"), move.capturesList)
    }

    @Test
    fun `the short form plays the whole capture and taking the last piece wins`() = runBlocking {
        val answer = client.rules.applyMove(Variant.VARIANT_ITALIAN, "W:W22:B18,10", "22x6")
        assertEquals("22x13x6", answer.playedMove.notation)
        assertEquals("B:W6:B", answer.position.fen)
        assertEquals(State.STATE_WON, answer.status.state)
        assertEquals(Color.COLOR_WHITE, answer.status.winner)
        assertEquals(WinReason.WIN_REASON_NO_PIECES, answer.status.winReason)
    }
}
