/**
 * The engine's live view of the game: EngineService.Analyze on the current position, one line per
 * completed depth (score, nodes, principal variation) as the stream brings them, then the best
 * move. A new position cancels the analysis of the old one.
 */
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import type { DamieraApi } from "./api";
import { callFailure, wasCancelled } from "./error-message";
import { colorName, scoreText } from "./game-text";
import type { Game } from "./gen/damiera/v1/game_service_pb";
import { Color, type Move } from "./gen/damiera/v1/types_pb";

function line(moves: readonly Move[]): string {
  return moves.map((move) => move.notation).join(" ");
}

/** The analysis shown beside the board. */
export class AnalysisPanel {
  private running: AbortController | null = null;

  constructor(
    private readonly element: HTMLElement,
    private readonly engine: DamieraApi["engine"],
  ) {}

  /** Analyzes the game's current position for `moveTimeMs`, replacing the analysis shown. */
  async analyze(game: Game, moveTimeMs: number): Promise<void> {
    this.stop();
    const running = new AbortController();
    this.running = running;
    const caption = document.createElement("p");
    caption.textContent = `${colorName(game.state?.position?.sideToMove ?? Color.UNSPECIFIED)} to move, after ${game.moves.length} moves:`;
    const depths = document.createElement("ol");
    depths.className = "depths";
    this.element.replaceChildren(caption, depths);
    const search = {
      variant: game.variant,
      fen: game.startPosition?.fen ?? "",
      moves: game.moves.map((move) => move.notation),
      limits: { moveTime: durationFromMs(moveTimeMs) },
      threads: 1,
    };
    try {
      for await (const message of this.engine.analyze({ search }, { signal: running.signal })) {
        const update = message.update;
        if (update.case === "iteration") {
          const { depth, selectiveDepth, score, nodes, pv } = update.value;
          const item = document.createElement("li");
          item.dataset.depth = String(depth);
          item.textContent = `depth ${depth}/${selectiveDepth}  ${scoreText(score)}  ${nodes} nodes  ${line(pv)}`;
          depths.append(item);
        } else if (update.case === "result") {
          const best = document.createElement("p");
          best.className = "best";
          const { bestMove, score, depth } = update.value;
          best.textContent = `Best: ${bestMove?.notation ?? "none"} (${scoreText(score)}, depth ${depth})`;
          this.element.append(best);
        }
      }
    } catch (error) {
      if (running.signal.aborted || wasCancelled(error)) return;
      const failure = callFailure(error);
      const note = document.createElement("p");
      note.className = "failure";
      note.textContent = `Analysis failed: ${failure.message} (${failure.reason})`;
      this.element.append(note);
    }
  }

  /** Cancels the analysis running, if any; what it showed stays. */
  stop(): void {
    this.running?.abort();
    this.running = null;
  }
}
