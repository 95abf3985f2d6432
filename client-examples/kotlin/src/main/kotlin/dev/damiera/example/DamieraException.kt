// A failed call decoded the AIP-193 way: the status code plus the ErrorInfo reason a program switches on.
package dev.damiera.example

import com.google.rpc.BadRequest
import com.google.rpc.ErrorInfo
import com.google.rpc.RetryInfo
import io.grpc.Status
import io.grpc.StatusException
import io.grpc.StatusRuntimeException
import io.grpc.protobuf.StatusProto
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.catch
import java.time.Duration

/**
 * A call to Damiera that failed. The server puts a `google.rpc.ErrorInfo` (domain `damiera.dev`)
 * in every error it answers, often a `BadRequest` naming the field at fault, and a `RetryInfo`
 * when waiting helps; a failure of the transport itself (a passed deadline, no connection) has
 * only the status code.
 */
class DamieraException(
    /** The gRPC status code: what a generic retry policy looks at. */
    val code: Status.Code,
    /** ErrorInfo's reason ("ILLEGAL_MOVE", "NOT_YOUR_TURN", ...); null when the server did not answer. */
    val reason: String?,
    /** ErrorInfo's domain, "damiera.dev" for the server's own errors. */
    val domain: String?,
    /** ErrorInfo's metadata, such as `legalMoves` for ILLEGAL_MOVE or `token` for INVALID_FEN. */
    val metadata: Map<String, String>,
    /** BadRequest's field violations: the request field at fault and what is wrong with it. */
    val fieldViolations: Map<String, String>,
    /** RetryInfo's delay: how long to wait before trying again, when the server says. */
    val retryDelay: Duration?,
    message: String,
    cause: Throwable,
) : Exception(message, cause) {
    companion object {
        /** Decodes a gRPC failure; any other throwable is not a DamieraException and yields null. */
        fun from(failure: Throwable): DamieraException? {
            val status = when (failure) {
                is StatusException -> failure.status
                is StatusRuntimeException -> failure.status
                else -> return null
            }
            val details = StatusProto.fromThrowable(failure)?.detailsList.orEmpty()
            val info = details.firstOrNull { it.`is`(ErrorInfo::class.java) }?.unpack(ErrorInfo::class.java)
            val badRequest = details.firstOrNull { it.`is`(BadRequest::class.java) }?.unpack(BadRequest::class.java)
            val retry = details.firstOrNull { it.`is`(RetryInfo::class.java) }?.unpack(RetryInfo::class.java)
            return DamieraException(
                code = status.code,
                reason = info?.reason,
                domain = info?.domain,
                metadata = info?.metadataMap.orEmpty(),
                fieldViolations = badRequest?.fieldViolationsList.orEmpty().associate { it.field to it.description },
                retryDelay = retry?.retryDelay?.let { Duration.ofSeconds(it.seconds, it.nanos.toLong()) },
                message = "${status.code}${info?.let { " ${it.reason}" }.orEmpty()}: ${status.description.orEmpty()}",
                cause = failure,
            )
        }
    }
}

/** Runs one call, turning a gRPC failure into a [DamieraException]; cancellation passes through. */
internal suspend fun <T> decodingErrors(call: suspend () -> T): T =
    try {
        call()
    } catch (failure: StatusException) {
        throw DamieraException.from(failure) ?: failure
    }

/** The same for a stream: a failure mid-stream reaches the collector as a [DamieraException]. */
internal fun <T> Flow<T>.decodingErrors(): Flow<T> =
    catch { failure -> throw DamieraException.from(failure) ?: failure }
