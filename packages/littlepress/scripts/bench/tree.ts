// The kit as it was, measured beside the current tree (`npm run bench --
// --before <ref or folder>`): a git ref is checked out with `git worktree add
// --detach`, a folder (an unpacked release, another checkout: no git needed)
// is copied, either into a folder of this project's .test-work/, where it
// finds this project's node_modules as any folder inside it does (a link to
// them would make Netlify's bundler ship the link, not the packages, and the
// zips look smaller than they are), and its server, its functions and its bundler
// are run from there, each in a process of its own and imported by absolute
// path (scripts/bench/serve-child.ts, handler-child.ts, function-cold-child.ts,
// bundle-child.ts): none of that tree's code is copied into this one. The
// copy is removed at the end, also when the run fails or is interrupted.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import path from "node:path";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import { installMissing, placePackages, type PlacedPackages } from "./tree-packages.ts";
import { installedPackage, mustSucceed, progress, ROOT, runChild } from "./util.ts";

/** The last commit before issue 26 (the server rewritten as one Hono app): the "before" of the report. */
export const DEFAULT_BEFORE = "cfbdd5e";

/** A "before" kit: where it came from. */
export interface Tree {
  /** The ref or the folder as given (--before). */
  ref: string;
  /** A ref: the commit it names, abbreviated. A folder: its kit's version (package.json). */
  commit: string;
  /** A ref: that commit's subject line. A folder: the kit's path. */
  subject: string;
  /** Given as a folder, and copied (no git). */
  folder?: boolean;
}

export interface CheckedOutTree extends Tree {
  /** The kit's folder in the copy (absolute): its root, or packages/littlepress once the kit became a package. */
  dir: string;
  /** Removes the copy (and its git worktree); safe to call twice. */
  remove(): void;
  /** The packages it needs that this project no longer installs, in its node_modules (tree-packages.ts). */
  packages: PlacedPackages;
}

/** What is wrong with --before: said as it is, without a stack (scripts/bench.ts). */
export class BeforeTreeError extends Error {}

const NO_GIT_HELP =
  "give --before a folder that holds the kit to compare with instead (an unpacked earlier release, " +
  "another checkout), e.g. --before ../littlepress-0.1.0; a folder needs no git";

/**
 * The kit `before` names, in a temporary folder: a folder that exists (relative
 * to where npm was run) is copied, anything else is a git ref of `repo`.
 */
export function beforeTree(before: string, repo = ROOT): CheckedOutTree {
  const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), before);
  return statSync(folder, { throwIfNoEntry: false })?.isDirectory()
    ? copyTree(before, folder)
    : checkoutTree(before, repo);
}

/** Checks `ref` out in a temporary folder as a detached worktree of the git repository `repo`. */
export function checkoutTree(ref: string, repo = ROOT): CheckedOutTree {
  const git = (args: string[]) => spawnSync("git", args, { cwd: repo, encoding: "utf8" });
  const inRepo = git(["rev-parse", "--git-dir"]);
  if (inRepo.error)
    throw new BeforeTreeError(
      `--before ${ref} is no folder, and git, for a ref, is not installed here: ${NO_GIT_HELP}`,
    );
  if (inRepo.status !== 0)
    throw new BeforeTreeError(
      `--before ${ref} is no folder, and ${repo} is not in a git repository to take it as a ref from ` +
        `(a downloaded release or a git archive has no .git): ${NO_GIT_HELP}`,
    );
  const rev = git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  if (rev.status !== 0)
    throw new BeforeTreeError(
      `--before ${ref}: no such folder, nor commit in this repository ` +
        "(a shallow clone? `git fetch --unshallow`, or name another ref or a folder with --before)",
    );
  const sha = rev.stdout.trim();
  const commit = git(["rev-parse", "--short", sha]).stdout.trim() || sha.slice(0, 7);
  const subject = git(["log", "-1", "--format=%s", sha]).stdout.trim();
  const tree = temporaryTree(`check out ${ref} (${commit})`, (dir) => {
    const add = git(["worktree", "add", "--detach", dir, sha]);
    if (add.status !== 0) throw new BeforeTreeError(`git worktree add ${ref} failed:\n${add.stderr.trim()}`);
    return () => {
      const out = git(["worktree", "remove", "--force", dir]);
      if (out.status !== 0) progress(`git worktree remove ${dir}: ${out.stderr.trim()}`);
    };
  });
  return { ref, commit, subject, ...tree };
}

/** Folders a kit's folder may hold that are not the kit: what installs, builds, tests and runs leave. */
const NOT_THE_KIT = new Set([".git", "node_modules", ".test-work", ".cache", ".littlepress", ".netlify"]);

