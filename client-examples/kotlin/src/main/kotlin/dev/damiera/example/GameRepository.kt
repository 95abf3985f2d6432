// Hosted games: create one against the engine, move with the seat's token, follow it as a Flow.
package dev.damiera.example

import damiera.v1.GameServiceGrpcKt.GameServiceCoroutineStub
import damiera.v1.GameServiceOuterClass.CreateGameRequest
import damiera.v1.GameServiceOuterClass.EngineSeat
import damiera.v1.GameServiceOuterClass.ExportPdnRequest
import damiera.v1.GameServiceOuterClass.Game
import damiera.v1.GameServiceOuterClass.GameMove
import damiera.v1.GameServiceOuterClass.GameView
import damiera.v1.GameServiceOuterClass.MakeMoveRequest
import damiera.v1.GameServiceOuterClass.Person
import damiera.v1.GameServiceOuterClass.ResignRequest
import damiera.v1.GameServiceOuterClass.Seat
import damiera.v1.GameServiceOuterClass.WatchGameRequest
import damiera.v1.GameServiceOuterClass.WatchGameResponse
import damiera.v1.Types.Variant
import io.grpc.Metadata
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import java.util.UUID
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds

/**
 * A game this client sits at: its resource name and the secret token of its seat. An app keeps
 * the token where only this player can read it (Android: EncryptedSharedPreferences or DataStore).
 */
class SeatedGame(val name: String, val token: String) {
    /** The name only: a token must never reach a log. */
    override fun toString() = "SeatedGame($name)"
}

/**
 * Game calls, as an app's data layer makes them. A call the server refused without doing it
 * (busy, contended) is made again by [retries]; one that failed UNAVAILABLE, by the channel's
 * service config. A caller who lost an answer can
 * repeat CreateGame and MakeMove safely by sending the same requestId again.
 */
class GameRepository(
    private val stub: GameServiceCoroutineStub,
    /** A move is answered once it is stored; a slow database is the usual reason to wait longer. */
    private val timeout: Duration = 10.seconds,
    /** Each attempt has its own [timeout]; CreateGame and MakeMove send the same requestId each time. */
    private val retries: RetryPolicy = RetryPolicy(),
) {
    /**
     * Creates a game with this client as White, a person named [playerName], and the engine as
     * Black. A retry with the same [requestId] answers the same game instead of a second one, but
     * without White's token, which Damiera gives only to the first answer: if that answer was lost,
     * this fails with [IllegalStateException]; create another game (the server aborts the lost one
     * when its first move does not come).
     */
    suspend fun createAgainstEngine(
        variant: Variant,
        playerName: String,
        engine: EngineSeat,
        requestId: String = UUID.randomUUID().toString(),
    ): SeatedGame {
        val request = CreateGameRequest.newBuilder()
            .setVariant(variant)
            .setWhite(Seat.newBuilder().setPerson(Person.newBuilder().setDisplayName(playerName)))
            .setBlack(Seat.newBuilder().setEngine(engine))
            .setRequestId(requestId)
            .build()
        val created = unary { it.createGame(request) }
        check(!created.tokensAlreadyIssued) { "${created.game.name} was made by an earlier try whose answer was lost" }
        return SeatedGame(created.game.name, created.whiteToken)
    }

    /**
     * Plays [notation] for the seat. [expectedPly] makes the move apply only to the game as the
     * caller last saw it (else ABORTED, STALE_STATE); a retry with the same [requestId] after a lost
     * answer returns the stored move rather than playing a second one.
     */
    suspend fun makeMove(
        seat: SeatedGame,
        notation: String,
        expectedPly: Int,
        requestId: String = UUID.randomUUID().toString(),
    ): GameMove {
        val request = MakeMoveRequest.newBuilder()
            .setName(seat.name)
            .setNotation(notation)
            .setExpectedPly(expectedPly)
            .setRequestId(requestId)
            .build()
        return unary { it.makeMove(request, bearer(seat.token)) }.playedMove
    }

    /**
     * The seat resigns: the other seat wins. Answers the finished game with every move: Resign
     * answers without them by default (GAME_VIEW_BASIC), but a game ends once, so its whole record
     * is worth asking for here.
     */
    suspend fun resign(seat: SeatedGame): Game {
        val request = ResignRequest.newBuilder().setName(seat.name).setView(GameView.GAME_VIEW_FULL).build()
        return unary { it.resign(request, bearer(seat.token)) }.game
    }

    /** The game as PDN, with its tags and result. */
    suspend fun exportPdn(name: String): String =
        unary { it.exportPdn(ExportPdnRequest.newBuilder().setName(name).build()) }.pdn

    /**
     * The raw WatchGame stream: the whole game first, then an update per stored change and a
     * keep-alive when nothing happens. It completes after the message that shows the game over.
     * No deadline: it lives as long as the collecting scope (Android: viewModelScope).
     */
    fun watchEvents(name: String): Flow<WatchGameResponse> =
        stub.watchGame(WatchGameRequest.newBuilder().setName(name).build()).decodingErrors()

    /** The game as it changes: each update folded into the last snapshot; keep-alives skipped. */
    fun watch(name: String): Flow<Game> = flow {
        var current: Game? = null
        watchEvents(name).collect { event ->
            val next = when (event.eventCase) {
                WatchGameResponse.EventCase.GAME -> event.game
                WatchGameResponse.EventCase.UPDATE -> checkNotNull(current) { "an update before the game" }
                    .toBuilder()
                    .addAllMoves(event.update.movesList)
                    .setState(event.update.state)
                    .build()
                else -> return@collect
            }
            current = next
            emit(next)
        }
    }

    /** One unary call: each attempt with its own deadline, errors decoded, retried by [retries]. */
    private suspend fun <T> unary(call: suspend (GameServiceCoroutineStub) -> T): T =
        retrying(retries) { decodingErrors { call(stub.within(timeout)) } }

    private fun bearer(token: String) = Metadata().apply { put(AUTHORIZATION_HEADER, "Bearer $token") }

    private companion object {
        val AUTHORIZATION_HEADER: Metadata.Key<String> =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER)
    }
}
