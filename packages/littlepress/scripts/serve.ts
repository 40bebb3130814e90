// npm run serve: the server (lib/server/server.ts) on a site already built, with
// the functions, without watching. Fit to run behind a reverse proxy
// (docs/deploying-and-self-hosting.md: "Self-hosting"); SIGTERM or Ctrl+C stop it gracefully.
import path from "node:path";
import ipaddr from "ipaddr.js";
import { builtFolder, eleventyConfigFile } from "../lib/build/eleventy-config-file.ts";
import { siteIndexOf } from "../lib/edge/site-index.ts";
import {
  answerUsage,
  EXIT,
  listenPort,
  parseToolArgs,
  processOutput,
  runTool,
  serverStart,
  stopOnSignals,
  type Output,
} from "./cli.ts";

export const USAGE = `Usage: npm run serve [-- options]    (npm start builds first)

Serves the built site (_site/, or a blog's Eleventy output folder) on http://127.0.0.1:8080/ and runs the
functions through the handlers Netlify runs, routed by netlify.toml: the desk
at /, each publication under /<slug>/. The functions read their data from the
folder beside the site (_site_data/), which is never served. SIGTERM or Ctrl+C
stops it: it accepts nothing new, finishes the requests in flight, exits 0.

Options:
  --host <address>  listen on this address (default: $HOST, else 127.0.0.1;
                    0.0.0.0 or :: for every interface)
  --port <n>        listen on this port (default: $PORT, else 8080; 0 picks a free one)
  --site <dir>      serve this built site instead (its data is <dir>_data/)
  --trust-proxy <list>
                    believe X-Forwarded-For from these peers only: a comma
                    list of addresses, CIDR ranges or "loopback" (the reverse
                    proxy in front); default none, the client is the socket's
                    peer (the subscribe page's rate limit counts per client)
  -h, --help        show this text

Example:
  npm run build && npm run serve -- --host 127.0.0.1 --port 3000`;

const TEXT = { type: "string" } as const;
const OPTIONS = {
  host: TEXT,
  port: TEXT,
  site: TEXT,
  "trust-proxy": TEXT,
  help: { type: "boolean", short: "h" },
} as const;

/** Reads the arguments, and serves the site once they are known good; resolves once it serves. */
export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("serve", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? EXIT.usage;
  const { host = process.env.HOST ?? "127.0.0.1" } = parsed.values;
  const trustProxy = (parsed.values["trust-proxy"] ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const listen = listenPort(parsed.values.port);
  if ("problem" in listen) return answerUsage("serve", { error: listen.problem }, USAGE, out) ?? EXIT.usage;
  // What `littlepress build` writes: _site/, or a blog's by its own config (dir.output, such as dist/).
  const built = parsed.values.site === undefined ? await builtFolder() : { output: parsed.values.site };
  if ("error" in built) {
    const { describeBuildError } = await import("../lib/build/build.ts");
    out.stderr(
      `serve: cannot load ${eleventyConfigFile()} to find the folder its builds go to ` +
        `(or name the built site: --site <dir>)\n${describeBuildError(built.error)}\n`,
    );
    return EXIT.failed;
  }
  const site = built.output;
  // The server (Hono, the functions) loads once the arguments are known good: --help answers at once.
  const { startServer } = await import("../lib/server/server.ts");
  const server = await serverStart(startServer({ port: listen.port, host, siteDir: site, trustProxy }));
  stopOnSignals(() => server.shutdown());
  // A site built with only the default address has its images linked at each request's (edition-endpoint.ts).
  const index = siteIndexOf(path.resolve(site));
  const warning = index.urlAssumed ? undefined : builtForWarning(site, index.url, server.url);
  out.stdout(`littlepress: serving ${site}/ and the functions on ${server.url}/ (Ctrl+C stops)\n`);
  if (warning) out.stderr(`${warning}\n`);
  return EXIT.done;
}

runTool("serve", import.meta.url, main);

/** A name or address of this machine only: localhost, loopback, or "every interface". */
function localHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost") return true;
  return ipaddr.isValid(bare) && ["loopback", "unspecified"].includes(ipaddr.process(bare).range());
}

/**
 * The warning for a site built for a local address other than the one it is
 * served at: its editions' images link to the address it was built for, where
 * nothing answers. A site built for a public address says nothing (a reverse
 * proxy answers there, whatever this server's own address).
 */
export function builtForWarning(site: string, builtFor: string | undefined, servedAt: string): string | undefined {
  let built: URL;
  let served: URL;
  try {
    built = new URL(builtFor ?? "");
    served = new URL(servedAt);
  } catch {
    return undefined;
  }
  if (!localHost(built.hostname)) return undefined;
  const port = (u: URL) => u.port || (u.protocol === "https:" ? "443" : "80");
  if (built.protocol === served.protocol && localHost(served.hostname) && port(built) === port(served))
    return undefined;
  return (
    `littlepress: warning: ${site}/ was built for ${built.origin}, and is served at ${served.origin}: ` +
    `its editions' images link to ${built.origin}, where they will not load.\n` +
    '  fix: set "url" in content/site.json to the address printers reach the site at, ' +
    "and build again (npm run build); or serve it at the address it was built for"
  );
}
