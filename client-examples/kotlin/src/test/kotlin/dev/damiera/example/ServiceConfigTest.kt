// The channel retries UNAVAILABLE by Damiera's service config: against a stand-in RulesService on
// loopback that fails the first calls, with no loop of ours around the call.
package dev.damiera.example

import damiera.v1.RulesServiceGrpcKt.RulesServiceCoroutineImplBase
import damiera.v1.RulesServiceGrpcKt.RulesServiceCoroutineStub
import damiera.v1.RulesServiceOuterClass.ListVariantsRequest
import damiera.v1.RulesServiceOuterClass.ListVariantsResponse
import io.grpc.ServerBuilder
import io.grpc.Status
import io.grpc.StatusException
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import java.util.concurrent.atomic.AtomicInteger
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

class ServiceConfigTest {
    /** ListVariants fails UNAVAILABLE [failures] times, then answers; it counts the calls. */
    private class FlakyRules(private val failures: Int) : RulesServiceCoroutineImplBase() {
        val calls = AtomicInteger()

        override suspend fun listVariants(request: ListVariantsRequest): ListVariantsResponse {
            if (calls.incrementAndGet() <= failures) {
                throw StatusException(Status.UNAVAILABLE.withDescription("the database cannot be reached"))
            }
            return ListVariantsResponse.getDefaultInstance()
        }
    }

    /** Calls ListVariants once through [openChannel] against a stand-in failing [failures] times. */
    private fun callFlaky(failures: Int): Pair<Result<ListVariantsResponse>, Int> {
        val rules = FlakyRules(failures)
        val server = ServerBuilder.forPort(0).addService(rules).build().start()
        val channel = openChannel(DamieraConfig(target = "127.0.0.1:${server.port}"))
        try {
            val stub = RulesServiceCoroutineStub(channel)
            val answer = runCatching { runBlocking { stub.listVariants(ListVariantsRequest.getDefaultInstance()) } }
            return answer to rules.calls.get()
        } finally {
            channel.shutdownNow()
            server.shutdownNow()
        }
    }

    @Test
    fun `UNAVAILABLE is retried by the channel`() {
        val (answer, calls) = callFlaky(failures = 2)
        answer.getOrThrow()
        assertEquals(3, calls)
    }

    @Test
    fun `the channel gives up after four attempts`() {
        val (answer, calls) = callFlaky(failures = 10)
        val failure = assertFailsWith<StatusException> { answer.getOrThrow() }
        assertEquals(Status.Code.UNAVAILABLE, failure.status.code)
        assertEquals(4, calls)
    }
}
