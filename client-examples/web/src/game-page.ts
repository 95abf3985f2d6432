/**
 * The page's play: it shows the chosen variant's start position, starts a hosted game, lets the
 * player pick moves among the legal ones (RulesService.ListLegalMoves) and sends them, follows the
 * engine's replies, analyses every position, shows the clocks of a timed game, reports the result and
 * has the finished game reviewed.
 */
import type { DamieraApi } from "./api";
import { AnalysisPanel } from "./analysis-panel";
import { boardLayout, type BoardLayout } from "./board-geometry";
import { BoardView } from "./board-view";
import { ClockView } from "./clock-view";
import { callFailure, type CallFailure } from "./error-message";
import { colorName, opponentOf, resultText } from "./game-text";
import type { Game } from "./gen/damiera/v1/game_service_pb";
import type { VariantInfo } from "./gen/damiera/v1/rules_service_pb";
import { Color, type Move, type Position } from "./gen/damiera/v1/types_pb";
import { HostedGame, type GameSetup } from "./hosted-game";
import { MovePicker, type Pick } from "./move-picker";
import { showMoves } from "./move-list";
import { ReviewPanel } from "./review-panel";

/** The parts of the page this controller fills. */
export interface GamePageElements {
  readonly board: HTMLElement;
  readonly clocks: HTMLElement;
  readonly status: HTMLElement;
  readonly message: HTMLElement;
  readonly moves: HTMLOListElement;
  readonly analysis: HTMLElement;
  readonly review: HTMLElement;
  readonly rules: HTMLElement;
  readonly resign: HTMLButtonElement;
}

/** The picker of a position the player cannot move in: every click is answered "wait". */
const NO_MOVES = new MovePicker([]);

/** The game in the page. */
export class GamePage {
  private readonly board: BoardView;
  private readonly clocks: ClockView;
  private readonly analysis: AnalysisPanel;
  private readonly review: ReviewPanel;
  /** The squares of the variant shown, from the player's side; null until the variants are known. */
  private layout: BoardLayout | null = null;
  /** The position drawn: the start position before a game, then the game's. */
  private position: Position | null = null;
  /** The game being played; null before the first and while one is being created. */
  private game: HostedGame | null = null;
  /**
   * Counts what the page was asked to show (a preview, a new game): a game whose creation ends
   * after the page moved on is closed at once, lest its watch hold a connection for nothing.
   */
  private shown = 0;
  /** The legal moves of the position shown, when it is the player's turn: kept to try again after a refusal. */
  private legalMoves: readonly Move[] = [];
  /** The player's clicks so far; NO_MOVES while the player cannot move. */
  private picker = NO_MOVES;

  constructor(
    private readonly api: DamieraApi,
    private readonly elements: GamePageElements,
  ) {
    this.board = new BoardView(
      elements.board,
      (square) => this.clicked(square),
      (from, to) => this.dragged(from, to),
    );
    this.clocks = new ClockView(elements.clocks);
    this.analysis = new AnalysisPanel(elements.analysis, api.engine);
    this.review = new ReviewPanel(elements.review, api.games);
    elements.resign.addEventListener("click", () => void this.resign());
  }

  /** Shows `info`'s start position from `color`'s side, with no game running. */
  preview(info: VariantInfo, color: Color): void {
    this.close();
    this.shown += 1;
    this.layout = boardLayout(info.boardSize, info.squareNaming, color === Color.BLACK);
    this.position = info.startPosition ?? null;
    this.elements.rules.replaceChildren(
      ...info.ruleSummary.map((rule) => Object.assign(document.createElement("li"), { textContent: rule })),
    );
    showMoves(this.elements.moves, []);
    this.elements.analysis.replaceChildren();
    this.say("");
    this.elements.status.textContent = `${info.displayName}: choose your side and the engine, then start.`;
    this.redraw();
  }

  /**
   * Starts a game of `info` as set up; the engine analyses for as long as it thinks per move.
   * Settles, never rejecting, once the game is shown, could not be created, or was given up for
   * something the page was asked to show meanwhile.
   */
  async start(info: VariantInfo, setup: GameSetup): Promise<void> {
    this.preview(info, setup.playerColor);
    const shown = this.shown;
    this.elements.status.textContent = "Creating the game…";
    const moveTimeMs = setup.engineMoveTimeMs;
    try {
      const game = await HostedGame.create(this.api, setup, {
        changed: (game) => void this.gameChanged(game, moveTimeMs),
        watchBroken: (failure, retryInMs) =>
          this.refused(`The game stream broke; watching again in ${retryInMs / 1000} s`, failure),
        watchStopped: (failure) => this.refused("The game can no longer be followed (start a new one)", failure),
      });
      if (this.shown !== shown) {
        game.close();
        return;
      }
      this.game = game;
      this.elements.resign.disabled = false;
      await this.gameChanged(game.current, moveTimeMs);
    } catch (error) {
      if (this.shown === shown) this.refused("Could not create the game", callFailure(error));
    }
  }

