// The project's own files, as git sees them (tracked, and new ones it does not
// ignore), for the tests that read every source file. Without git (a copy of
// the kit from a tarball or degit has no .git; a machine may have no git at
// all), the tree is walked instead, skipping what the .gitignore files ignore,
// so the same files are found either way.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The files under `paths` (folders or files, relative to `root`), as relative
 * paths with forward slashes, sorted. `git: false` walks the tree even where git works.
 */
export function projectFiles(root: string, paths: string[], { git = true } = {}): string[] {
  const listed = git ? gitFiles(root, paths) : undefined;
  return (listed ?? walkedFiles(root, paths)).sort();
}

/** What git lists, or undefined when git is not installed or `root` is not in a repository. */
function gitFiles(root: string, paths: string[]): string[] | undefined {
  try {
    const args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...paths];
    const listed = execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    // A tracked file deleted in the working tree is still listed: only files that are there count.
    return [...new Set(listed.split("\0"))].filter((f) => f && existsSync(path.join(root, f)));
  } catch {
    return undefined;
  }
}

/** One line of a .gitignore, read: whether it ignores a path (relative to the project, with slashes). */
interface Rule {
  /** The folder of its .gitignore, relative to the project ("" at the top), with a trailing slash. */
  base: string;
  pattern: RegExp;
  negated: boolean;
  /** The pattern ended with "/": it matches folders only. */
  folderOnly: boolean;
}

function walkedFiles(root: string, paths: string[]): string[] {
  const files: string[] = [];
  const visit = (relative: string, isFolder: boolean, rules: Rule[]) => {
    if (ignored(relative, isFolder, rules)) return;
    if (!isFolder) return void files.push(relative);
    const here = [...rules, ...readRules(root, relative)];
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (entry.name === ".git") continue;
      const child = `${relative}/${entry.name}`;
      // A symbolic link is listed as git lists it: as one entry, never followed.
      visit(child, entry.isDirectory(), here);
    }
  };
  for (const p of paths) {
    const relative = p.split(path.sep).join("/").replace(/\/+$/, "");
    const stats = statSync(path.join(root, relative), { throwIfNoEntry: false });
    if (!stats) continue;
    // The rules of the .gitignore files in the folders above it, top first; an ignored folder there hides it.
    const parts = relative.split("/");
    let rules = readRules(root, "");
    let hidden = false;
    for (let i = 1; i < parts.length && !hidden; i++) {
      const folder = parts.slice(0, i).join("/");
      hidden = ignored(folder, true, rules);
      rules = [...rules, ...readRules(root, folder)];
    }
    if (!hidden) visit(relative, stats.isDirectory(), rules);
  }
  return [...new Set(files)];
}

/** The last rule that matches decides, as in git; a folder's contents are not looked at once it is ignored. */
function ignored(relative: string, isFolder: boolean, rules: Rule[]): boolean {
  let result = false;
  for (const rule of rules) {
    if (rule.folderOnly && !isFolder) continue;
    if (!relative.startsWith(rule.base)) continue;
    if (rule.pattern.test(relative.slice(rule.base.length))) result = !rule.negated;
  }
  return result;
}

/** The rules of `folder`/.gitignore (none when there is none). */
function readRules(root: string, folder: string): Rule[] {
  const file = path.join(root, folder, ".gitignore");
  if (!existsSync(file)) return [];
  const base = folder ? `${folder}/` : "";
  return readFileSync(file, "utf8")
    .split(/\r?\n/)
    .flatMap((line) => {
      const rule = parseRule(line, base);
      return rule ? [rule] : [];
    });
}

/** One .gitignore line as a rule (gitignore(5)): undefined for a blank line or a comment. */
export function parseRule(line: string, base = ""): Rule | undefined {
  let text = line.replace(/(?<!\\)\s+$/, "");
  if (!text || text.startsWith("#")) return undefined;
  const negated = text.startsWith("!");
  if (negated) text = text.slice(1);
  const folderOnly = text.endsWith("/");
  if (folderOnly) text = text.slice(0, -1);
  // A slash at the start or in the middle ties the pattern to its .gitignore's folder; else it matches at any depth.
  const anchored = text.includes("/");
  if (text.startsWith("/")) text = text.slice(1);
  if (!text) return undefined;
  const body = globToRegExp(text);
  return { base, negated, folderOnly, pattern: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`) };
}

function globToRegExp(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slashAfter = glob[i + 2] === "/";
      const slashBefore = i === 0 || glob[i - 1] === "/";
      if (slashBefore && slashAfter) {
        out += "(?:.*/)?"; // "**/": any folders, or none
        i += 2;
      } else if (slashBefore && i + 2 === glob.length) {
        out += ".*"; // "/**" at the end: everything inside
        i += 1;
      } else {
        out += "[^/]*";
        i += 1;
      }
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "\\" && i + 1 < glob.length) out += escape(glob[++i]!);
    else out += escape(c);
  }
  return out;
}

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
