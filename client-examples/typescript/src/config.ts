/**
 * Where the Damiera server is and how to reach it, read from the environment: DAMIERA_URL (or
 * DAMIERA_ADDR, host:port), and DAMIERA_API_KEY for a server started with `--api-key`.
 */

/** How to reach one Damiera server. */
export interface ServerConfig {
  /** The base URL of the server: `http://host:port` for plaintext, `https://host:port` for TLS. */
  readonly baseUrl: string;
  /** The key sent as `x-api-key` on every call; undefined when the server wants none. */
  readonly apiKey: string | undefined;
}

/**
 * Reads the server's address from the environment. DAMIERA_URL wins; a bare DAMIERA_ADDR
 * (host:port, as gRPC tools take it) means plaintext HTTP/2.
 */
export function serverConfigFromEnv(): ServerConfig {
  const env = process.env;
  const url = env.DAMIERA_URL?.trim();
  const addr = env.DAMIERA_ADDR?.trim();
  const baseUrl = url || (addr ? `http://${addr}` : undefined);
  if (!baseUrl) {
    throw new Error(
      "Set DAMIERA_URL (e.g. http://127.0.0.1:50051) or DAMIERA_ADDR (e.g. 127.0.0.1:50051) " +
        "to the address of a running `damiera serve`.",
    );
  }
  return { baseUrl, apiKey: env.DAMIERA_API_KEY || undefined };
}
