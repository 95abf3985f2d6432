/**
 * The example program: shows a decoded Damiera error, then lets the bot play a hosted game
 * against the engine and prints every move and the result.
 *
 *   DAMIERA_URL=http://127.0.0.1:50051 node dist/main.js --variant italian --move-time-ms 100
 */
import { parseArgs } from "node:util";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { playAgainstEngine } from "./bot.js";
import { createDamieraClients, type DamieraClients } from "./clients.js";
import { serverConfigFromEnv } from "./config.js";
import { describeMove, describeStatus } from "./describe.js";
import { decodeDamieraError } from "./errors.js";
import { Variant } from "./gen/damiera/v1/types_pb.js";
import { createDamieraTransport } from "./transport.js";

const VARIANTS: Readonly<Record<string, Variant>> = {
  italian: Variant.ITALIAN,
  triestina: Variant.TRIESTINA,
  turkish: Variant.TURKISH,
};

/**
 * The longest `--move-time-ms` taken: an hour, only to keep the number sane. The server refuses
 * more than its own `--max-move-time` (30 s by default) with LIMIT_EXCEEDED.
 */
const MAX_MOVE_TIME_MS = 3_600_000;

const { values: args } = parseArgs({
  options: {
    variant: { type: "string", default: "italian" },
    fen: { type: "string", default: "" },
    "bot-level": { type: "string", default: "1" },
    "engine-level": { type: "string", default: "1" },
    "move-time-ms": { type: "string", default: "100" },
  },
});

/** The whole number given as `--name`, refused with what is wanted unless in [min, max]. */
function wholeNumberFlag(name: keyof typeof args, min: number, max: number): number {
  const text = String(args[name]);
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new Error(`--${name}: a whole number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

/** Plays an illegal move on purpose and prints what the error says, as a program reads it. */
async function showIllegalMoveError(clients: DamieraClients, variant: Variant): Promise<void> {
  try {
    await clients.rules.applyMove({ variant, notation: "1-2" });
  } catch (error) {
    const { code, reason, metadata, message } = decodeDamieraError(error);
    console.log(`ApplyMove "1-2" refused: ${Code[code]}, reason ${reason}: ${message}`);
    console.log(`  ErrorInfo metadata: ${JSON.stringify(metadata)}`);
  }
}

async function main(): Promise<void> {
  const variant = VARIANTS[args.variant];
  if (variant === undefined) {
    throw new Error(`--variant: one of ${Object.keys(VARIANTS).join(", ")}`);
  }
  const botLevel = wholeNumberFlag("bot-level", 1, 20);
  const engineLevel = wholeNumberFlag("engine-level", 1, 20);
  const moveTime = durationFromMs(wholeNumberFlag("move-time-ms", 1, MAX_MOVE_TIME_MS));
  const clients = createDamieraClients(createDamieraTransport(serverConfigFromEnv()));
  await showIllegalMoveError(clients, variant);

  const game = await playAgainstEngine(clients, {
    variant,
    fen: args.fen,
    bot: { level: botLevel, limits: { moveTime } },
    opponent: { level: engineLevel, limits: { moveTime } },
    onMove: (move) => console.log(describeMove(move)),
  });
  const result = describeStatus(game.state.status, game.state.abortReason);
  console.log(`${game.name}: ${result} after ${game.moves.length} moves`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
