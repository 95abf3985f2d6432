/**
 * A WatchGame that outlives a broken stream. When the stream fails with UNAVAILABLE (a server
 * shutting down answers "watch again with from_ply N"; a lost connection says less), it watches
 * again with `fromPly` set to the moves already received, after a pause that grows, and gives up
 * after a few breaks in a row.
 */
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { Game, GameService, GameUpdate } from "./gen/damiera/v1/game_service_pb.js";
import { pauseBeforeRetry, type RetryPolicy } from "./retry.js";

/** What a watch brings besides keep-alives: the whole game, or the moves since and the state. */
export type GameChange = Game | GameUpdate;

/** Five watches in a row that break before a message: about 8 s of pauses, then give up. */
const DEFAULT_RESUME_POLICY: RetryPolicy = { attempts: 5, backoffMs: 500 };

/** How to watch. */
export interface ResumeOptions {
  /** Ends the watch (and a pause between watches) early. */
  readonly signal?: AbortSignal;
  /** How many watches in a row may break before a message, and the pause between them. */
  readonly policy?: RetryPolicy;
}

/**
 * The changes of game `name` until the game ends: the whole game first, then each change, across
 * breaks of the stream. Leaving the loop early closes the stream. A watch has no deadline (a game
 * can last hours); `signal` ends it.
 */
export async function* watchResuming(
  games: Pick<Client<typeof GameService>, "watchGame">,
  name: string,
  { signal, policy = DEFAULT_RESUME_POLICY }: ResumeOptions = {},
): AsyncGenerator<GameChange, void, undefined> {
  // The moves received so far; undefined until the whole game came, which the first watch asks for.
  let received: number | undefined;
  let breaks = 0;
  for (;;) {
    const stop = new AbortController();
    try {
      const stream = games.watchGame(
        { name, fromPly: received },
        { timeoutMs: 0, signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal },
      );
      for await (const { event } of stream) {
        breaks = 0;
        if (event.case === "game" || event.case === "update") {
          received = (event.case === "game" ? 0 : (received ?? 0)) + event.value.moves.length;
          yield event.value;
        }
      }
      return; // the server ends the stream after the update that shows the game over
    } catch (error) {
      breaks++;
      if (ConnectError.from(error).code !== Code.Unavailable || breaks >= policy.attempts) {
        throw error;
      }
      await pauseBeforeRetry(error, breaks, policy, signal);
    } finally {
      stop.abort();
    }
  }
}
