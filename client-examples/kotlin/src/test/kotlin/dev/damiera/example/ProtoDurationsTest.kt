// Durations reach the server normalised: whole seconds, then nanoseconds under a second, one sign.
package dev.damiera.example

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds

class ProtoDurationsTest {
    private fun Duration.parts() = toProto().let { it.seconds to it.nanos }

    @Test
    fun `milliseconds carry over into seconds and the rest into nanoseconds`() {
        assertEquals(0L to 100_000_000, 100.milliseconds.parts())
        assertEquals(1L to 500_000_000, 1500.milliseconds.parts())
        assertEquals(30L to 0, 30_000.milliseconds.parts())
        assertEquals(10L to 0, 10.seconds.parts())
    }

    @Test
    fun `a negative duration has both parts negative`() {
        assertEquals(-1L to -500_000_000, (-1500).milliseconds.parts())
    }
}
