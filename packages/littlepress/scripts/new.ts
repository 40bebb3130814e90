// littlepress new <folder>: a site of your own, made from the starter this runs
// in (the littlepress repository's root, or a site made from it). It copies the
// starter's own files, by name (STARTER_FILES), and nothing else: not the
// package (packages/), the repository's CI (.ci/), git's and npm's folders,
// what the tools leave, nor anything of the author's there (a .env holding the
// sealing key or a Netlify token, an .npmrc with a registry token, an
// editor's .vscode/), which a list of what to leave out would miss the day
// someone has one; and the new site's .gitignore ignores .env (SITE_IGNORES).
// It writes a package.json with no workspace, and never leaves the repository's
// package-lock.json as it is: that links littlepress to packages/littlepress (a
// copy with it installs nothing there, and npm start answers "littlepress: not
// found"); npm makes the site's own from it (seedLockfile).
// The site carries the engine it was made from, packed, in vendor/ (VENDOR),
// and its package.json names that file: no public registry holds the name
// littlepress for this project yet, so `^0.2.0` from the registry was a 404
// today, and whoever published the name later would have run their code as
// every new site's build tool. --from-registry takes it from the registry, for
// once the project has published it there. npm then resolves the site's own
// lockfile, so that the README's `npm ci && npm start` works in it as it is,
// starting from the starter's (seedLockfile): the versions it was tested with.
import { execFile, spawn } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { PACKAGE_ROOT, packageFile } from "../lib/build/package-files.ts";
import { answerUsage, parseToolArgs, processOutput, runTool, type Output } from "./cli.ts";

/**
 * The starter's own files and folders, at its root: all a new site is made
 * of, besides the package.json written for it. Inside these folders, a name
 * starting with "." is not copied either (the starter has none there).
 */
export const STARTER_FILES: readonly string[] = [
  ".eleventy.js",
  ".github",
  ".gitignore",
  ".prettierignore",
  ".prettierrc.json",
  "LICENSE",
  "README.md",
  "content",
  "eslint.config.js",
  "functions",
  "layouts",
  "netlify.toml",
  "scripts",
  "test",
  "tsconfig.json",
  "vitest.config.ts",
];

/** What the new site's .gitignore has, whatever the starter's had: a .env holds secrets, and `git add -A` takes all. */
export const SITE_IGNORES: readonly string[] = [".env", ".env.*"];

/** Whether a path inside the starter (relative to it, "/"-separated) is copied into a new site. */
export function starterFile(relative: string): boolean {
  const [top, ...rest] = relative.split(/[\\/]/);
  return STARTER_FILES.includes(top!) && !rest.some((part) => part.startsWith("."));
}

/** The new site's .gitignore: the starter's, with SITE_IGNORES added where it lacks them. */
export function siteGitignore(starter: string): string {
  const lines = new Set(starter.split(/\r?\n/).map((line) => line.trim()));
  const missing = SITE_IGNORES.filter((rule) => !lines.has(rule));
  if (!missing.length) return starter;
  const text = starter && !starter.endsWith("\n") ? `${starter}\n` : starter;
  return `${text}${text ? "\n" : ""}# Secrets (the sealing key, tokens): never committed\n${missing.join("\n")}\n`;
}

/**
 * The repository's devDependencies that only its own CI uses (.ci/tests: a
 * registry on loopback, the workflows read as YAML). A site's test/, lint and
 * scripts need the others: vitest, typescript and @types/node (npm test), the
 * functions' types (@netlify/functions), ESLint and Prettier (npm run lint).
 */
export const REPOSITORY_ONLY: readonly string[] = ["verdaccio", "yaml"];

/**
 * The kit's own tools a site needs besides the starter's devDependencies, at the kit's versions:
 * netlify-cli, for the docs' deploy check (`npx netlify serve`, then `npm run check`) and its CI's
 * deploy. In the repository the workspace's copy serves the root; a site made from it has no workspace,
 * and there `npx netlify` would fetch whatever the registry calls netlify.
 */
