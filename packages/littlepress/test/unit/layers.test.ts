// lib/ by role, and what may import what (issue 26):
// - lib/model: the publication model, pure (no I/O, no Eleventy, no Netlify);
// - lib/edge: what a request to a publication needs, and nothing else;
// - lib/platform: subscriptions, deliveries, print keys, the state stores;
// - lib/build: the Eleventy plugin and the build's work;
// - lib/server: Node-only hosting and live reload.
// lib/platform's folders have walls too, in this order, each above the ones before
// it (a module may import model, edge, its own folder and the levels below it):
//   stores < printers < printing < runtime < subscribing < pushing < delivering
// - stores: the state store, its keys and records; model only (no edge);
// - printers: print keys and ESC/POS, what is sent to a printer; model and edge;
// - printing: one print job's lifecycle on the store; also stores and printers;
// - runtime, the files at lib/platform's top: what a platform function runs with
//   (runtime.ts: the site, the store, print keys) and the one adapter that hands it
//   to its handler (platform-function.ts);
// - subscribing, pushing, delivering: the three kinds of work, each over the levels
//   below it (a delivery run starts the push runs that are due).
// The order is today's imports, made strict: nothing below reaches up.
// The rule is checked twice: in the source's imports (type-only ones too), one
// module at a time, and in what esbuild bundles for each function, which must
// reach only code it uses. test/deploy/bundle.test.ts checks the zips Netlify ships.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";

const ROLES = ["model", "edge", "platform", "build", "server"] as const;
type Role = (typeof ROLES)[number];

/** What a module of each role may import of lib/ (scripts/ may import anything, and nothing imports them). */
const MAY_IMPORT: Record<Role | "functions", readonly Role[]> = {
  model: ["model"],
  edge: ["model", "edge"],
  platform: ["model", "edge", "platform"],
  build: ["model", "build"],
  server: ["model", "edge", "platform", "build", "server"],
  functions: ["model", "edge", "platform"],
};

/** Packages only the build and the tools use: nothing a request runs may load them. */
const BUILD_PACKAGE = /^(yaml|sharp|@11ty\/|@parcel\/watcher|markdown-it|smol-toml|esbuild|parse5|playwright-core)/;
/**
 * The one exception: the description's sanitizer (lib/model/description.ts)
 * parses HTML with parse5 (the kit's one HTML parser), and both the desk (build) and the
 * subscribe page (platform) show the description through it.
 */
const PARSES_HTML = new Set(["lib/model/description.ts"]);

const ROOT = process.cwd();
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

interface Import {
  spec: string;
  /** `import("…")`, loaded when the code runs there, not when the module is. */
  dynamic: boolean;
}

/** The modules a file names in its import and export statements, and in its import() calls. */
function importsOf(file: string): Import[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => ({ spec: (m[1] ?? m[2])!, dynamic: !m[1] }));
}

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");
const sourceFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.m?ts$/.test(f))
    .map((f) => path.join(dir, f))
    .sort();

/** "lib/edge/http.ts" is edge's; functions/*.mts are "functions"; anything else is neither. */
function roleOf(file: string): Role | "functions" | undefined {
  const [top, folder] = relative(file).split("/");
  if (top === "functions") return "functions";
  return top === "lib" ? ROLES.find((role) => role === folder) : undefined;
}

/** lib/platform's levels, lowest first (the header says why), and what each may import of lib/ besides. */
const PLATFORM_LEVELS = ["stores", "printers", "printing", "runtime", "subscribing", "pushing", "delivering"];
const PLATFORM_OUTSIDE: Record<string, readonly Role[]> = { stores: ["model"] };

/** "stores" for lib/platform/stores/x.ts, "runtime" for a file at lib/platform's top; undefined outside it. */
function levelOf(file: string): string | undefined {
  const [top, role, level] = relative(file).split("/");
  if (top !== "lib" || role !== "platform" || level === undefined) return undefined;
  return /\.m?ts$/.test(level) ? "runtime" : level;
}

const modules = [...ROLES.flatMap((role) => sourceFiles(path.join("lib", role))), ...sourceFiles("functions")];

