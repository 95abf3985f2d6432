/** The three Damiera services as typed Connect clients over one transport. */
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { EngineService } from "./gen/damiera/v1/engine_service_pb.js";
import { GameService } from "./gen/damiera/v1/game_service_pb.js";
import { RulesService } from "./gen/damiera/v1/rules_service_pb.js";

/** A client per service, sharing one connection. */
export interface DamieraClients {
  /** Stateless rules questions: legal moves, applying a move, perft. */
  readonly rules: Client<typeof RulesService>;
  /** The search AI: best move, streamed analysis. */
  readonly engine: Client<typeof EngineService>;
  /** Hosted games: create, move, watch. */
  readonly games: Client<typeof GameService>;
}

/** Makes the clients of every service on `transport`. */
export function createDamieraClients(transport: Transport): DamieraClients {
  return {
    rules: createClient(RulesService, transport),
    engine: createClient(EngineService, transport),
    games: createClient(GameService, transport),
  };
}
