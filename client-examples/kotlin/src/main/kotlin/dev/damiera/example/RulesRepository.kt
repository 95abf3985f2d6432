// The rules questions an app asks: the legal moves of a position and the result of playing one.
package dev.damiera.example

import damiera.v1.RulesServiceGrpcKt.RulesServiceCoroutineStub
import damiera.v1.RulesServiceOuterClass.ApplyMoveRequest
import damiera.v1.RulesServiceOuterClass.ApplyMoveResponse
import damiera.v1.RulesServiceOuterClass.ListLegalMovesRequest
import damiera.v1.RulesServiceOuterClass.ListLegalMovesResponse
import damiera.v1.Types.Variant
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds

/** Stateless rules calls; every answer depends on the request alone, so any of them may be retried. */
class RulesRepository(
    private val stub: RulesServiceCoroutineStub,
    /** Rules answers take milliseconds: past this the server or the network is in trouble. */
    private val timeout: Duration = 5.seconds,
) {
    /** The legal moves of [fen] (empty: the start position), and whether a capture is compulsory. */
    suspend fun legalMoves(variant: Variant, fen: String = ""): ListLegalMovesResponse = decodingErrors {
        stub.within(timeout).listLegalMoves(
            ListLegalMovesRequest.newBuilder().setVariant(variant).setFen(fen).build(),
        )
    }

    /** Plays [notation] (full or short) from [fen]; an illegal move fails with ILLEGAL_MOVE. */
    suspend fun applyMove(variant: Variant, fen: String, notation: String): ApplyMoveResponse = decodingErrors {
        stub.within(timeout).applyMove(
            ApplyMoveRequest.newBuilder().setVariant(variant).setFen(fen).setNotation(notation).build(),
        )
    }
}
