/**
 * The example bot: it creates a hosted game against the engine, sits at White, and plays its
 * moves with the engine's advice (EngineService.BestMove at a level of its choosing), while
 * WatchGame (watched again from where it broke, if it breaks) brings it every move of the game, the
 * engine's replies included, until the game ends.
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
import { watchResuming } from "./resume.js";
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
  /** Ends the game's watch and the bot's calls early, leaving the game unfinished. */
  readonly signal?: AbortSignal;
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
    clients.games.createGame(
      {
        variant: options.variant,
        fen: options.fen ?? "",
        white: { player: { case: "person", value: { displayName: BOT_NAME } } },
        black: { player: { case: "engine", value: options.opponent } },
        requestId,
      },
      { signal: options.signal },
    ),
  );
  if (!created.game) throw new Error("CreateGame answered no game");
  // A retry of a creation whose first answer was lost: Damiera gives a seat's token only in the
  // first answer, so the game cannot be played. (The server aborts it when no first move comes.)
  if (created.tokensAlreadyIssued) {
    throw new Error(`${created.game.name} was made by an earlier try whose answer, with the token, was lost`);
  }
  return followAndPlay({ clients, options, game: created.game, token: created.whiteToken });
}

/**
 * Watches the game, resuming the watch if it breaks, and moves whenever it is White's turn, until
 * the watch ends with the game.
 */
async function followAndPlay(seat: BotSeat): Promise<FinishedGame> {
  const { clients, options, game } = seat;
  const moves: GameMove[] = [];
  let state: GameState | undefined;
  for await (const change of watchResuming(clients.games, game.name, { signal: options.signal })) {
    for (const move of change.moves) {
      moves.push(move);
      options.onMove?.(move);
    }
    state = change.state;
    if (state && isToMove(state, Color.WHITE)) {
      await playOneMove(seat, moves, state);
    }
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
    clients.engine.bestMove(
      {
        search: {
          variant: game.variant,
          fen: game.startPosition?.fen ?? "",
          // The moves, not only the current position: repetitions count.
          moves: moves.map((move) => move.notation),
          level: options.bot.level,
          limits: options.bot.limits,
        },
      },
      { signal: options.signal },
    ),
  );
  const notation = result?.bestMove?.notation;
  if (!notation) throw new Error(`BestMove answered no move at ply ${state.ply}`);
  // `expectedPly` makes the move apply only to the position searched; `requestId` makes a retry
  // answer the stored move rather than play twice.
  const requestId = randomUUID();
  await withRetries(() =>
    clients.games.makeMove(
      { name: game.name, notation, expectedPly: state.ply, requestId },
      { ...actAsSeat(token), signal: options.signal },
    ),
  );
}