export const SITE_TOOLS: Readonly<Record<string, string>> = (() => {
  const kit = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as PackageJson;
  return { "netlify-cli": kit.devDependencies?.["netlify-cli"] ?? "*" };
})();

/**
 * The starter's README as the new site has it: its links to the package's docs (14 of them), and its
 * name for the package's folder, point inside the installed package (its `files` ship docs/): the site
 * has no packages/ folder, so each led nowhere.
 */
export function siteReadme(text: string): string {
  return text.replaceAll("packages/littlepress", "node_modules/littlepress");
}

export interface PackageJson {
  name?: string;
  version?: string;
  workspaces?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * The new site's package.json: the starter's, named `name`, with no
 * workspaces, littlepress as `littlepress` says (a `file:` tarball in vendor/,
 * or `^<version>` from the registry), without the
 * repository's own devDependencies but with the kit's tools a site uses
 * (SITE_TOOLS: netlify-cli), and without the overrides scoped to a package the
 * site does not depend on (verdaccio), which would change nothing there.
 * Fields keep the starter's order.
 */
export function sitePackage(starter: PackageJson, name: string, littlepress: string): PackageJson {
  const { workspaces: _workspaces, ...site } = structuredClone(starter);
  site.name = name;
  site.version = "0.1.0";
  site.dependencies = { ...starter.dependencies, littlepress };
  site.devDependencies = Object.fromEntries(
    Object.entries({ ...starter.devDependencies, ...SITE_TOOLS }).filter(([name]) => !REPOSITORY_ONLY.includes(name)),
  );
  const own = new Set([...Object.keys(site.dependencies), ...Object.keys(site.devDependencies)]);
  const overrides = Object.entries(starter.overrides ?? {}).filter(
    ([dependency, rule]) => typeof rule !== "object" || own.has(dependency),
  );
  if (overrides.length) site.overrides = Object.fromEntries(overrides);
  else delete site.overrides;
  return site;
}

/** The new site's folder for the engine's tarball, which its package.json names (`file:vendor/<tarball>`). */
export const VENDOR = "vendor";

/**
 * The starter's own tarball of littlepress, when its package.json names one
 * (`file:<path>.tgz`) that is there: the starter is a site made by littlepress
 * new, whose node_modules/littlepress (this running package) was installed from
 * that file, so the new site gets the same bytes, and the same integrity in its
 * lockfile. Otherwise (the repository's workspace, or a site that moved to the
 * registry), undefined: the running package is packed instead (packEngine).
 */
export function starterTarball(source: string, starter: PackageJson): string | undefined {
  const file = /^file:(.+\.tgz)$/.exec(starter.dependencies?.littlepress ?? "")?.[1];
  const at = file && path.resolve(source, file);
  return at && existsSync(at) ? at : undefined;
}

const execFileAsync = promisify(execFile);
/** npm as a child process takes it: npm.cmd through a shell on Windows. */
const WINDOWS = process.platform === "win32";
const NPM = WINDOWS ? "npm.cmd" : "npm";

/**
 * Packs the running package (PACKAGE_ROOT) into `destination` with `npm pack`,
 * and returns the tarball's path. --ignore-scripts: what runs is the compiled
 * package as it is (dist/), and its prepare (tsc) needs the repository's
 * devDependencies, which an installed copy has not.
 */
export async function packEngine(destination: string): Promise<string> {
  const { stdout } = await execFileAsync(
    NPM,
    ["pack", "--json", "--ignore-scripts", "--pack-destination", destination],
    { cwd: PACKAGE_ROOT, shell: WINDOWS, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return path.join(destination, path.basename(filename));
}

/** Puts the engine's tarball in `target`'s vendor/ (the starter's, or the running package packed); its file name. */
async function vendorEngine(
  source: string,
  starter: PackageJson,
  target: string,
  pack: typeof packEngine,
): Promise<string> {
  const folder = path.join(target, VENDOR);
  mkdirSync(folder, { recursive: true });
  const carried = starterTarball(source, starter);
  if (!carried) return path.basename(await pack(folder));
  copyFileSync(carried, path.join(folder, path.basename(carried)));
  return path.basename(carried);
}

/**
 * Puts the starter's package-lock.json into the new site, when it has one npm wrote, for npm install
 * --package-lock-only to start from. npm keeps each version it holds that the site's package.json still
 * takes (those the starter was tested with), drops what only the starter needed (the workspace's link to
 * packages/littlepress, the repository's CI tools) and resolves the rest: littlepress from vendor/.
 * Resolved afresh, every dependency was asked of the registry (some 1,400: 41 s from npm's registry
 * here, 214 s through a proxy on loopback), and the site got whatever was newest that day.
 */
function seedLockfile(source: string, target: string): boolean {
  let text: string;
  try {
    text = readFileSync(path.join(source, "package-lock.json"), "utf8");
    const { packages } = JSON.parse(text) as { packages?: unknown };
    if (typeof packages !== "object" || packages === null) return false;
  } catch {
    return false; // none, or not npm's: resolved afresh
  }
  writeFileSync(path.join(target, "package-lock.json"), text);
  return true;
}

/** An npm package name from a folder's name: lowercase, URL-safe, never empty. */
export function siteName(folder: string): string {
  const name = path
    .basename(path.resolve(folder))
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|[._-]+$/g, "")
    .slice(0, 214);
  return name || "littlepress-site";
}

/** The folder of the nearest package.json at or above `dir`, or undefined. */
function projectOf(dir: string): string | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, "package.json"))) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

