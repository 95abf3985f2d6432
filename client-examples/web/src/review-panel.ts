/**
 * The engine's review of a finished game: GameService.ReviewGame on the hosted game, its progress
 * as the moves are judged, then each side's faults and the evaluation chart (the server's SVG,
 * shown as an image). A new game cancels the review of the old one.
 */
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import type { DamieraApi } from "./api";
import { callFailure, wasCancelled } from "./error-message";
import type { JudgementCounts } from "./gen/damiera/v1/game_service_pb";

/** Each position of a review is searched this long. */
const REVIEW_MOVE_TIME_MS = 100;

function faults(counts: JudgementCounts | undefined): string {
  const { inaccuracies = 0, mistakes = 0, blunders = 0 } = counts ?? {};
  return `${inaccuracies} inaccuracies, ${mistakes} mistakes, ${blunders} blunders`;
}

/** The review shown beside the board once a game is over. */
export class ReviewPanel {
  private running: AbortController | null = null;

  constructor(
    private readonly element: HTMLElement,
    private readonly games: DamieraApi["games"],
  ) {}

  /** Reviews the hosted game `name`, replacing what is shown. */
  async review(name: string): Promise<void> {
    this.stop();
    const running = new AbortController();
    this.running = running;
    const progress = document.createElement("p");
    progress.className = "progress";
    progress.textContent = "Reviewing the game…";
    this.element.replaceChildren(progress);
    const request = { game: { case: "name" as const, value: name }, limits: { moveTime: durationFromMs(REVIEW_MOVE_TIME_MS) } };
    try {
      for await (const message of this.games.reviewGame(request, { signal: running.signal })) {
        const update = message.update;
        if (update.case === "reviewedMove") {
          progress.textContent = `Reviewing the game: ${update.value.done} of ${update.value.total} moves`;
        } else if (update.case === "summary") {
          const { white, black, chartSvg } = update.value;
          progress.textContent = `White: ${faults(white)}. Black: ${faults(black)}.`;
          const chart = document.createElement("img");
          chart.className = "chart";
          chart.alt = "White's expected score over the game";
          chart.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(chartSvg)}`;
          this.element.append(chart);
        }
      }
    } catch (error) {
      if (running.signal.aborted || wasCancelled(error)) return;
      const failure = callFailure(error);
      progress.className = "failure";
      progress.textContent = `The review failed: ${failure.message} (${failure.reason})`;
    }
  }

  /** Cancels the review running, if any, and clears it. */
  clear(): void {
    this.stop();
    this.element.replaceChildren();
  }

  private stop(): void {
    this.running?.abort();
    this.running = null;
  }
}
