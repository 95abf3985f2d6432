/** The build-time settings the page reads from `import.meta.env` (set as environment variables). */

interface ImportMetaEnv {
  /** The server's URL when the page has no `?server=` parameter, and always when an API key is set. */
  readonly VITE_DAMIERA_URL?: string;
  /** Sent as `x-api-key` on every call, for a server started with `--api-key`. Not a secret: it ships in the page. */
  readonly VITE_DAMIERA_API_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
