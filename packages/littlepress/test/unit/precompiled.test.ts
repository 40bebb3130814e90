// What `npm run prepare` makes ahead (scripts/precompile.ts) is what the kit's
// source makes when it loads:
// - publication.json's check: ajv's standalone code in the package, the schema
//   compiled at load in the source (lib/model/publication-validator.ts). The
//   same answer, the same errors and the same defaults filled in, for every
//   publication.json of the fixtures and every way of breaking one field of them.
// - dist/ holds what prepare makes, the desk's bundle of the model's rules too.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ValidateFunction } from "ajv";
import { afterAll, beforeAll, expect, it } from "vitest";
import { validatePublication } from "../../lib/model/publication-validator.ts";
import { compiledBin, ROOT } from "../../scripts/bench/util.ts";
import { executableBins, PRECOMPILED, standaloneValidator } from "../../scripts/precompile.ts";
import { projectFiles } from "../helpers/project-files.ts";

const work = path.join(ROOT, ".test-work");
let folder: string;
let standalone: ValidateFunction;

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  // Inside the package, so that the code's imports of ajv's runtime helpers resolve as in dist/.
  folder = mkdtempSync(path.join(work, "validator-"));
  const file = path.join(folder, "publication-validator.js");
  writeFileSync(file, await standaloneValidator());
  standalone = ((await import(pathToFileURL(file).href)) as { validatePublication: ValidateFunction })
    .validatePublication;
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Every publication.json the fixtures hold, parsed. */
function fixtures(): unknown[] {
  const files = projectFiles(".", ["test"]).filter((f) => f.endsWith("/publication.json"));
  expect(files.length).toBeGreaterThan(10);
  return files.flatMap((f) => {
    try {
      return [JSON.parse(readFileSync(f, "utf8")) as unknown];
    } catch {
      return []; // a fixture of broken JSON: the parser's answer, not the schema's
    }
  });
}

const ODD_VALUES: unknown[] = [undefined, null, 0, -1, 1.5, "", "x", "a@b", true, [], [[]], {}, { type: "text" }];

/** The value, then each copy with one field (at any depth) removed or replaced by an odd value. */
function mutations(value: unknown): unknown[] {
  const out: unknown[] = [value];
  const walk = (node: unknown, replace: (v: unknown) => unknown) => {
    if (node === null || typeof node !== "object") return;
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      const at = (v: unknown) =>
        replace(
          Array.isArray(node)
            ? node.map((c: unknown, i) => (String(i) === key ? v : c)).filter((c) => c !== undefined)
            : Object.fromEntries(Object.entries({ ...node, [key]: v }).filter(([, c]) => c !== undefined)),
        );
      for (const odd of ODD_VALUES) out.push(at(odd));
      walk(child, at);
    }
  };
  walk(value, (v) => v);
  return out;
}

/** What a validator says of `input`: valid or not, its errors, and the input with the defaults it filled in. */
function outcome(validate: ValidateFunction, input: unknown) {
  const data = structuredClone(input);
  const valid = validate(data);
  return { valid, errors: validate.errors ?? null, data };
}

it("answers as the schema compiled at load does (errors, defaults), for every way of breaking a field", () => {
  const inputs = fixtures().flatMap(mutations);
  expect(inputs.length).toBeGreaterThan(1000);
  let invalid = 0;
  for (const input of inputs) {
    const expected = outcome(validatePublication, input);
    expect(outcome(standalone, input), JSON.stringify(input)).toEqual(expected);
    if (!expected.valid) invalid++;
  }
  // Both kinds of answer were compared, many times.
  expect(invalid).toBeGreaterThan(500);
  expect(inputs.length - invalid).toBeGreaterThan(50);
});

it("is what the package ships in dist/, as the desk's model bundle is (npm run prepare's last step)", async () => {
  compiledBin();
  for (const { file, make } of PRECOMPILED) {
    // Compared whole, and said in one sentence: a diff of 40 KB of generated code tells nothing more.
    const shipped = readFileSync(file, "utf8") === (await make());
    expect(shipped, `${file} is not what npm run prepare makes: run it`).toBe(true);
  }
});

it("makes the package's commands executable, as npm's install does, when dist/ is compiled anew", () => {
  // A package whose bin was just written by tsc (mode 644), as in a checkout whose dist/ was removed.
  const pkg = mkdtempSync(path.join(work, "bins-"));
  try {
    mkdirSync(path.join(pkg, "dist"));
    writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ bin: { tool: "dist/tool.js" } }));
    writeFileSync(path.join(pkg, "dist/tool.js"), "#!/usr/bin/env node\n", { mode: 0o644 });
    executableBins(pkg);
    expect(statSync(path.join(pkg, "dist/tool.js")).mode & 0o777).toBe(0o755);
  } finally {
    rmSync(pkg, { recursive: true, force: true });
  }
  // And the kit's own, as prepare left them.
  compiledBin();
  const { bin } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
  for (const file of Object.values(bin)) expect(statSync(path.join(ROOT, file)).mode & 0o111).toBe(0o111);
});
