// Kotlin durations as google.protobuf.Duration, the type of every time limit in the API.
package dev.damiera.example

import kotlin.time.Duration
import com.google.protobuf.Duration as ProtoDuration

/**
 * This duration as a google.protobuf.Duration, normalised as the type requires: whole seconds and
 * the nanoseconds left over (under a second), both with the duration's sign.
 */
fun Duration.toProto(): ProtoDuration =
    toComponents { seconds, nanoseconds -> ProtoDuration.newBuilder().setSeconds(seconds).setNanos(nanoseconds).build() }