/** Copies the kit in `folder` (the kit itself, or a repository with it in packages/littlepress). */
function copyTree(given: string, folder: string): CheckedOutTree {
  const packaged = path.join(folder, "packages", "littlepress");
  const kit = existsSync(path.join(packaged, "package.json")) ? packaged : folder;
  const manifest = path.join(kit, "package.json");
  if (!existsSync(manifest))
    throw new BeforeTreeError(`--before ${given}: ${folder} holds no kit (no package.json, nor packages/littlepress)`);
  const { version = "?" } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: string };
  const tree = temporaryTree(`copy ${kit}`, (dir) => copyKit(kit, dir, path.join(kit, "dist")));
  return { ref: given, commit: version, subject: kit, folder: true, ...tree };
}

/**
 * What git would check out, near enough: the kit's files, not its installs,
 * builds (`dist`, compiled) and test work, which also holds the copy itself
 * when the kit is this one (the smoke test).
 */
function copyKit(from: string, to: string, dist: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [a, b] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (NOT_THE_KIT.has(entry.name) || a === dist) continue;
    if (entry.isDirectory()) copyKit(a, b, dist);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(a), b);
    else if (entry.isFile()) copyFileSync(a, b);
  }
}

/**
 * A folder in .test-work/ that `fill` makes a kit (or a repository holding
 * one), removed by remove(), at exit, or on a signal; what fill returns undoes
 * what else it did (a git worktree's record). `doing` is said as progress.
 */
function temporaryTree(
  doing: string,
  fill: (dir: string) => (() => void) | void,
): Pick<CheckedOutTree, "dir" | "remove" | "packages"> {
  mkdirSync(path.join(ROOT, ".test-work"), { recursive: true });
  const parent = mkdtempSync(path.join(ROOT, ".test-work", "bench-before-"));
  const dir = path.join(parent, "tree");
  progress(`${doing} into ${dir}`);
  let undo: (() => void) | void;
  try {
    undo = fill(dir);
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw error;
  }
  let removed = false;
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.kill(process.pid, signal); // the default action, now that this listener is gone
  };
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off("exit", remove);
    for (const s of signals) process.off(s, onSignal);
    undo?.();
    rmSync(parent, { recursive: true, force: true });
  };
  process.once("exit", remove);
  for (const s of signals) process.once(s, onSignal);
  const kit = path.join(dir, "packages", "littlepress");
  const kitDir = existsSync(path.join(kit, "package.json")) ? kit : dir;
  try {
    return { dir: kitDir, remove, packages: installMissing(kitDir, path.join(parent, "packages")) };
  } catch (error) {
    remove();
    throw error;
  }
}

/** What is said of a tree in the report. */
export const treeFacts = ({ ref, commit, subject, folder }: Tree): Tree => ({
  ref,
  commit,
  subject,
  ...(folder && { folder }),
});

/**
 * A built site of this project (inside it) placed in `tree` at the same
 * relative path, hard-linked (copied where a link cannot be made), with its
 * functions' data beside it: bundled there, the zip names the same files.
 */
export function mirrorSite(tree: string, siteDir: string): string {
  const relative = path.relative(ROOT, path.resolve(siteDir));
  if (relative.startsWith("..") || path.isAbsolute(relative))
    throw new Error(`the site ${siteDir} is not inside the project`);
  for (const folder of [relative, siteDataDir(relative)]) {
    const to = path.join(tree, folder);
    rmSync(to, { recursive: true, force: true });
    linkTree(path.join(ROOT, folder), to);
  }
  return relative;
}

function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [a, b] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) linkTree(a, b);
    else if (entry.isFile()) {
      try {
        linkSync(a, b);
      } catch {
        copyFileSync(a, b);
      }
    }
  }
}

export interface TreeBundle {
  name: string;
  zipBytes: number;
}

/** The tree's functions zipped by the tree's own scripts/bundle-size.ts, with `siteDir` (mirrored into it). */
export async function treeBundles(tree: CheckedOutTree, siteDir: string): Promise<TreeBundle[]> {
  const site = mirrorSite(tree.dir, siteDir);
  // Netlify's bundler ships only the packages inside the project it is given: the tree gets
  // this project's node_modules as hard links for the time of the bundling (a second, no copy).
  const modules = path.join(tree.dir, "node_modules");
  // Gone first: the before server may have left its compile cache there (cp would link into it).
  rmSync(modules, { recursive: true, force: true });
  // The node_modules this project's packages are installed in (the repository's: npm hoists the workspace's).
  const installed = path.dirname(installedPackage("hono"));
  const link = spawnSync("cp", ["-al", installed, modules], { encoding: "utf8" });
  if (link.status !== 0) throw new Error(`cp -al node_modules into ${tree.dir} failed: ${link.stderr || link.error}`);
  placePackages(tree.packages, modules);
  try {
    const run = mustSucceed(
      `the function bundles of ${tree.ref}`,
      await runChild(
        process.execPath,
        ["--import", "tsx", path.join(ROOT, "scripts", "bench", "bundle-child.ts"), tree.dir, site],
        { cwd: tree.dir },
      ),
    );
    return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as TreeBundle[];
  } finally {
    for (const folder of [site, siteDataDir(site), "node_modules"])
      rmSync(path.join(tree.dir, folder), { recursive: true, force: true });
    placePackages(tree.packages, modules); // as before the bundling: the tree's own, for what runs next
  }
}
