/**
 * The example program: shows a decoded Damiera error, then lets the bot play a hosted game
 * against the engine and prints every move and the result.
 *
 *   DAMIERA_URL=http://127.0.0.1:50051 node dist/main.js --variant italian --move-time-ms 100
 */
import { parseArgs } from "node:util";
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

const { values: args } = parseArgs({
  options: {
    variant: { type: "string", default: "italian" },
    fen: { type: "string", default: "" },
    "bot-level": { type: "string", default: "1" },
    "engine-level": { type: "string", default: "1" },
    "move-time-ms": { type: "string", default: "100" },
  },
});

/** Plays an illegal move on purpose and prints what the error says, as a program reads it. */
async function showIllegalMoveError(clients: DamieraClients, variant: Variant): Promise<void> {
  try {
    await clients.rules.applyMove({ variant, move: "1-2" });
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
  const clients = createDamieraClients(createDamieraTransport(serverConfigFromEnv()));
  await showIllegalMoveError(clients, variant);

  const moveTime = { seconds: 0n, nanos: Number(args["move-time-ms"]) * 1e6 };
  const game = await playAgainstEngine(clients, {
    variant,
    fen: args.fen,
    bot: { level: Number(args["bot-level"]), limits: { moveTime } },
    opponent: { level: Number(args["engine-level"]), limits: { moveTime } },
    onMove: (move) => console.log(describeMove(move)),
  });
  const result = describeStatus(game.state.status);
  console.log(`${game.name}: ${result} after ${game.moves.length} moves`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
