/**
 * The page's entry point: connects to the server, asks it for its variants, and wires the setup
 * form to the game.
 */
import "./style.css";
import { connectDamiera } from "./api";
import { callFailure } from "./error-message";
import { GamePage } from "./game-page";
import { serverAddress } from "./server-address";
import { SetupForm } from "./setup-form";

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

async function main(): Promise<void> {
  const address = serverAddress(window.location);
  element("server").textContent = address;
  const api = connectDamiera(address);
  const page = new GamePage(api, {
    board: element("board"),
    clocks: element("clocks"),
    status: element("status"),
    message: element("message"),
    moves: element<HTMLOListElement>("moves"),
    analysis: element("analysis"),
    review: element("review"),
    rules: element("rules"),
    resign: element<HTMLButtonElement>("resign"),
  });
  try {
    const { variants } = await api.rules.listVariants({});
    const form: SetupForm = new SetupForm(
      element<HTMLFormElement>("setup"),
      variants,
      () => page.preview(form.variant(), form.playerColor()),
      (setup) => page.start(form.variant(), setup),
    );
    page.preview(form.variant(), form.playerColor());
    element("setup").removeAttribute("inert");
  } catch (error) {
    const failure = callFailure(error);
    element("status").textContent = `Could not load the variants from ${address}: ${failure.message} [${failure.reason}]`;
  }
}

void main();
