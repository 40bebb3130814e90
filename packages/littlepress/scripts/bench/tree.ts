// The kit as it was at a git ref, measured beside the current tree
// (`npm run bench -- --before <ref>`): the ref is checked out with `git
// worktree add --detach` in a folder of this project's .test-work/, where it
// finds this project's node_modules as any folder inside it does (a link to
// them would make Netlify's bundler ship the link, not the packages, and the
// zips look smaller than they are), and its server, its functions and its bundler
// are run from there, each in a process of its own and imported by absolute
// path (scripts/bench/serve-child.ts, handler-child.ts, function-cold-child.ts,
// bundle-child.ts): none of that tree's code is copied into this one. The
// checkout is removed at the end, also when the run fails or is interrupted.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import { installedPackage, mustSucceed, progress, ROOT, runChild } from "./util.ts";

/** The last commit before issue 26 (the server rewritten as one Hono app): the "before" of the report. */
export const DEFAULT_BEFORE = "cfbdd5e";

/** A checkout of the kit: where it is, and which commit. */
export interface Tree {
  /** The ref as given (--before). */
  ref: string;
  /** The commit it names, abbreviated, and that commit's subject line. */
  commit: string;
  subject: string;
}

export interface CheckedOutTree extends Tree {
  /** The kit's folder in the checkout (absolute): its root, or packages/littlepress once the kit became a package. */
  dir: string;
  /** Removes the checkout (git worktree remove --force); safe to call twice. */
  remove(): void;
}

const git = (args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });

/** Checks `ref` out in a temporary folder as a detached worktree of this repository. */
export function checkoutTree(ref: string): CheckedOutTree {
  const rev = git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  if (rev.error) throw new Error(`--before needs git: ${rev.error.message}`);
  if (rev.status !== 0)
    throw new Error(
      `--before ${ref}: no such commit in this repository ` +
        "(a shallow clone? `git fetch --unshallow`, or name another ref with --before)",
    );
  const sha = rev.stdout.trim();
  const commit = git(["rev-parse", "--short", sha]).stdout.trim() || sha.slice(0, 7);
  const subject = git(["log", "-1", "--format=%s", sha]).stdout.trim();
  mkdirSync(path.join(ROOT, ".test-work"), { recursive: true });
  const parent = mkdtempSync(path.join(ROOT, ".test-work", "bench-before-"));
  const dir = path.join(parent, "tree");
  progress(`check out ${ref} (${commit}) in ${dir}`);
  const add = git(["worktree", "add", "--detach", dir, sha]);
  if (add.status !== 0) {
    rmSync(parent, { recursive: true, force: true });
    throw new Error(`git worktree add ${ref} failed:\n${add.stderr.trim()}`);
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
    const out = git(["worktree", "remove", "--force", dir]);
    if (out.status !== 0) progress(`git worktree remove ${dir}: ${out.stderr.trim()}`);
    rmSync(parent, { recursive: true, force: true });
  };
  process.once("exit", remove);
  for (const s of signals) process.once(s, onSignal);
  const kit = path.join(dir, "packages", "littlepress");
  return { ref, commit, subject, dir: existsSync(path.join(kit, "package.json")) ? kit : dir, remove };
}

/** What is said of a tree in the report. */
export const treeFacts = ({ ref, commit, subject }: Tree): Tree => ({ ref, commit, subject });

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
  }
}
