// @ts-check
/**
 * Debian's headless Chromium driven by playwright-core (no browser download), with a fresh
 * profile and the background services off, since this machine's network reaches nothing but the
 * page and the server. Every page records its console errors so that a test can fail on them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const QUIET_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Starts Chromium with a new empty profile.
 * @returns {Promise<{ context: import("playwright-core").BrowserContext, close: () => Promise<void> }>}
 */
export async function startBrowser() {
  const profile = await mkdtemp(join(tmpdir(), "damiera-web-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: QUIET_FLAGS,
    viewport: { width: 1200, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a new tab that collects the console's errors and the page's uncaught exceptions.
 * @param {import("playwright-core").BrowserContext} context
 * @param {string} url
 * @returns {Promise<{ page: import("playwright-core").Page, errors: string[] }>}
 */
export async function openPage(context, url) {
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  await page.goto(url);
  return { page, errors };
}
