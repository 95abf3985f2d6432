/**
 * The example bot: it creates a hosted game against the engine, sits at White, and plays its
 * moves with the engine's advice (EngineService.BestMove at a level of its choosing), while
 * WatchGame brings it every move of the game, the engine's replies included, until the game ends.
 */
import { randomUUID } from "node:crypto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { DamieraClients } from "./clients.js";
import type { Game, GameMove, GameState } from "./gen/damiera/v1/game_service_pb.js";
import {
  Color,
  PositionStatus_State,
  type SearchLimitsSchema,
  type Variant,
} from "./gen/damiera/v1/types_pb.js";
import { withRetries } from "./retry.js";
import { actAsSeat } from "./seat.js";

/** How hard one side searches: a skill level (1 to 20) and when to stop. */
export interface SearchEffort {
  readonly level: number;
  readonly limits: MessageInitShape<typeof SearchLimitsSchema>;
}

/** The game the bot sets up and how it plays it. */
export interface BotGameOptions {
  readonly variant: Variant;
  /** A set-up position to start from; empty or undefined: the variant's start position. */
  readonly fen?: string;
  /** How the bot searches for its own moves. */
  readonly bot: SearchEffort;
  /** How strong the engine seat it plays against is. */
  readonly opponent: SearchEffort;
  /** Called with every move of the game as it arrives, the bot's and the engine's. */
  readonly onMove?: (move: GameMove) => void;
}

/** A game played to its end. */
export interface FinishedGame {
  /** The resource name, `games/{id}`. */
  readonly name: string;
  /** Every move, in order. */
  readonly moves: readonly GameMove[];
  /** The final state: won or drawn. */
  readonly state: GameState;
}

/** The name the bot's seat shows to watchers. */
const BOT_NAME = "typescript example bot";

/** What the bot needs at every turn: where to ask, which game, and its seat's token. */
interface BotSeat {
  readonly clients: DamieraClients;
  readonly options: BotGameOptions;
  readonly game: Game;
  /** White's secret token, sent with each of the bot's moves. */
  readonly token: string;
}

/** Creates a game with the bot at White and the engine at Black, and plays it to the end. */
export async function playAgainstEngine(
  clients: DamieraClients,
  options: BotGameOptions,
): Promise<FinishedGame> {
  // One id for every retry of the creation, so that a retry answers the same game.
  const requestId = randomUUID();
  const created = await withRetries(() =>
    clients.games.createGame({
      variant: options.variant,
      fen: options.fen ?? "",
      white: { player: { case: "person", value: { displayName: BOT_NAME } } },
      black: { player: { case: "engine", value: options.opponent } },
      requestId,
    }),
  );
  if (!created.game) throw new Error("CreateGame answered no game");
  return followAndPlay({ clients, options, game: created.game, token: created.whiteToken });
}

/** Watches the game and moves whenever it is White's turn, until the stream ends with the game. */
async function followAndPlay(seat: BotSeat): Promise<FinishedGame> {
  const { clients, options, game } = seat;
  const moves: GameMove[] = [];
  let state: GameState | undefined;
  // A watch has no deadline (a game can last hours): it ends with the game, or is aborted here.
  const stopWatching = new AbortController();
  try {
    const stream = clients.games.watchGame(
      { name: game.name },
      { timeoutMs: 0, signal: stopWatching.signal },
    );
    for await (const { event } of stream) {
      if (event.case === "keepAlive" || event.case === undefined) continue;
      for (const move of event.value.moves) {
        moves.push(move);
        options.onMove?.(move);
      }
      state = event.value.state;
      if (state && isToMove(state, Color.WHITE)) {
        await playOneMove(seat, moves, state);
      }
    }
  } finally {
    stopWatching.abort();
  }
  if (!state || state.status?.state === PositionStatus_State.ONGOING) {
    throw new Error(`the watch of ${game.name} ended before the game did`);
  }
  return { name: game.name, moves, state };
}

/** True when the game goes on and `color` is to move. */
function isToMove(state: GameState, color: Color): boolean {
  return (
    state.status?.state === PositionStatus_State.ONGOING &&
    state.position?.sideToMove === color
  );
}

/** Asks the engine for the bot's move and plays it, for exactly the position the bot has seen. */
async function playOneMove(
  { clients, options, game, token }: BotSeat,
  moves: readonly GameMove[],
  state: GameState,
): Promise<void> {
  if (moves.length !== state.ply) {
    throw new Error(`watched ${moves.length} moves but the game is at ply ${state.ply}`);
  }
  const { result } = await withRetries(() =>
    clients.engine.bestMove({
      search: {
        variant: game.variant,
        fen: game.startPosition?.fen ?? "",
        // The moves, not only the current position: repetitions count.
        moves: moves.map((move) => move.notation),
        level: options.bot.level,
        limits: options.bot.limits,
      },
    }),
  );
  const notation = result?.bestMove?.notation;
  if (!notation) throw new Error(`BestMove answered no move at ply ${state.ply}`);
  // `expectedPly` makes the move apply only to the position searched; `requestId` makes a retry
  // answer the stored move rather than play twice.
  const requestId = randomUUID();
  await withRetries(() =>
    clients.games.makeMove(
      { name: game.name, notation, expectedPly: state.ply, requestId },
      actAsSeat(token),
    ),
  );
}
