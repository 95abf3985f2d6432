/**
 * Where the Damiera server is: the page's `?server=` parameter, else the `VITE_DAMIERA_URL` the
 * page was built with, else a server on this machine's default port.
 */

const LOCAL_SERVER = "http://127.0.0.1:50051";

/** The server's base URL for gRPC-Web, without a trailing slash. */
export function serverAddress(location: Location): string {
  const chosen =
    new URLSearchParams(location.search).get("server") ||
    import.meta.env.VITE_DAMIERA_URL ||
    LOCAL_SERVER;
  return chosen.replace(/\/+$/, "");
}
