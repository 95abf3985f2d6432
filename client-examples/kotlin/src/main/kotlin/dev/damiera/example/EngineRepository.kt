// The search AI: one best move under a deadline, or an analysis streamed as a Flow.
package dev.damiera.example

import damiera.v1.EngineServiceGrpcKt.EngineServiceCoroutineStub
import damiera.v1.EngineServiceOuterClass.AnalyzeRequest
import damiera.v1.EngineServiceOuterClass.AnalyzeResponse
import damiera.v1.EngineServiceOuterClass.BestMoveRequest
import damiera.v1.EngineServiceOuterClass.SearchRequest
import damiera.v1.EngineServiceOuterClass.SearchResult
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.emitAll
import kotlinx.coroutines.flow.flow
import kotlin.time.Duration

/** Engine calls. Searches are the server's scarce resource: give each one limits and a deadline. */
class EngineRepository(private val stub: EngineServiceCoroutineStub) {
    /**
     * Searches [search] and answers the best move. The [deadline] is part of the search's budget:
     * when it comes first, the server answers a little before it with the best move found so far
     * (`STOP_REASON_DEADLINE`) rather than failing.
     */
    suspend fun bestMove(search: SearchRequest, deadline: Duration): SearchResult = decodingErrors {
        stub.within(deadline).bestMove(BestMoveRequest.newBuilder().setSearch(search).build()).result
    }

    /**
     * Streams the search: one iteration per completed depth, then the result as the last element.
     * Passing the [deadline] ends the stream the same way, with the result found so far. The flow is
     * cold: each collection (again after `repeatOnLifecycle` restarts it) makes a new call whose
     * [deadline] counts from that moment. Cancelling the collecting coroutine (a screen closed)
     * cancels the call and stops the search at once.
     */
    fun analyze(search: SearchRequest, deadline: Duration): Flow<AnalyzeResponse> = flow {
        emitAll(stub.within(deadline).analyze(AnalyzeRequest.newBuilder().setSearch(search).build()))
    }.decodingErrors()
}
