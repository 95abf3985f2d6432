// The engine under limits and deadlines: a deadline answers the best move so far; Analyze streams in order.
package dev.damiera.example

import damiera.v1.EngineServiceOuterClass.AnalyzeResponse.UpdateCase
import damiera.v1.EngineServiceOuterClass.SearchRequest
import damiera.v1.EngineServiceOuterClass.StopReason
import damiera.v1.Types.SearchLimits
import damiera.v1.Types.Variant
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.last
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.seconds
import kotlin.time.measureTimedValue

class EngineTest : LiveServerTest() {
    private fun italianStart(limits: SearchLimits.Builder): SearchRequest =
        SearchRequest.newBuilder().setVariant(Variant.VARIANT_ITALIAN).setThreads(1).setLimits(limits).build()

    @Test
    fun `a deadline shorter than the move time answers the best move found so far`() = runBlocking {
        // Asked first, this call also opens the connection, which the deadline must not pay for.
        val legal = client.rules.legalMoves(Variant.VARIANT_ITALIAN).movesList.map { it.notation }
        val search = italianStart(SearchLimits.newBuilder().setMoveTime(10.seconds.toProto()))
        val (result, took) = measureTimedValue { client.engine.bestMove(search, deadline = 1.seconds) }
        assertEquals(StopReason.STOP_REASON_DEADLINE, result.stopReason)
        assertTrue(result.bestMove.notation in legal, "${result.bestMove.notation} is not in $legal")
        assertTrue(took < 3.seconds, "the answer took $took")
    }

    @Test
    fun `Analyze streams one iteration per depth, then the result`() = runBlocking {
        val search = italianStart(SearchLimits.newBuilder().setDepth(4))
        val updates = client.engine.analyze(search, deadline = 10.seconds).toList()
        assertEquals(
            listOf(UpdateCase.ITERATION, UpdateCase.ITERATION, UpdateCase.ITERATION, UpdateCase.ITERATION, UpdateCase.RESULT),
            updates.map { it.updateCase },
        )
        assertEquals(listOf(1, 2, 3, 4), updates.dropLast(1).map { it.iteration.depth })
        val result = updates.last().result
        assertEquals(4, result.depth)
        assertEquals(StopReason.STOP_REASON_LIMIT, result.stopReason)
        assertEquals(updates[3].iteration.pvList.first().notation, result.bestMove.notation)
    }

    @Test
    fun `Analyze's deadline counts from when the flow is collected, not from when it is made`() = runBlocking {
        val deadline = 3.seconds
        val analysis = client.engine.analyze(italianStart(SearchLimits.newBuilder().setDepth(1)), deadline)
        // Past the deadline as it would have been had it started with the flow: the call must still succeed.
        delay(deadline + 1.seconds)
        repeat(2) {
            val last = analysis.last()
            assertEquals(UpdateCase.RESULT, last.updateCase)
            assertTrue(last.result.hasBestMove(), "no best move in $last")
        }
    }
}
