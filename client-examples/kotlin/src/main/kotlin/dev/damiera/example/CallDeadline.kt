// Gives one call a gRPC deadline, which the server sees (and the engine budgets its search by).
package dev.damiera.example

import io.grpc.stub.AbstractStub
import java.util.concurrent.TimeUnit
import kotlin.time.Duration

/**
 * A copy of the stub whose calls must finish within [timeout] from now. Taken per call: the deadline
 * is fixed when the copy is made. Unlike a coroutine `withTimeout`, it travels to the server as
 * `grpc-timeout`, so a search stops in time to answer with its best move so far.
 */
internal fun <S : AbstractStub<S>> S.within(timeout: Duration): S =
    withDeadlineAfter(timeout.inWholeMilliseconds, TimeUnit.MILLISECONDS)
