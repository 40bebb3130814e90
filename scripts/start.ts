// `npm start`: builds the site, serves it with the functions (scripts/serve.ts),
// and rebuilds on every save to content/ or layouts/ (scripts/live.ts). Pages
// open in a browser reload by themselves; a broken save is shown there and in
// the terminal while the last good build goes on being served.
import { pathToFileURL } from "node:url";
import { processOutput, scriptArgs } from "./cli.ts";
import { LiveSite } from "./live.ts";
import { startServer } from "./serve.ts";

export const USAGE = `Usage: npm start [-- options]

Builds content/ into _site/, serves the site and its functions on
http://127.0.0.1:$PORT (default 8080), and rebuilds on every save to content/
or layouts/: only the editions you changed are rendered again, and pages open
in a browser reload by themselves. Ctrl+C stops.

Options:
  --port <n>        listen on this port (default: $PORT, else 8080; 0 picks a free one)
  --content <dir>   the publications are in <dir> instead of content/
  --output <dir>    build into <dir> instead of _site/
  -h, --help        show this text

Example:
  PORT=3000 npm start`;

async function main(values: { port?: string; content?: string; output?: string }): Promise<number | undefined> {
  const { content = "content", output = "_site" } = values;
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    processOutput.stderr(`start: the port must be a whole number from 0 to 65535, not "${values.port ?? process.env.PORT}"\n`);
    return 2;
  }
  const live = new LiveSite({ content, output, watch: [content, "layouts"] });
  await live.start();
  const server = await startServer({ port, siteDir: output, live });
  console.log(`littlepress: serving ${output}/ and the functions on ${server.url}/, rebuilding on every save (Ctrl+C stops)`);
  const stop = () => {
    void Promise.all([live.close(), server.close()]).then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = { type: "string" } as const;
  const args = scriptArgs("start", USAGE, { port: folder, content: folder, output: folder });
  if (args) main(args.values).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: Error) => {
      console.error(`littlepress: cannot start: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
