// Your functions (functions/*.mts) are one-line entries into littlepress, each
// with its routes written out, since Netlify reads `config` from the file as
// written. After `npm update littlepress`, this says when the package's routes
// or methods have moved on from yours (copy its `config` into your file).
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

interface FunctionModule {
  default: unknown;
  config?: unknown;
  methods?: unknown;
}

const names = readdirSync("functions")
  .filter((f) => f.endsWith(".mts"))
  .map((f) => f.slice(0, -".mts".length));

/** The package's own functions (compiled into its dist/functions/): a site needs one entry for each. */
const packaged = readdirSync(fileURLToPath(new URL("./", import.meta.resolve("littlepress/functions/edition"))))
  .filter((f) => f.endsWith(".mjs"))
  .map((f) => f.slice(0, -".mjs".length));

it("has an entry for every function of the package (a new version may bring one: copy it)", () => {
  expect(packaged).toEqual(
    expect.arrayContaining([
      "edition",
      "sample",
      "validate_config",
      "subscribe",
      "deliver",
      "deliver-background",
      "deploy-succeeded-background",
    ]),
  );
  expect(names.sort()).toEqual(packaged.sort());
});

describe.each(names)("functions/%s.mts", (name) => {
  it("is littlepress's handler, with the package's routes and methods", async () => {
    const yours = (await import(pathToFileURL(path.resolve(`functions/${name}.mts`)).href)) as FunctionModule;
    const kit = (await import(`littlepress/functions/${name}`)) as FunctionModule;
    expect(yours.default).toBe(kit.default);
    expect(yours.methods).toEqual(kit.methods);
    expect(yours.config).toEqual(kit.config);
  });
});
