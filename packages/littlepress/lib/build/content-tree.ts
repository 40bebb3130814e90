import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";

// How the build walks the content folder. A symbolic link counts as what it
// points to, as long as that is inside the content folder (an author may share
// an edition between publications); one pointing outside, or at nothing, is
// refused by name rather than skipped.

/** The content folder being walked, and the problems found on the way. */
export interface ContentTree {
  /** The content folder with its own links resolved: links must point inside it. */
  realRoot: string;
  problems: ContentProblem[];
}

export function contentTree(contentDir: string, problems: ContentProblem[]): ContentTree {
  return { realRoot: realpathSync(contentDir), problems };
}

/** What an entry is once a link is followed: undefined for a link that is refused (and reported). */
function kindOf(tree: ContentTree, dirent: Dirent, full: string): { kind: "file" | "dir"; real: string } | undefined {
  if (!dirent.isSymbolicLink()) return { kind: dirent.isDirectory() ? "dir" : "file", real: full };
  let real: string;
  let stats: Stats;
  try {
    real = realpathSync(full);
    stats = statSync(real);
  } catch {
    const fix = "point the link at an existing file in the content folder, or remove it";
    const problem = "is a symbolic link to nothing (its target does not exist)";
    tree.problems.push({ file: full, field: "", problem, fix });
    return undefined;
  }
  const rel = path.relative(tree.realRoot, real);
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    const fix = "copy the file into the content folder, or point the link at a file inside it";
    const problem = `is a symbolic link to ${real}, outside the content folder`;
    tree.problems.push({ file: full, field: "", problem, fix });
    return undefined;
  }
  return { kind: stats.isDirectory() ? "dir" : "file", real };
}

/** Folders directly in `dir` (links to folders included), not hidden and not `_`-prefixed (`_data`), sorted. */
export function listDirs(tree: ContentTree, dir: string): string[] {
  return entries(dir)
    .filter((d) => !d.name.startsWith(".") && !d.name.startsWith("_"))
    .filter((d) => kindOf(tree, d, path.join(dir, d.name))?.kind === "dir")
    .map((d) => d.name)
    .sort();
}

/**
 * Every file under `dir`, subfolders included (authors may group editions by
 * year), links followed; named by their path under `dir`, not their target's. Sorted.
 */
export function listFiles(tree: ContentTree, dir: string, seen = new Set<string>()): string[] {
  const files: string[] = [];
  for (const d of entries(dir)) {
    const full = path.join(dir, d.name);
    const entry = kindOf(tree, d, full);
    if (entry?.kind === "file") files.push(full);
    // A link back up the tree would otherwise be walked forever.
    else if (entry?.kind === "dir" && !seen.has(entry.real)) files.push(...listFiles(tree, full, seen.add(entry.real)));
  }
  return files.sort();
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    // A folder that vanished while the tree was read has nothing in it; the build reads what is there.
    return [];
  }
}

/** A folder of the content folder is a publication (or one half made): it has a publication.json or an editions/. */
export const isPublicationDir = (dir: string): boolean =>
  ["publication.json", "editions"].some((name) => {
    try {
      return statSync(path.join(dir, name), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false; // unreadable is not there, as site.ts has always taken it
    }
  });
