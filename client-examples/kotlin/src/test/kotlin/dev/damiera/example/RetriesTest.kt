// Retries by ErrorInfo reason: a refusal that did nothing is tried again, STALE_STATE never.
package dev.damiera.example

import com.google.protobuf.Any
import com.google.rpc.Code
import com.google.rpc.ErrorInfo
import com.google.rpc.Status
import io.grpc.protobuf.StatusProto
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.time.Duration.Companion.milliseconds

class RetriesTest {
    private val policy = RetryPolicy(attempts = 3, backoff = 1.milliseconds)

    /** A failure as the server sends it, decoded the way every repository call decodes it. */
    private fun refusal(code: Code, reason: String): DamieraException {
        val info = ErrorInfo.newBuilder().setReason(reason).setDomain("damiera.dev").build()
        val status = Status.newBuilder().setCode(code.number).setMessage(reason).addDetails(Any.pack(info)).build()
        return checkNotNull(DamieraException.from(StatusProto.toStatusException(status)))
    }

    @Test
    fun `a call refused as CONTENDED is made again until it succeeds`() = runBlocking {
        var calls = 0
        val answer = retrying(policy) {
            calls++
            if (calls < 3) throw refusal(Code.ABORTED, "CONTENDED")
            "stored"
        }
        assertEquals("stored", answer)
        assertEquals(3, calls)
    }

    @Test
    fun `the last refusal reaches the caller once the attempts are used up`() = runBlocking {
        var calls = 0
        val error = assertFailsWith<DamieraException> {
            retrying(policy) {
                calls++
                throw refusal(Code.RESOURCE_EXHAUSTED, "OVERLOADED")
            }
        }
        assertEquals("OVERLOADED", error.reason)
        assertEquals(3, calls)
    }

    @Test
    fun `STALE_STATE is never retried`() = runBlocking {
        var calls = 0
        val error = assertFailsWith<DamieraException> {
            retrying(policy) {
                calls++
                throw refusal(Code.ABORTED, "STALE_STATE")
            }
        }
        assertEquals("STALE_STATE", error.reason)
        assertEquals(1, calls)
    }
}
