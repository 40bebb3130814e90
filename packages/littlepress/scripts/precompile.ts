// `npm run prepare`'s last step: what two modules of the kit make when they
// load, made ahead and written over their compiled files in dist/ (each
// module's own comment says why), with the same exports:
// - lib/model/publication-validator: ajv's standalone code for publication.json's
//   schema (VALIDATOR_OPTIONS, validatePublication);
// - lib/build/desk-model: the desk's bundle of the model's rules (deskModelScript).
// It also makes the package's commands executable (executableBins).
// Not shipped: the package carries its output.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { deskModelScript } from "../lib/build/desk-model.ts";
import { PACKAGE_ROOT, packageFile } from "../lib/build/package-files.ts";
import { publicationSchema } from "../lib/model/publication-schema.ts";
import { VALIDATOR_OPTIONS } from "../lib/model/publication-validator.ts";
import { answerUsage, EXIT, parseToolArgs, processOutput, runTool } from "./cli.ts";

const MADE = "// Made by scripts/precompile.ts (npm run prepare)";

/** The modules made ahead: their compiled file in dist/, and what is written there. */
export const PRECOMPILED = [
  { file: packageFile("dist", "lib", "model", "publication-validator.js"), make: standaloneValidator },
  { file: packageFile("dist", "lib", "build", "desk-model.js"), make: deskModelModule },
];

/** The validator module: the schema's validator compiled ahead, with the options it was compiled with. */
export function standaloneValidator(): Promise<string> {
  const ajv = new Ajv({ ...VALIDATOR_OPTIONS, code: { source: true, esm: true } });
  ajv.addSchema(publicationSchema, "publication");
  const code = standalone.default(ajv, { validatePublication: "publication" });
  return Promise.resolve(
    `${MADE} from lib/model/publication-schema.ts:\n` +
      "// ajv's standalone code in place of lib/model/publication-validator.ts's compile at load.\n" +
      // ajv's ES module code still requires its few runtime helpers (ucs2length, for minLength).
      'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n' +
      `export const VALIDATOR_OPTIONS = ${JSON.stringify(VALIDATOR_OPTIONS)};\n` +
      code +
      "\n",
  );
}

/** The desk model module: the bundle esbuild makes, as a string the module gives. */
export async function deskModelModule(): Promise<string> {
  return (
    `${MADE}: lib/build/desk-model.ts's bundle, made ahead.\n` +
    `const SCRIPT = ${JSON.stringify(await deskModelScript())};\n` +
    "export function deskModelScript() {\n  return Promise.resolve(SCRIPT);\n}\n"
  );
}

/**
 * Makes the bin files of package.json (the kit's, or the package's at `root`) executable. npm does so when it
 * installs the package, not when prepare runs again: a dist/ compiled anew later (a clean checkout's npm test
 * compiles it when it is gone) held a littlepress that node_modules/.bin links to and sh cannot run ("littlepress:
 * Permission denied").
 */
export function executableBins(root = PACKAGE_ROOT): void {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { bin: Record<string, string> };
  for (const file of Object.values(manifest.bin)) chmodSync(path.join(root, file), 0o755);
}

const USAGE = `Usage: npm run prepare

Compiles the package into dist/, then, as this script, makes ahead what two of
its modules make when they load, and writes it over their compiled files:
publication.json's schema check (ajv's standalone code) and the desk's bundle
of the model's rules (esbuild's). A build then loads neither ajv's compiler nor
esbuild. It also makes the package's commands (package.json's bin) executable.
npm runs prepare on install and on pack.

Options:
  -h, --help   show this text

Example:
  npm run prepare`;

runTool("prepare", import.meta.url, async (argv) => {
  const parsed = parseToolArgs(argv, { help: { type: "boolean", short: "h" } }, false);
  const answered = answerUsage("prepare", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? EXIT.usage;
  for (const { file, make } of PRECOMPILED) writeFileSync(file, await make());
  executableBins();
  return EXIT.done;
});
