/**
 * The one connection to Damiera: Connect's gRPC protocol over HTTP/2 (`createGrpcTransport`), with
 * a default deadline for unary calls and the API key on every call.
 */
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { ServerConfig } from "./config.js";

/**
 * The deadline of a unary call unless it sets its own `timeoutMs`. Streams such as WatchGame pass
 * `timeoutMs: 0` (no deadline) and are ended with an AbortSignal instead.
 */
const DEFAULT_TIMEOUT_MS = 10_000;

/** Sends `x-api-key`, which a server started with `--api-key` wants on every call. */
function apiKeyInterceptor(apiKey: string): Interceptor {
  return (next) => (request) => {
    request.header.set("x-api-key", apiKey);
    return next(request);
  };
}

/**
 * A transport to the server. One is enough for a whole program: calls share its HTTP/2
 * connection, which is opened on the first call and kept alive with pings while streams are open
 * (a WatchGame stream can be quiet for a long time between moves).
 */
export function createDamieraTransport(config: ServerConfig): Transport {
  return createGrpcTransport({
    baseUrl: config.baseUrl,
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    pingIntervalMs: 30_000,
    interceptors: config.apiKey ? [apiKeyInterceptor(config.apiKey)] : [],
  });
}