describe("what may import what", () => {
  it("finds every role's modules", () => {
    for (const role of [...ROLES, "functions"])
      expect(modules.filter((f) => roleOf(f) === role).length).toBeGreaterThan(0);
  });

  it.each(modules.map((f) => [relative(f), f]))("%s imports only what its role may", (_, file) => {
    const role = roleOf(file)!;
    const outside = importsOf(file)
      .filter(({ spec }) => spec.startsWith("."))
      .map(({ spec }) => path.resolve(path.dirname(file), spec))
      .filter((target) => !MAY_IMPORT[role].includes(roleOf(target) as Role))
      .map(relative);
    expect(outside, `${role} may import ${MAY_IMPORT[role].join(", ")}`).toEqual([]);
  });
});

describe("lib/platform's levels", () => {
  const platform = modules.filter((f) => levelOf(f) !== undefined);

  it("knows every folder of lib/platform", () => {
    expect([...new Set(platform.map((f) => levelOf(f)!))].sort()).toEqual([...PLATFORM_LEVELS].sort());
  });

  it.each(platform.map((f) => [relative(f), f]))("%s imports no level above its own", (_, file) => {
    const level = levelOf(file)!;
    const below = PLATFORM_LEVELS.slice(0, PLATFORM_LEVELS.indexOf(level) + 1);
    const outside = PLATFORM_OUTSIDE[level] ?? ["model", "edge"];
    const wrong = importsOf(file)
      .filter(({ spec }) => spec.startsWith("."))
      .map(({ spec }) => path.resolve(path.dirname(file), spec))
      .filter((target) => {
        const targetLevel = levelOf(target);
        return targetLevel ? !below.includes(targetLevel) : !outside.includes(roleOf(target) as Role);
      })
      .map(relative);
    expect(wrong, `${level} may import ${[...outside, ...below].join(", ")}`).toEqual([]);
  });
});

describe("lib/model and lib/edge", () => {
  const IO = new Set(["fs", "fs/promises", "http", "https", "http2", "net", "dgram", "child_process"]);
  const builtin = (spec: string) => spec.replace(/^node:/, "");
  const isIO = (spec: string) => IO.has(builtin(spec)) && builtinModules.includes(builtin(spec));
  const model = modules.filter((f) => roleOf(f) === "model");
  const modelAndEdge = modules.filter((f) => roleOf(f) === "model" || roleOf(f) === "edge");

  it.each(model.map((f) => [relative(f), f]))("%s does no I/O", (_, file) => {
    expect(importsOf(file).filter(({ spec }) => isIO(spec))).toEqual([]);
  });

  it.each(modelAndEdge.map((f) => [relative(f), f]))("%s imports no package of the build", (_, file) => {
    const allowed = (spec: string) => spec === "parse5" && PARSES_HTML.has(relative(file));
    expect(importsOf(file).filter(({ spec }) => BUILD_PACKAGE.test(spec) && !allowed(spec))).toEqual([]);
  });

  // A site whose publications are all in UTF-8 never loads a charset codec.
  it.each(modelAndEdge.map((f) => [relative(f), f]))(
    "%s loads iconv-lite only with import(), in lib/edge",
    (_, file) => {
      const iconv = importsOf(file).filter(({ spec }) => spec === "iconv-lite");
      expect(iconv.filter(({ dynamic }) => !dynamic || roleOf(file) === "model")).toEqual([]);
    },
  );
});

// The functions as esbuild bundles them, packages left out (they are named,
// not read). A file the function imports, directly or not, but uses nothing
// of, is code it carries for nothing: each is found by bundling with the
// project's files marked free of side effects, so that a file none of whose
// exports is used contributes no byte to the bundle (a constant or an import
// left at its top would otherwise keep it). Which packages a function loads,
// and how, is read from the bundle as it is, without that mark.

/** How each function may load iconv-lite: never, or only with import() where it opens a publication. */
const ICONV: Record<string, "never" | "import()"> = {
  edition: "import()",
  sample: "import()",
  validate_config: "import()",
  // deliver opens publications to print push editions (lib/platform/pushing/push-run.ts).
  deliver: "import()",
  // Both delivering functions POST editions to print keys in UTF-8 (lib/platform/printers/utf8-page.ts).
  "deliver-background": "import()",
  // A deploy's push run opens publications too (lib/platform/pushing/deploy-push.ts).
  "deploy-succeeded-background": "import()",
  deliveries: "never",
  // The subscribe page opens its publication to say when it is delivered (lib/platform/subscribing/schedule.ts).
  subscribe: "import()",
};
/** The edition endpoints answer every printer's every request: nothing of the platform, the build or the server. */
const EDITION_ENDPOINTS = new Set(["edition", "sample"]);
/** The subscribe page shows the publication's description, through parse5 (PARSES_HTML). */
const SHOWS_DESCRIPTION = new Set(["subscribe"]);

