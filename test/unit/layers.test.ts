// The three folders of lib/ by role, and what may import what: a request
// crosses functions/ -> lib/serve -> lib/model and nothing of the build, and
// the model does no I/O. Followed here through the source's imports (type-only
// ones too); test/deploy/bundle.test.ts checks the same in the zips Netlify ships.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The modules a file names in its import and export statements. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

/** Every project file reached from `entry` by relative imports, and every package or builtin named on the way. */
function reach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(path.resolve(entry));
  return { files, packages };
}

const relative = (files: Iterable<string>) => [...files].map((f) => path.relative(ROOT, f).split(path.sep).join("/"));
const tsFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /\.m?ts$/.test(f))
    .map((f) => path.join(dir, f));

describe("the functions", () => {
  const functions = tsFiles("functions");

  const named = functions.map((f) => [path.basename(f), f]);
  it.each(named)("%s reaches only lib/edge, lib/platform and lib/model", (_, file) => {
    const reached = relative(reach(file).files).filter((f) => f !== relative([path.resolve(file)])[0]);
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.filter((f) => !/^lib\/(edge|platform|model)\//.test(f))).toEqual([]);
  });

  it("load no package of the build (yaml, sharp, Eleventy, chokidar, markdown-it, esbuild)", () => {
    const packages = new Set(functions.flatMap((f) => [...reach(f).packages]));
    const build = [...packages].filter((p) => /^(yaml|sharp|@11ty\/|chokidar|markdown-it|smol-toml|esbuild)/.test(p));
    expect(build).toEqual([]);
  });
});

describe("lib/model", () => {
  const model = tsFiles(path.join("lib", "model"));
  const IO = new Set(["fs", "fs/promises", "http", "https", "http2", "net", "dgram", "child_process"]);
  const builtin = (spec: string) => spec.replace(/^node:/, "");
  const isIO = (spec: string) => IO.has(builtin(spec)) && builtinModules.includes(builtin(spec));
  const modelDir = path.resolve("lib", "model");
  const inModel = (file: string, spec: string) => path.resolve(path.dirname(file), spec).startsWith(modelDir);

  it("holds the format and its rules", () => {
    expect(relative(model)).toEqual(expect.arrayContaining(["lib/model/shard.ts", "lib/model/publication.ts"]));
  });

  const named = model.map((f) => [path.basename(f), f]);
  it.each(named)("%s does no I/O and imports nothing of lib/build, edge, platform or server", (_, file) => {
    const imports = importsOf(file);
    expect(imports.filter(isIO)).toEqual([]);
    expect(imports.filter((s) => s.startsWith(".") && !inModel(file, s))).toEqual([]);
  });
});
