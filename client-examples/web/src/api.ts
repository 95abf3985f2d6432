/**
 * The three Damiera services, reached over gRPC-Web (the server's tonic-web) through one transport.
 */
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { EngineService } from "./gen/damiera/v1/engine_service_pb";
import { GameService } from "./gen/damiera/v1/game_service_pb";
import { RulesService } from "./gen/damiera/v1/rules_service_pb";

/** Clients of every Damiera service, sharing one server address. */
export interface DamieraApi {
  /** Variants, legal moves. */
  readonly rules: Client<typeof RulesService>;
  /** The analysis. */
  readonly engine: Client<typeof EngineService>;
  /** The hosted game. */
  readonly games: Client<typeof GameService>;
}

/** Adds the `x-api-key` header that a server started with `--api-key` wants on every call. */
function apiKeyHeader(key: string): Interceptor {
  return (next) => (request) => {
    request.header.set("x-api-key", key);
    return next(request);
  };
}

/** Connects to the server at `baseUrl` (for example `http://127.0.0.1:50051`). */
export function connectDamiera(baseUrl: string, apiKey = import.meta.env.VITE_DAMIERA_API_KEY): DamieraApi {
  const transport = createGrpcWebTransport({
    baseUrl,
    useBinaryFormat: true,
    interceptors: apiKey ? [apiKeyHeader(apiKey)] : [],
  });
  return {
    rules: createClient(RulesService, transport),
    engine: createClient(EngineService, transport),
    games: createClient(GameService, transport),
  };
}
