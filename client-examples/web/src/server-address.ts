/**
 * Where the Damiera server is: the page's `?server=` parameter, else the `VITE_DAMIERA_URL` the
 * page was built with, else a server on this machine's default port. A page built with an API key
 * ignores `?server=`: a link must not be able to send the key to a host of its choosing.
 */

const LOCAL_SERVER = "http://127.0.0.1:50051";

/** The server's base URL for gRPC-Web, without a trailing slash. */
export function serverAddress(location: Location): string {
  const built = import.meta.env.VITE_DAMIERA_URL || LOCAL_SERVER;
  const asked = new URLSearchParams(location.search).get("server");
  const chosen = import.meta.env.VITE_DAMIERA_API_KEY ? built : asked || built;
  return chosen.replace(/\/+$/, "");
}
