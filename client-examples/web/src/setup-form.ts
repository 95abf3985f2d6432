/**
 * The form that sets up a game: the variant (as ListVariants describes them), the player's side,
 * the engine's level, how long it thinks per move, and the game's clock.
 */
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import type { GameSetup, TimeControlInit } from "./hosted-game";
import type { VariantInfo } from "./gen/damiera/v1/rules_service_pb";
import { Color } from "./gen/damiera/v1/types_pb";

/** The setup form in the page. */
export class SetupForm {
  /**
   * @param form the form, with fields `variant`, `color`, `level`, `moveTime` and `timeControl`
   * @param variants the server's variants, offered in its order
   * @param onChange called when the variant or the side changes, before any game starts
   * @param onStart called with the setup when the player starts a game; the start button stays
   *   disabled until the promise it returns settles, so that a double click creates one game
   */
  constructor(
    private readonly form: HTMLFormElement,
    private readonly variants: readonly VariantInfo[],
    onChange: () => void,
    onStart: (setup: GameSetup) => Promise<void>,
  ) {
    this.field("variant").replaceChildren(
      ...variants.map((info, index) => new Option(info.displayName, String(index))),
    );
    this.field("variant").addEventListener("change", onChange);
    this.field("color").addEventListener("change", onChange);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const start = form.querySelector<HTMLButtonElement>("button[type=submit]");
      if (start) start.disabled = true;
      void onStart(this.setup()).finally(() => {
        if (start) start.disabled = false;
      });
    });
  }

  /** The variant chosen. */
  variant(): VariantInfo {
    return this.variants[Number(this.field("variant").value)];
  }

  /** The side the player chose. */
  playerColor(): Color {
    return this.field("color").value === "black" ? Color.BLACK : Color.WHITE;
  }

  /** How long the engine thinks per move, in milliseconds. */
  private moveTimeMs(): number {
    return Number(this.field("moveTime").value);
  }

  /** Everything chosen. */
  setup(): GameSetup {
    return {
      variant: this.variant().variant,
      playerColor: this.playerColor(),
      engineLevel: Number(this.field("level").value),
      engineMoveTimeMs: this.moveTimeMs(),
      timeControl: timeControlOf(this.field("timeControl").value),
    };
  }

  private field(name: string): HTMLSelectElement {
    return this.form.elements.namedItem(name) as HTMLSelectElement;
  }
}

/**
 * The clock an option of the `timeControl` field stands for: "fischer BASE INCREMENT" (seconds),
 * "move SECONDS" (the same time for every move), or "" for none.
 */
export function timeControlOf(value: string): TimeControlInit | undefined {
  const [kind, ...numbers] = value.split(" ");
  const [first, second] = numbers.map((seconds) => durationFromMs(Number(seconds) * 1000));
  switch (kind) {
    case "fischer":
      return { kind: { case: "fischer", value: { base: first, increment: second } } };
    case "move":
      return { kind: { case: "perMove", value: first } };
    default:
      return undefined;
  }
}
