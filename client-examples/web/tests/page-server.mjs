// @ts-check
/**
 * Builds the page with Vite and serves the build (`vite preview`) on a free loopback port, as a
 * deployment would serve `dist/`.
 */
import { fileURLToPath } from "node:url";
import { build, preview } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Builds `dist/` and serves it.
 * @returns {Promise<{ url: string, close: () => Promise<void> }>} the page's URL and how to stop serving it
 */
export async function buildAndServe() {
  await build({ root, logLevel: "warn" });
  const server = await preview({ root, logLevel: "warn", preview: { host: "127.0.0.1", port: 0, strictPort: true } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error("vite preview gave no address");
  return { url, close: () => server.close() };
}
