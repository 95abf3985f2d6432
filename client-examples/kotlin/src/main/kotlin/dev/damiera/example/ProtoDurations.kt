// Kotlin durations as google.protobuf.Duration, the type of every time limit in the API.
package dev.damiera.example

import kotlin.time.Duration
import kotlin.time.toJavaDuration
import com.google.protobuf.Duration as ProtoDuration

/** This duration as a google.protobuf.Duration (seconds and nanoseconds). */
fun Duration.toProto(): ProtoDuration {
    val java = toJavaDuration()
    return ProtoDuration.newBuilder().setSeconds(java.seconds).setNanos(java.nano).build()
}