interface Bundle {
  /** The project files it reaches, each with the files that import it. */
  reached: Map<string, string[]>;
  /** The project files that contribute to the output. */
  used: Set<string>;
  /** The packages the output imports, and how ("import-statement", "dynamic-import", …). */
  packages: { path: string; kind: string }[];
}

const PROJECT_FILE = /^(lib|functions)\//;
const MARKED = Symbol("resolved once");

/** Marks every project file free of side effects, as resolved by esbuild itself. */
const noSideEffects: Plugin = {
  name: "project-files-without-side-effects",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === MARKED) return undefined;
      const {
        path: resolved,
        namespace,
        external,
        errors,
      } = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: MARKED,
      });
      return errors.length ? { errors } : { path: resolved, namespace, external, sideEffects: false };
    });
  },
};

async function bundle(entry: string, plugins: Plugin[]): Promise<Metafile> {
  const options = { bundle: true, platform: "node", format: "esm", packages: "external" } as const;
  const { metafile } = await build({
    ...options,
    entryPoints: [entry],
    outdir: "out",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins,
  });
  return metafile;
}

async function bundleFunction(entry: string): Promise<Bundle> {
  const [shaken, plain] = await Promise.all([bundle(entry, [noSideEffects]), bundle(entry, [])]);
  const reached = new Map<string, string[]>();
  for (const [file, input] of Object.entries(shaken.inputs)) {
    if (!PROJECT_FILE.test(file)) continue;
    if (!reached.has(file)) reached.set(file, []);
    for (const i of input.imports)
      if (PROJECT_FILE.test(i.path)) reached.set(i.path, [...(reached.get(i.path) ?? []), file]);
  }
  const [output] = Object.values(shaken.outputs);
  const used = new Set(Object.entries(output!.inputs).flatMap(([f, i]) => (i.bytesInOutput > 0 ? [f] : [])));
  const packages = Object.values(plain.outputs).flatMap((o) => o.imports.filter((i) => i.external));
  return { reached, used, packages };
}

describe("each function's bundle", () => {
  const functions = sourceFiles("functions").map((f) => [path.basename(f, ".mts"), f] as const);
  const bundles = new Map<string, Bundle>();

  beforeAll(async () => {
    for (const [name, file] of functions) bundles.set(name, await bundleFunction(file));
  }, 60_000);

  it("is made for every function, and each reaches lib/edge", () => {
    expect(functions.map(([name]) => name).sort()).toEqual(Object.keys(ICONV).sort());
    for (const [name] of functions)
      expect(
        [...bundles.get(name)!.reached.keys()].some((f) => f.startsWith("lib/edge/")),
        name,
      ).toBe(true);
  });

  it.each(functions)("%s reaches no file it does not use", (name) => {
    const { reached, used } = bundles.get(name)!;
    const unused = [...reached].filter(([f]) => !used.has(f)).map(([f, by]) => `${f} (imported by ${by.join(", ")})`);
    expect(unused).toEqual([]);
  });

  it.each(functions)("%s reaches nothing of lib/build or lib/server, and no package of the build", (name) => {
    const { reached, packages } = bundles.get(name)!;
    const forbidden = EDITION_ENDPOINTS.has(name) ? /^lib\/(build|server|platform)\// : /^lib\/(build|server)\//;
    expect([...reached.keys()].filter((f) => forbidden.test(f))).toEqual([]);
    const parser = (p: string) => p === "parse5" && SHOWS_DESCRIPTION.has(name);
    expect(packages.filter((p) => BUILD_PACKAGE.test(p.path) && !parser(p.path))).toEqual([]);
  });

  it.each(functions)("%s loads iconv-lite as the table says", (name) => {
    const iconv = bundles.get(name)!.packages.filter((p) => p.path === "iconv-lite");
    if (ICONV[name] === "never") expect(iconv).toEqual([]);
    else expect(iconv.map((p) => p.kind)).toEqual(["dynamic-import"]);
  });
});
