// One connection to a Damiera server and the repositories over it; an app holds one per process.
package dev.damiera.example

import damiera.v1.EngineServiceGrpcKt.EngineServiceCoroutineStub
import damiera.v1.GameServiceGrpcKt.GameServiceCoroutineStub
import damiera.v1.RulesServiceGrpcKt.RulesServiceCoroutineStub
import io.grpc.ManagedChannel
import java.io.Closeable
import java.util.concurrent.TimeUnit

/**
 * The client's entry point. A channel is costly to open and multiplexes every call, so an Android
 * app makes one in its Application (or DI graph) and shares it; closing it ends calls in flight.
 */
class DamieraClient(config: DamieraConfig) : Closeable {
    private val channel: ManagedChannel = openChannel(config)

    /** Legal moves and playing them. */
    val rules = RulesRepository(RulesServiceCoroutineStub(channel))

    /** Best moves and analyses. */
    val engine = EngineRepository(EngineServiceCoroutineStub(channel))

    /** Hosted games. */
    val games = GameRepository(GameServiceCoroutineStub(channel))

    /** Lets calls in flight finish for a moment, then cuts them. */
    override fun close() {
        channel.shutdown()
        if (!channel.awaitTermination(2, TimeUnit.SECONDS)) channel.shutdownNow()
    }
}
