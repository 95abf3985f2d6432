// Opens the gRPC channel: the one place that knows the transport, TLS and the API key header.
package dev.damiera.example

import io.grpc.ManagedChannel
import io.grpc.ManagedChannelBuilder
import io.grpc.Metadata
import io.grpc.stub.MetadataUtils
import java.util.concurrent.TimeUnit

/** The header a server started with `--api-key` wants on every call. */
private val API_KEY_HEADER: Metadata.Key<String> = Metadata.Key.of("x-api-key", Metadata.ASCII_STRING_MARSHALLER)

/**
 * Builds a channel with the transport found on the classpath: grpc-netty-shaded on the JVM,
 * grpc-okhttp in an Android app. Nothing here names a transport, so the same code runs on both.
 */
fun openChannel(config: DamieraConfig): ManagedChannel {
    val builder = ManagedChannelBuilder.forTarget(config.target)
        // Mobile networks drop idle connections silently; a ping every 30 s (the server's own
        // keep-alive interval) notices before the next call does.
        .keepAliveTime(30, TimeUnit.SECONDS)
        .keepAliveWithoutCalls(false)
    if (config.useTls) builder.useTransportSecurity() else builder.usePlaintext()
    config.apiKey?.let { key ->
        val headers = Metadata().apply { put(API_KEY_HEADER, key) }
        builder.intercept(MetadataUtils.newAttachHeadersInterceptor(headers))
    }
    return builder.build()
}
