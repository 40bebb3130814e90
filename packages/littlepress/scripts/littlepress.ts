#!/usr/bin/env node
// `littlepress <command> [options]`: the package's command line, the tools a
// site's package.json runs (`"start": "littlepress start"`). Each command is
// one of the scripts beside this file, run as if node had been started with
// it, so that it reads its own arguments, answers its own --help, and runs in
// the one error boundary of every command (cli.ts's runTool, and its EXIT codes).
import { pathToFileURL } from "node:url";
import { siblingModule } from "../lib/build/package-files.ts";
import { EXIT, EXIT_CODES, processOutput, sayFailure } from "./cli.ts";

/** The commands, and what each does (the usage text lists them in this order). */
const COMMANDS = {
  new: "make a site of your own from the starter, with this littlepress in vendor/ (or --from-registry)",
  build: "build the site into _site/ or its config's output (the functions' data beside it, in _site_data/)",
  start: "build, serve on http://127.0.0.1:$PORT, and rebuild on every change",
  serve: "serve the site built last, as Netlify would",
  verify: "build, and check every publication and every variant through the server",
  check: "check any publication's URL as the printer platform would",
  preview: "print previews: each edition as the printer prints it",
  deliver: "run the deliveries that are due, as the scheduled function does",
  push: "print a push edition now to every subscriber, once",
  sirius: "a local stand-in for the sirius print-key service",
  print: "print a publication's edition now on an ESC/POS receipt printer",
  "print-server": "the household's print server: every printer, any publication, from a page",
} as const;

const USAGE = `Usage: littlepress <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, what]) => `  ${name.padEnd(14)}${what}`)
  .join("\n")}

littlepress <command> --help shows a command's options.

${EXIT_CODES}`;

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === "--help" || command === "-h") {
  console.log(USAGE);
  process.exitCode = command === undefined ? EXIT.usage : EXIT.done;
} else if (!Object.hasOwn(COMMANDS, command)) {
  console.error(`littlepress: there is no command "${command}"; see --help`);
  process.exitCode = EXIT.usage;
} else {
  // The script checks that it is the file node started with (cli.ts's runTool), and reads its arguments after it.
  const script = siblingModule(`./${command}`, import.meta.url);
  process.argv = [process.argv[0]!, script, ...rest];
  // A command that cannot even load (a broken install) is a fault too: one line, exit 3.
  await import(pathToFileURL(script).href).catch((error: unknown) => {
    process.exitCode = sayFailure(command, error, processOutput);
  });
}
