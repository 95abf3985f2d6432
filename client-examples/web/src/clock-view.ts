/**
 * The two clocks of a timed game. The server sends both times as it read them; between its
 * messages the running side's clock is counted down here, every TICK_MS, from the moment the
 * message was received (not from the server's `clock.time`, so that the two machines' clocks need
 * not agree).
 */
import type { Duration } from "@bufbuild/protobuf/wkt";
import type { GameState } from "./gen/damiera/v1/game_service_pb";
import { Color } from "./gen/damiera/v1/types_pb";

/** How often the running clock is redrawn. */
const TICK_MS = 100;

function durationMs(duration: Duration): number {
  return Number(duration.seconds) * 1000 + duration.nanos / 1_000_000;
}

/** Time left for people: "1:05:00", "2:51", and tenths under ten seconds: "0:04.3". */
export function clockText(ms: number): string {
  const tenths = Math.floor(Math.max(ms, 0) / 100);
  const seconds = Math.floor(tenths / 10);
  const [hours, minutes] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60];
  const secondsText = String(seconds % 60).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${secondsText}`;
  if (seconds >= 10) return `${minutes}:${secondsText}`;
  return `${minutes}:${secondsText}.${tenths % 10}`;
}

/** The clocks in the page: `#clocks` holds one element per side, `[data-color=white|black]`. */
export class ClockView {
  /** The state shown, by etag: the same state shown again does not restart the count. */
  private etag = "";
  /** Each side's time in ms as received, the side whose clock runs, and when (performance.now()) it was received. */
  private readonly times = new Map<Color, number>();
  private running = Color.UNSPECIFIED;
  private receivedAt = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly element: HTMLElement) {}

  /** Shows `state`'s clocks (none for an untimed game), counting the running one down. */
  show(state: GameState | undefined): void {
    if (!state || state.etag === this.etag) return;
    this.etag = state.etag;
    const clock = state.clock;
    this.clear();
    if (!clock?.whiteTime || !clock.blackTime) return;
    this.receivedAt = performance.now();
    this.times.set(Color.WHITE, durationMs(clock.whiteTime));
    this.times.set(Color.BLACK, durationMs(clock.blackTime));
    this.running = clock.running;
    // How many server states the clocks have shown: a test reads it to see the tick is local.
    this.element.dataset.updates = String(Number(this.element.dataset.updates ?? 0) + 1);
    this.element.hidden = false;
    this.draw();
    if (this.running !== Color.UNSPECIFIED) this.timer = setInterval(() => this.draw(), TICK_MS);
  }

  /** Hides the clocks and stops the count (no game, or an untimed one). */
  clear(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.times.clear();
    this.running = Color.UNSPECIFIED;
    this.element.hidden = true;
  }

  /** Forgets the game shown: the next state is shown whatever its etag. */
  reset(): void {
    this.etag = "";
    this.clear();
  }

  private draw(): void {
    const elapsed = performance.now() - this.receivedAt;
    for (const [color, name] of [
      [Color.WHITE, "white"],
      [Color.BLACK, "black"],
    ] as const) {
      const face = this.element.querySelector<HTMLElement>(`[data-color=${name}] .time`);
      const running = color === this.running;
      const left = (this.times.get(color) ?? 0) - (running ? elapsed : 0);
      if (face) face.textContent = clockText(left);
      face?.parentElement?.classList.toggle("running", running);
    }
  }
}