/** What keeps `dir` from being a starter to copy (its package.json depends on littlepress; content/), or undefined. */
function starterProblem(dir: string, pkg: PackageJson): string | undefined {
  if (!pkg.dependencies?.littlepress) return "its package.json does not depend on littlepress";
  if (!existsSync(path.join(dir, "content"))) return "it has no content/ folder";
  return undefined;
}

/** What keeps `target` from taking a new site copied from `source`, or undefined. */
function targetProblem(source: string, target: string): string | undefined {
  const inside = path.relative(source, target);
  if (!inside || (!inside.startsWith("..") && !path.isAbsolute(inside)))
    return `it is inside ${source}, the starter it would copy: make the site outside it (e.g. ../my-press)`;
  if (!existsSync(target)) return undefined;
  if (!statSync(target).isDirectory()) return "it is a file";
  if (readdirSync(target).length) return "it exists and is not empty: name a new folder, or an empty one";
  return undefined;
}

/** A path as the author would type it: relative to where the command runs, when it is under or beside it. */
function shown(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  if (!relative) return ".";
  return path.isAbsolute(relative) || relative.startsWith(`..${path.sep}..`) ? file : relative;
}

/** A path as a shell takes it: quoted when it holds anything but letters, digits and ./_-. */
const shellWord = (word: string) => (/^[\w./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

export const USAGE = `Usage: littlepress new <folder> [options]

Makes a site of your own in <folder> (new, or empty) from the starter this runs
in: the littlepress repository's root (or a site made from it), its content/,
layouts/, functions/, test/, scripts/ and settings, and nothing else: not the
package (packages/), the repository's CI (.ci/), node_modules/, built output,
the repository's package-lock.json as it is, or a file of yours such as .env or
.npmrc. The site's .gitignore ignores .env. The site carries the littlepress
that runs this, packed, as vendor/littlepress-<version>.tgz (the starter's own
tarball, when it has one), and its package.json names that file, with no
workspace: no public registry holds littlepress for this project yet, so it
installs with none. npm then resolves the site's own package-lock.json (npm
install --package-lock-only) from the starter's, keeping the versions it was
tested with, so that \`npm ci && npm start\` works there.

Once littlepress is published under the project's name, move a site to the
registry with \`npm install littlepress@<version>\` there (then delete
vendor/), or make it with --from-registry.

Options:
  --from-registry  littlepress from the registry (^ the version running), no
                   vendor/: only once the project has published it there
  --no-install     copy only, with no package-lock.json (run npm install there)
  -h, --help       show this text

The folder or the starter will not do, or npm failed, is exit 1 (when npm
failed, the copy is left there).

Example:
  npx littlepress new ../my-press && cd ../my-press && npm ci && npm start`;

const OPTIONS = {
  "from-registry": { type: "boolean" },
  "no-install": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Runs npm in `cwd` with the terminal's output; resolves to its exit code. */
export function npm(args: string[], cwd: string): Promise<number> {
  const child = spawn(NPM, args, { cwd, stdio: "inherit", shell: WINDOWS });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Copies the starter's own files (starterFile) from `source` into `target`, and writes the site's .gitignore. */
function copyStarter(source: string, target: string): void {
  for (const entry of readdirSync(source).filter((name) => starterFile(name)))
    cpSync(path.join(source, entry), path.join(target, entry), {
      recursive: true,
      filter: (from) => starterFile(path.relative(source, from)),
    });
  const front = path.join(target, "README.md");
  if (existsSync(front)) writeFileSync(front, siteReadme(readFileSync(front, "utf8")));
  const ignore = path.join(source, ".gitignore");
  const starterIgnores = existsSync(ignore) ? readFileSync(ignore, "utf8") : "";
  writeFileSync(path.join(target, ".gitignore"), siteGitignore(starterIgnores));
}

export async function main(
  argv: string[],
  out: Output = processOutput,
  {
    cwd = process.cwd(),
    runNpm = npm,
    pack = packEngine,
  }: { cwd?: string; runNpm?: typeof npm; pack?: typeof packEngine } = {},
): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS);
  const answered = answerUsage("new", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return answerUsage("new", { error: "name one folder for the site" }, USAGE, out) ?? 2;
  const fail = (problem: string) => {
    out.stderr(`new: ${problem}\n`);
    return 1;
  };

  const source = projectOf(cwd);
  if (!source) return fail(`no package.json in ${cwd} or above it: run this at the littlepress repository's root`);
  const starter = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8")) as PackageJson;
  const notAStarter = starterProblem(source, starter);
  if (notAStarter)
    return fail(
      `${source} is not a littlepress starter (${notAStarter}): run this at the littlepress repository's root`,
    );
  const target = path.resolve(cwd, positionals[0]!);
  const cannot = targetProblem(source, target);
  if (cannot) return fail(`cannot make a site in ${shown(cwd, target)}: ${cannot}`);

  mkdirSync(target, { recursive: true });
  copyStarter(source, target);
  const where = shown(cwd, target);
  const { version } = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string };
  let littlepress = `^${version}`;
  let from = "from the registry";
  if (!values["from-registry"]) {
    let tarball: string;
    try {
      tarball = await vendorEngine(source, starter, target, pack);
    } catch (error) {
      const said = error instanceof Error ? error.message : String(error);
      return fail(`could not put littlepress into ${where}/${VENDOR}/ (${said}); the rest of the site is copied there`);
    }
    littlepress = `file:${VENDOR}/${tarball}`;
    from = `from ${VENDOR}/${tarball}: the one running, packed, which installs with no registry`;
  }
  const site = sitePackage(starter, siteName(target), littlepress);
  writeFileSync(path.join(target, "package.json"), `${JSON.stringify(site, null, 2)}\n`);
  out.stdout(`new: copied the starter from ${shown(cwd, source)} into ${where}/, with littlepress ${from}\n`);

  let next = "npm ci && npm start";
  if (values["no-install"]) next = "npm install && npm start";
  else {
    const seeded = seedLockfile(source, target);
    const start = seeded ? ", from the starter's: the versions it was tested with" : "";
    out.stdout(`new: resolving its own package-lock.json${start} (npm install --package-lock-only)\n`);
    const code = await runNpm(["install", "--package-lock-only", "--no-audit", "--no-fund"], target);
    if (code !== 0)
      return fail(
        `npm install failed (exit ${code}) in ${where}/: the site is copied there; ` +
          "fix what npm says above, then run npm install there",
      );
  }
  out.stdout(`new: ${where}/ is ready. Next:\n  cd ${shellWord(where)}\n  ${next}\n`);
  return 0;
}

runTool("new", import.meta.url, main);
