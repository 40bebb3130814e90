// `npm run prepare`'s last step: ajv's standalone code for publication.json's
// schema, written over dist/lib/model/publication-validator.js (the module's
// own comment says why). Its exports stay the module's: VALIDATOR_OPTIONS and
// validatePublication. Not shipped: the package carries its output.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { packageFile } from "../lib/build/package-files.ts";
import { publicationSchema } from "../lib/model/publication-schema.ts";
import { VALIDATOR_OPTIONS } from "../lib/model/publication-validator.ts";
import { scriptArgs } from "./cli.ts";

/** Where the compiled validator is, in the package's dist/. */
export const COMPILED_VALIDATOR = packageFile("dist", "lib", "model", "publication-validator.js");

/** The module, as ES module code: the schema's validator compiled ahead, with the options it was compiled with. */
export function standaloneValidator(): string {
  const ajv = new Ajv({ ...VALIDATOR_OPTIONS, code: { source: true, esm: true } });
  ajv.addSchema(publicationSchema, "publication");
  const code = standalone.default(ajv, { validatePublication: "publication" });
  return (
    "// Made by scripts/precompile-validator.ts (npm run prepare) from lib/model/publication-schema.ts:\n" +
    "// ajv's standalone code in place of lib/model/publication-validator.ts's compile at load.\n" +
    // ajv's ES module code still requires its few runtime helpers (ucs2length, for minLength).
    'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n' +
    `export const VALIDATOR_OPTIONS = ${JSON.stringify(VALIDATOR_OPTIONS)};\n` +
    code +
    "\n"
  );
}

const USAGE = `Usage: npm run prepare

Compiles the package into dist/, then, as this script, writes ajv's standalone
code for publication.json's schema over dist/lib/model/publication-validator.js:
a build then loads no schema compiler. npm runs prepare on install and on pack.

Options:
  -h, --help   show this text

Example:
  npm run prepare`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && scriptArgs("prepare", USAGE, {})) {
  writeFileSync(COMPILED_VALIDATOR, standaloneValidator());
}
