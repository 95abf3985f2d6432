// The base of every test class: one client per class, connected to the server in DAMIERA_ADDR.
package dev.damiera.example

import damiera.v1.GameServiceOuterClass.EngineSeat
import damiera.v1.Types.SearchLimits
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.TestInstance

/**
 * Tests talk to a real server: `client-examples/run-tests kotlin` starts one, or export
 * DAMIERA_ADDR to point at your own. Searches stay short, since the server is shared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LiveServerTest {
    protected val client = DamieraClient(DamieraConfig.fromEnvironment())

    /**
     * The engine seat of the tests' games: full strength, four plies a move. A depth limit, not a
     * move time, so the engine plays the same moves however busy the machine is.
     */
    protected val quickEngine: EngineSeat = EngineSeat.newBuilder()
        .setLevel(20)
        .setLimits(SearchLimits.newBuilder().setDepth(4))
        .build()

    @AfterAll
    fun closeClient() = client.close()
}
