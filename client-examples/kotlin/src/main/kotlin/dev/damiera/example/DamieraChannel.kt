// Opens the gRPC channel: the one place that knows the transport, TLS, the API key header and
// Damiera's service config.
package dev.damiera.example

import com.google.gson.Gson
import io.grpc.ManagedChannel
import io.grpc.ManagedChannelBuilder
import io.grpc.Metadata
import io.grpc.stub.MetadataUtils
import java.util.concurrent.TimeUnit

/** The header a server started with `--api-key` wants on every call. */
private val API_KEY_HEADER: Metadata.Key<String> = Metadata.Key.of("x-api-key", Metadata.ASCII_STRING_MARSHALLER)

/**
 * Damiera's published service config, proto/service_config.json (a resource of the build): its
 * retry policy has grpc-java send an idempotent call again when it fails UNAVAILABLE (the database
 * or the connection lost), up to 4 attempts within the call's deadline. The server sends none
 * through name resolution, so it is the channel's default.
 */
private val SERVICE_CONFIG: Map<String, *> by lazy {
    val resource = checkNotNull(DamieraConfig::class.java.getResource("/service_config.json")) {
        "service_config.json is not on the classpath: the build copies it from ../../proto"
    }
    // Gson reads numbers as Double, as grpc-java's service config parser expects.
    Gson().fromJson(resource.readText(), Map::class.java).mapKeys { (key, _) -> key as String }
}

/**
 * Builds a channel with the transport found on the classpath: grpc-netty-shaded on the JVM,
 * grpc-okhttp in an Android app. Nothing here names a transport, so the same code runs on both.
 */
fun openChannel(config: DamieraConfig): ManagedChannel {
    val builder = ManagedChannelBuilder.forTarget(config.target)
        // Mobile networks drop connections silently. While a call is open (an Analyze, a quiet
        // WatchGame), a connection that has heard nothing for 30 s (the server's own keep-alive
        // interval) is pinged, and a dead one fails its calls with UNAVAILABLE instead of hanging.
        // An idle channel is never pinged, which spares the battery: a connection that died while
        // idle is only found out by the next call, within that call's deadline.
        .keepAliveTime(30, TimeUnit.SECONDS)
        .keepAliveWithoutCalls(false)
        .defaultServiceConfig(SERVICE_CONFIG)
        .enableRetry()
    if (config.useTls) builder.useTransportSecurity() else builder.usePlaintext()
    config.apiKey?.let { key ->
        val headers = Metadata().apply { put(API_KEY_HEADER, key) }
        builder.intercept(MetadataUtils.newAttachHeadersInterceptor(headers))
    }
    return builder.build()
}
