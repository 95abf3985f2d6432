// Retries of a refused call, decided by the ErrorInfo reason: only the reasons that say nothing was
// done, and that a status code cannot say (UNAVAILABLE is the channel's service config's).
package dev.damiera.example

import kotlinx.coroutines.delay
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.toKotlinDuration

/**
 * How hard to try: [attempts] calls in all, the first included. Between two, the server's
 * `RetryInfo` delay when it gives one, else [backoff], doubled after each retry.
 */
data class RetryPolicy(val attempts: Int = 3, val backoff: Duration = 200.milliseconds) {
    init {
        require(attempts >= 1) { "attempts must be at least 1, not $attempts" }
    }
}

/**
 * The reasons with which the server refuses a call without doing any of it, and the same call may
 * succeed a moment later: busy (OVERLOADED, RATE_LIMITED), a game changing too fast to apply the
 * call (CONTENDED). A service config cannot say these, as it retries by status code alone and
 * RESOURCE_EXHAUSTED or ABORTED also mean a message too large or STALE_STATE. STALE_STATE is not
 * one of them: the game moved on, so the caller reads it again and decides anew rather than
 * resending.
 */
private val RETRYABLE_REASONS = setOf("OVERLOADED", "RATE_LIMITED", "CONTENDED")

/**
 * Makes [call] until it succeeds, fails for a reason other than the ones above, or has been made
 * [RetryPolicy.attempts] times; the last failure reaches the caller. UNAVAILABLE (the database or
 * the connection lost) is not retried here: the channel's service config (DamieraChannel.kt) does
 * it, for the read-only calls and the ones a request id makes safe to repeat.
 */
internal suspend fun <T> retrying(policy: RetryPolicy, call: suspend () -> T): T {
    var backoff = policy.backoff
    repeat(policy.attempts - 1) {
        try {
            return call()
        } catch (failure: DamieraException) {
            if (failure.reason !in RETRYABLE_REASONS) throw failure
            delay(failure.retryDelay?.toKotlinDuration() ?: backoff)
            backoff *= 2
        }
    }
    return call()
}
