// What a failed build says to do, from the error a real Eleventy throws: the fix
// names what failed (its config file), not a template it never reached.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import Eleventy from "@11ty/eleventy";
import { afterAll, expect, it } from "vitest";
import { describeBuildError } from "../../lib/build/build.ts";

mkdirSync(".test-work", { recursive: true });
const root = path.resolve(mkdtempSync(path.join(".test-work", "build-error-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What describeBuildError says of the error Eleventy throws building `files` (eleventy.config.mjs its config). */
async function failure(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const configPath = path.join(dir, "eleventy.config.mjs");
  const eleventy = new Eleventy(path.join(dir, "src"), path.join(dir, "_site"), { configPath, quietMode: true });
  eleventy.disableLogger(); // as build.ts runs it: the error is thrown, not only logged
  const error: unknown = await eleventy.write().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the build was meant to fail").toBeDefined();
  return describeBuildError(error);
}

it("a config file that cannot be loaded: the fix names it, not a template", async () => {
  const said = await failure("config", {
    "eleventy.config.mjs": 'import "./not-there.mjs";\nexport default () => {};\n',
    "src/index.md": "Hello\n",
  });
  expect(said).toMatch(/eleventy\.config\.mjs/);
  expect(said).toMatch(/fix: correct \S*eleventy\.config\.mjs, or the module it imports/);
  expect(said).not.toMatch(/Liquid tags/);
});

it("an input folder that is not there: the fix says to make it or name another", async () => {
  const said = await failure("no-input", { "eleventy.config.mjs": "export default () => {};\n" });
  expect(said).toMatch(/fix: make the folder \S*src \(or name the one you build/);
  expect(said).not.toMatch(/Liquid tags/);
});

it("a template that does not parse keeps the template's fix", async () => {
  const said = await failure("template", {
    // .test-work/ is git-ignored, and Eleventy leaves out what git ignores unless told not to.
    "eleventy.config.mjs": "export default (config) => config.setUseGitIgnore(false);\n",
    "src/index.liquid": "{% nonsense %}\n",
  });
  expect(said).toMatch(/index\.liquid/);
  expect(said).toMatch(/fix: correct the template named above/);
});