  private close(): void {
    this.game?.close();
    this.game = null;
    this.analysis.stop();
    this.clocks.reset();
    this.review.clear();
    this.setLegalMoves([]);
    this.elements.resign.disabled = true;
  }

  private async gameChanged(game: Game, moveTimeMs: number): Promise<void> {
    const hosted = this.game;
    if (!hosted || hosted.current !== game) return;
    this.clocks.show(game.state);
    this.position = game.state?.position ?? null;
    showMoves(this.elements.moves, game.moves);
    this.setLegalMoves([]);
    const result = resultText(game.state);
    const toMove = this.position?.sideToMove ?? Color.WHITE;
    const player = hosted.setup.playerColor;
    if (result) {
      this.elements.status.textContent = `${result}.`;
      this.elements.resign.disabled = true;
      this.analysis.stop();
      void this.review.review(game.name);
      return;
    }
    void this.analysis.analyze(game, moveTimeMs);
    if (toMove !== player) {
      this.elements.status.textContent = `The engine is thinking (${colorName(opponentOf(player))})…`;
      return;
    }
    // "Your move" only once the pieces that can move are shown: until then a click would be
    // answered "wait for your turn".
    try {
      const answer = await this.api.rules.listLegalMoves({ variant: game.variant, fen: this.position?.fen });
      if (this.game?.current !== game) return;
      this.setLegalMoves(answer.moves);
      this.elements.status.textContent = `Your move (${colorName(player)}).`;
    } catch (error) {
      if (this.game?.current !== game) return;
      this.elements.status.textContent = `Your move (${colorName(player)}), but the page could not list the legal moves.`;
      this.refused("Could not list the legal moves", callFailure(error));
    }
  }

  private setLegalMoves(moves: readonly Move[]): void {
    this.legalMoves = moves;
    this.picker = moves.length > 0 ? new MovePicker(moves) : NO_MOVES;
    this.redraw();
  }

  private redraw(): void {
    if (!this.layout || !this.position) return;
    const lastMove = this.game?.current.moves.at(-1)?.structured;
    this.board.draw({
      layout: this.layout,
      position: this.position,
      marks: this.picker.marks(),
      lastMove: lastMove ? [lastMove.fromSquare, ...lastMove.path] : [],
    });
  }

  private clicked(square: string): void {
    if (!this.game) {
      this.say("Start a game first.");
      return;
    }
    if (this.picker === NO_MOVES) {
      this.say("Wait for your turn.");
      return;
    }
    this.follow(this.picker.click(square));
  }

  private dragged(from: string, to: string): void {
    if (this.picker === NO_MOVES) return;
    this.picker.clear();
    const picked = this.picker.click(from);
    this.follow(picked.kind === "picking" ? this.picker.click(to) : picked);
  }

  private follow(pick: Pick): void {
    switch (pick.kind) {
      case "move":
        void this.play(pick.move.notation);
        return;
      case "unlisted":
        void this.play(pick.notation);
        return;
      case "hint":
        this.say(pick.hint);
        break;
      case "picking":
      case "cleared":
        this.say("");
        break;
    }
    this.redraw();
  }

  private async play(notation: string): Promise<void> {
    const hosted = this.game;
    if (!hosted) return;
    const legalMoves = this.legalMoves;
    this.setLegalMoves([]);
    this.say("");
    try {
      await hosted.move(notation);
    } catch (error) {
      this.refused(`${notation} was refused`, callFailure(error));
      if (this.game === hosted) this.setLegalMoves(legalMoves);
    }
  }

  private async resign(): Promise<void> {
    try {
      await this.game?.resign();
    } catch (error) {
      this.refused("Resigning failed", callFailure(error));
    }
  }

  private refused(what: string, failure: CallFailure): void {
    this.say(`${what}: ${failure.message} [${failure.reason}]`);
  }

  private say(text: string): void {
    this.elements.message.textContent = text;
  }
}
