// npm run serve: the server (lib/serve/server.ts) on a site already built, with
// the functions, without watching. Fit to run behind a reverse proxy (README:
// "Self-hosting"); SIGTERM or Ctrl+C stop it gracefully.
import { pathToFileURL } from "node:url";
import { startCompiledServer } from "../lib/serve/compiled-server.ts";
import { listenPort, scriptArgs, stopOnSignals } from "./cli.ts";

export const USAGE = `Usage: npm run serve [-- options]    (npm start builds first)

Serves the built site (default _site/) on http://127.0.0.1:8080/ and runs the
functions through the handlers Netlify runs, routed by netlify.toml: the desk
at /, each publication under /<slug>/. The functions read their data from the
folder beside the site (_site_data/), which is never served. SIGTERM or Ctrl+C
stops it: it accepts nothing new, finishes the requests in flight, exits 0.

Options:
  --host <address>  listen on this address (default: $HOST, else 127.0.0.1;
                    0.0.0.0 or :: for every interface)
  --port <n>        listen on this port (default: $PORT, else 8080; 0 picks a free one)
  --site <dir>      serve this built site instead of _site/ (its data is <dir>_data/)
  --trust-proxy <list>
                    believe X-Forwarded-For from these peers only: a comma
                    list of addresses, CIDR ranges or "loopback" (the reverse
                    proxy in front); default none, the client is the socket's
                    peer (the subscribe page's rate limit counts per client)
  -h, --help        show this text

Example:
  npm run build && npm run serve -- --host 127.0.0.1 --port 3000`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = { type: "string" } as const;
  const args = scriptArgs("serve", USAGE, { host: text, port: text, site: text, "trust-proxy": text });
  if (args) {
    const { host = process.env.HOST ?? "127.0.0.1", site = "_site" } = args.values;
    const trustProxy = (args.values["trust-proxy"] ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const listen = listenPort(args.values.port);
    if ("problem" in listen) {
      console.error(`serve: ${listen.problem}; see --help`);
      process.exitCode = 2;
    } else {
      startCompiledServer({ port: listen.port, host, siteDir: site, trustProxy }).then(
        (server) => {
          console.log(`littlepress: serving ${site}/ and the functions on ${server.url}/ (Ctrl+C stops)`);
          stopOnSignals(() => server.shutdown());
        },
        (error: Error) => {
          console.error(`littlepress: cannot start the server: ${error.message}`);
          process.exitCode = 1;
        },
      );
    }
  }
}
