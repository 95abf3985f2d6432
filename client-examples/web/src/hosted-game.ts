/**
 * One hosted game against the engine, as the server keeps it: created with GameService.CreateGame
 * (the player at one seat, the engine at the other), followed with WatchGame (resumed from the
 * moves already seen when the stream breaks for a transient reason, waiting longer each time it
 * breaks in a row), and played with the seat's secret token. That loop is this page's own: a
 * browser speaks gRPC-Web (Connect's transport), which reads no gRPC service config, so Damiera's
 * (proto/service_config.json, which the Go, Kotlin and Python clients load) cannot serve here; nor
 * would it, since a service config retries unary calls and never resumes a stream.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import type { DamieraApi } from "./api";
import { callFailure, isTransient, wasCancelled, type CallFailure } from "./error-message";
import type { Game, GameMove, GameState, TimeControlSchema, WatchGameResponse } from "./gen/damiera/v1/game_service_pb";
import { Color, type Variant } from "./gen/damiera/v1/types_pb";

/** How long to wait before watching again after the stream broke; doubled at each break in a row. */
const FIRST_REWATCH_DELAY_MS = 1000;
/** The longest wait between two tries, however often the stream broke. */
const MAX_REWATCH_DELAY_MS = 30_000;

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resume) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resume();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/** The moves played in a game or an update's state. */
function plyOf(game: { state?: GameState }): number {
  return game.state?.ply ?? 0;
}

/** True when `next` shows a change after the state of `seen`: a later ply or, at it, another etag. */
function isNewer(next: { state?: GameState }, seen: { state?: GameState }): boolean {
  return plyOf(next) > plyOf(seen) || (plyOf(next) === plyOf(seen) && next.state?.etag !== seen.state?.etag);
}

/** A time control, as CreateGame takes it. */
export type TimeControlInit = MessageInitShape<typeof TimeControlSchema>;

/** The game the player asked for. */
export interface GameSetup {
  readonly variant: Variant;
  /** The player's side; the engine takes the other. */
  readonly playerColor: Color;
  /** The engine's skill, 1 to 20. */
  readonly engineLevel: number;
  /** How long the engine thinks per move. */
  readonly engineMoveTimeMs: number;
  /** The game's clock; undefined: untimed. */
  readonly timeControl?: TimeControlInit;
}

/** What the game tells the page. */
export interface GameListener {
  /** The game changed (a move, a resignation, the end); called as soon as the change is received. */
  changed(game: Game): void;
  /** The watch stream broke for a transient reason (UNAVAILABLE, say); it is resumed after `retryInMs`. */
  watchBroken(failure: CallFailure, retryInMs: number): void;
  /** The watch failed for good (NOT_FOUND, API_KEY_REQUIRED, …): the game's changes are no longer followed. */
  watchStopped(failure: CallFailure): void;
}

/** A game in progress on the server, and the player's seat in it. */
export class HostedGame {
  /** Ends the watch stream when the page leaves the game. */
  private readonly watching = new AbortController();

  private constructor(
    private readonly api: DamieraApi,
    private game: Game,
    private readonly seatToken: string,
    readonly setup: GameSetup,
    private readonly listener: GameListener,
  ) {}

  /** Creates the game on the server and starts watching it. */
  static async create(api: DamieraApi, setup: GameSetup, listener: GameListener): Promise<HostedGame> {
    const person = { player: { case: "person" as const, value: { displayName: "You" } } };
    const engine = {
      player: {
        case: "engine" as const,
        value: { level: setup.engineLevel, limits: { moveTime: durationFromMs(setup.engineMoveTimeMs) } },
      },
    };
    const playsWhite = setup.playerColor === Color.WHITE;
    const created = await api.games.createGame({
      variant: setup.variant,
      white: playsWhite ? person : engine,
      black: playsWhite ? engine : person,
      options: { timeControl: setup.timeControl },
    });
    if (!created.game) throw new Error("CreateGame answered no game");
    const token = playsWhite ? created.whiteToken : created.blackToken;
    const hosted = new HostedGame(api, created.game, token, setup, listener);
    void hosted.watch();
    return hosted;
  }

  /** The game as last seen. */
  get current(): Game {
    return this.game;
  }

  /** Plays `notation` for the player's seat; throws the server's refusal. */
  async move(notation: string): Promise<void> {
    const answer = await this.api.games.makeMove(
      { name: this.game.name, notation, expectedPly: plyOf(this.game) },
      { headers: this.seatHeaders() },
    );
    if (answer.game) this.acted(answer.game, answer.playedMove);
  }

  /** Resigns for the player's seat. */
  async resign(): Promise<void> {
    const answer = await this.api.games.resign({ name: this.game.name }, { headers: this.seatHeaders() });
    if (answer.game) this.acted(answer.game);
  }

  /** Stops watching: the page has moved on to another game. */
  close(): void {
    this.watching.abort();
  }

  private seatHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.seatToken}` };
  }

  private async watch(): Promise<void> {
    const { signal } = this.watching;
    let delayMs = FIRST_REWATCH_DELAY_MS;
    while (!signal.aborted) {
      try {
        const stream = this.api.games.watchGame(
          { name: this.game.name, fromPly: this.game.moves.length },
          { signal },
        );
        for await (const message of stream) {
          this.apply(message);
          delayMs = FIRST_REWATCH_DELAY_MS;
        }
        return;
      } catch (error) {
        if (signal.aborted || wasCancelled(error)) return;
        if (!isTransient(error)) {
          this.listener.watchStopped(callFailure(error));
          return;
        }
        this.listener.watchBroken(callFailure(error), delayMs);
        await pause(delayMs, signal);
        delayMs = Math.min(2 * delayMs, MAX_REWATCH_DELAY_MS);
      }
    }
  }

  private apply(message: WatchGameResponse): void {
    const event = message.event;
    if (event.case === "game") {
      this.replace(event.value);
    } else if (event.case === "update" && isNewer(event.value, this.game)) {
      const moves = [...this.game.moves];
      for (const move of event.value.moves) {
        if (move.ply === moves.length) moves.push(move);
      }
      this.game = { ...this.game, moves, state: event.value.state };
      this.listener.changed(this.game);
    }
  }

  /**
   * Takes an action's answer: the game without its moves (GAME_VIEW_BASIC, the actions' default,
   * so that an answer costs the same at any ply), with the moves already seen and `played`. When
   * the moves seen do not reach up to `played`, the watch stream brings them and the answer waits.
   */
  private acted(game: Game, played?: GameMove): void {
    const seen = played ? this.game.moves.slice(0, played.ply) : this.game.moves;
    if (played && seen.length !== played.ply) return;
    this.replace({ ...game, moves: played ? [...seen, played] : seen });
  }

  /** Takes a whole game from the server unless it is not newer than the one already seen. */
  private replace(game: Game): void {
    if (!isNewer(game, this.game)) return;
    this.game = game;
    this.listener.changed(this.game);
  }
}
