// The Eleventy site of test/fixtures/eleventy-site (a popular starter's shape: src/ in, dist/ out), copied
// for a test, installed, and its commands run there as its author runs them (`npx …`).
import { execFile } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { STARTER_NETLIFY_CONFIG } from "../../lib/server/netlify-config.ts";

const run = promisify(execFile);
const FIXTURE = path.resolve("test/fixtures/eleventy-site");
/** The repository's installed packages: the site's node_modules, as `npm install` would make it. */
const MODULES = path.resolve("../../node_modules");

/**
 * A copy of the site in `root`, `files` written over it, installed: its node_modules/ a folder of links to each
 * of the repository's packages, by their real paths. (A link to the repository's node_modules itself misled
 * Netlify's file tracer: it read the workspace's relative link, node_modules/littlepress, from the copy.)
 */
export function siteCopy(root: string, name: string, files: Record<string, string> = {}): string {
  const dir = path.resolve(root, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(path.join(dir, "node_modules"));
  for (const entry of readdirSync(MODULES))
    symlinkSync(realpathSync(path.join(MODULES, entry)), path.join(dir, "node_modules", entry), "dir");
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}

/**
 * A bound on a hang, not on the speed: `npx @11ty/eleventy` on the site takes some 10 s, and ran past 120 s in a
 * loaded run (npm start and a CPU-bound process beside npm test).
 */
export const NPX_BOUND_MS = 300_000;

/** `npx <args>` in the site's folder: its exit code and all it printed. */
export async function npx(dir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env, NO_UPDATE_NOTIFIER: "1", npm_config_update_notifier: "false" };
  try {
    const r = await run("npx", ["--no-install", ...args], { cwd: dir, timeout: NPX_BOUND_MS, env });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, output: err.stdout + err.stderr };
  }
}

/**
 * The netlify.toml docs/eleventy-plugin.md ("Deploying a blog to Netlify") has a site built into dist/ write:
 * the package's netlify.starter.toml with `npx littlepress build` as its build command, publishing dist/, and
 * its functions carrying dist_data/. Less [dev] when `dev` is false (it runs `npm start` on port 8080).
 */
export function distNetlifyToml({ dev = true } = {}): string {
  const toml = readFileSync(STARTER_NETLIFY_CONFIG, "utf8")
    .replace('command = "npm run build"', 'command = "npx littlepress build"')
    .replace('publish = "_site"', 'publish = "dist"')
    .replaceAll('"_site_data/', '"dist_data/');
  return dev ? toml : toml.replace(/\n\[dev\][^[]*/, "\n");
}
