// Errors decoded the AIP-193 way: the exact ErrorInfo reason, its metadata and the field at fault.
package dev.damiera.example

import damiera.v1.Types.Variant
import io.grpc.Status
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

class ErrorDecodingTest : LiveServerTest() {
    private val italianStartMoves = "21-17 22-18 23-19 24-20 21-18 22-19 23-20"

    @Test
    fun `an illegal move is refused with ILLEGAL_MOVE and the legal moves`() = runBlocking {
        val error = assertFailsWith<DamieraException> {
            client.rules.applyMove(Variant.VARIANT_ITALIAN, fen = "", notation = "22-17")
        }
        assertEquals(Status.Code.INVALID_ARGUMENT, error.code)
        assertEquals("ILLEGAL_MOVE", error.reason)
        assertEquals("damiera.dev", error.domain)
        assertEquals(mapOf("legalMoves" to italianStartMoves), error.metadata)
        assertEquals(setOf("notation"), error.fieldViolations.keys)
    }

    @Test
    fun `an illegal move in a hosted game is refused the same way and changes nothing`() = runBlocking {
        val seat = client.games.createAgainstEngine(Variant.VARIANT_ITALIAN, "refused", quickEngine)
        val error = assertFailsWith<DamieraException> {
            client.games.makeMove(seat, "22-17", expectedPly = 0)
        }
        assertEquals("ILLEGAL_MOVE", error.reason)
        assertEquals(italianStartMoves, error.metadata["legalMoves"])
        assertEquals(0, client.games.resign(seat).movesCount)
    }

    @Test
    fun `a move for a ply already played is refused with STALE_STATE`() = runBlocking {
        val seat = client.games.createAgainstEngine(Variant.VARIANT_ITALIAN, "stale", quickEngine)
        val error = assertFailsWith<DamieraException> {
            client.games.makeMove(seat, "22-18", expectedPly = 3)
        }
        assertEquals(Status.Code.ABORTED, error.code)
        assertEquals("STALE_STATE", error.reason)
        client.games.resign(seat)
        Unit
    }

    @Test
    fun `a FEN that is not a position is refused with INVALID_FEN naming the token`() = runBlocking {
        val error = assertFailsWith<DamieraException> {
            client.rules.legalMoves(Variant.VARIANT_ITALIAN, "W:W99:B1")
        }
        assertEquals(Status.Code.INVALID_ARGUMENT, error.code)
        assertEquals("INVALID_FEN", error.reason)
        assertEquals("99", error.metadata["token"])
        assertEquals(setOf("fen"), error.fieldViolations.keys)
    }
}
