import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ContentError, type ContentProblem } from "./content-error.ts";
import { compareKeys, KEY_FIELD, keyFromFrontMatter, type EditionKey } from "./edition-key.ts";
import { readFrontMatter } from "./front-matter.ts";
import { readPublication, type Publication } from "./publication.ts";

/** One Markdown edition, found and keyed before Eleventy renders it. */
export interface EditionSource {
  /** Path relative to the project, as Eleventy names it in page.inputPath (without "./"). */
  file: string;
  key: EditionKey;
}

/** A publication with its editions, sorted by key. */
export interface PublicationSource extends Publication {
  editions: Publication["editions"] & { list: EditionSource[] };
}

/** Everything under content/: the publications the site serves. */
export interface Site {
  publications: PublicationSource[];
}

/**
 * Reads and checks every publication under `contentDir`. Throws a ContentError
 * listing all problems in all publications, so an author fixes them in one go.
 */
export function loadSite(contentDir: string): Site {
  const problems: ContentProblem[] = [];
  const publications: PublicationSource[] = [];
  for (const slug of listDirs(contentDir)) {
    const dir = path.join(contentDir, slug);
    if (!exists(path.join(dir, "publication.json")) && !exists(path.join(dir, "editions"))) continue;
    const read = readPublication(slug, path.join(dir, "publication.json"));
    if ("problems" in read) {
      problems.push(...read.problems);
      continue;
    }
    const list = readEditions(read.publication, path.join(dir, "editions"), problems);
    publications.push({ ...read.publication, editions: { ...read.publication.editions, list } });
  }
  if (problems.length) throw new ContentError(problems);
  return { publications };
}

function readEditions(pub: Publication, dir: string, problems: ContentProblem[]): EditionSource[] {
  const files = listMarkdown(dir);
  if (files.length === 0) {
    problems.push({ file: dir, field: "", problem: "has no editions", fix: "add at least one Markdown file with the edition's key in its front matter" });
    return [];
  }
  const field = KEY_FIELD[pub.editions.by];
  const byKey = new Map<EditionKey, string>();
  for (const file of files) {
    const front = readFrontMatter(readFileSync(file, "utf8"));
    if ("error" in front) {
      problems.push({ file, field: "front matter", problem: front.error, fix: "correct the YAML between the two --- lines" });
      continue;
    }
    const key = keyFromFrontMatter(pub.editions.by, front.data[field]);
    if ("problem" in key) {
      problems.push({ file, field, problem: key.problem, fix: key.fix });
      continue;
    }
    const twin = byKey.get(key.key);
    if (twin !== undefined) {
      problems.push({ file, field, problem: `${key.key} is also the key of ${twin}`, fix: "give each edition its own key, or merge the two files" });
      continue;
    }
    byKey.set(key.key, file);
  }
  return [...byKey]
    .map(([key, file]) => ({ key, file: file.split(path.sep).join("/") }))
    .sort((a, b) => compareKeys(pub.editions.by, a.key, b.key));
}

function listDirs(dir: string): string[] {
  if (!exists(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith(".") && !d.name.startsWith("_"))
    .map((d) => d.name)
    .sort();
}

/** Markdown files under an editions folder, subfolders included (authors may group by year). */
function listMarkdown(dir: string): string[] {
  if (!exists(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith(".md"))
    .map((d) => path.join(d.parentPath, d.name))
    .sort();
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
