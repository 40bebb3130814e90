// publication.json against its schema (publication-schema.ts), by ajv: it
// fills in the defaults, so the rest of the kit sees every field. Here the
// schema is compiled when the module loads. The package ships ajv's standalone
// code for the same schema and options in this module's place instead
// (scripts/precompile.ts, run by `npm run prepare`): a build then
// loads no compiler and compiles nothing, some 60 ms of every build and every
// tool that reads publications.
import { Ajv, type Options, type ValidateFunction } from "ajv";
import { publicationSchema } from "./publication-schema.ts";

// The schema is ours and constant: checked against JSON Schema's meta-schema by a test
// (test/unit/publication.test.ts), not by every process that loads it (compiling the meta-schema took 50 ms).
export const VALIDATOR_OPTIONS: Options = {
  allErrors: true,
  useDefaults: true,
  discriminator: true,
  strict: false,
  validateSchema: false,
};

export const validatePublication: ValidateFunction = new Ajv(VALIDATOR_OPTIONS).compile(publicationSchema);
