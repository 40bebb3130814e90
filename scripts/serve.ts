// npm run serve: the local server (lib/serve/server.ts) on the site already
// built in _site/, with the functions, without watching.
import { pathToFileURL } from "node:url";
import { startServer } from "../lib/serve/server.ts";
import { scriptArgs } from "./cli.ts";

const USAGE = `Usage: npm run serve    (npm start builds first)

Serves the built _site/ on http://127.0.0.1:8080/ and runs the functions
through the handlers Netlify runs, routed by netlify.toml: the desk at /,
each publication under /<slug>/. Ctrl+C stops it.

Options:
  -h, --help   show this text
Environment:
  PORT=N       listen on port N instead of 8080

Example:
  PORT=3000 npm start`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && scriptArgs("serve", USAGE, {})) {
  const port = Number(process.env.PORT ?? 8080);
  startServer({ port }).then(
    ({ url }) => console.log(`littlepress: serving _site/ and the functions on ${url}/ (Ctrl+C stops)`),
    (error: Error) => {
      console.error(`littlepress: cannot start the server: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
