// A config may be logged: its toString says whether there is an API key, never the key.
package dev.damiera.example

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals

class DamieraConfigTest {
    @Test
    fun `toString says whether there is an API key but never prints it`() {
        assertEquals(
            "DamieraConfig(target=127.0.0.1:50051, useTls=false, apiKey=set)",
            DamieraConfig("127.0.0.1:50051", apiKey = "secret-key-123").toString(),
        )
        assertEquals(
            "DamieraConfig(target=127.0.0.1:50051, useTls=false, apiKey=none)",
            DamieraConfig("127.0.0.1:50051").toString(),
        )
    }
}
