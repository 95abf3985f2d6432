// Where the Damiera server is and how to reach it: address, TLS and API key.
package dev.damiera.example

/**
 * How to reach one Damiera server. On Android this comes from the app's build config or settings,
 * never from a file in the APK that holds a production key.
 *
 * @property target `host:port` (or any gRPC target such as `dns:///damiera.example.org:443`).
 * @property useTls whether to speak TLS; a local `damiera serve` without `--tls-cert` needs false.
 * @property apiKey the `x-api-key` a server started with `--api-key` asks for on every call.
 */
data class DamieraConfig(
    val target: String,
    val useTls: Boolean = false,
    val apiKey: String? = null,
) {
    /** Says whether there is an API key, never the key itself: a config may well reach a log. */
    override fun toString() =
        "DamieraConfig(target=$target, useTls=$useTls, apiKey=${if (apiKey == null) "none" else "set"})"

    companion object {
        /**
         * Reads DAMIERA_ADDR (required), DAMIERA_TLS (`true` for TLS) and DAMIERA_API_KEY.
         * Fails with a message that says what to set when DAMIERA_ADDR is missing.
         */
        fun fromEnvironment(env: Map<String, String> = System.getenv()): DamieraConfig {
            val target = env["DAMIERA_ADDR"]?.takeIf { it.isNotBlank() }
                ?: error(
                    "DAMIERA_ADDR is not set: start a server (damiera serve --listen 127.0.0.1:50051) " +
                        "and export DAMIERA_ADDR=127.0.0.1:50051",
                )
            return DamieraConfig(
                target = target,
                useTls = env["DAMIERA_TLS"] == "true",
                apiKey = env["DAMIERA_API_KEY"]?.takeIf { it.isNotBlank() },
            )
        }
    }
}
