import { statSync } from "node:fs";
import path from "node:path";
import { ContentError, type ContentProblem } from "../model/content-error.ts";
import { contentTree, isPublicationDir, listDirs, type ContentTree } from "./content-tree.ts";
import { compareKeys, type EditionKey } from "../model/edition-key.ts";
import { KEY_FIELD, keyFromFrontMatter, keyValueOfText } from "../model/front-matter-key.ts";
import type { FrontMatterSplit } from "./front-matter.ts";
import type { Publication } from "../model/publication.ts";
import { readPublication } from "./publication-file.ts";
import { dataEditions } from "./data-editions.ts";
import { editionChecks } from "./edition-checks.ts";
import { readSiteSettings } from "./site-settings.ts";
import { DATA_GOES, readMarkdownEditions } from "./markdown-editions.ts";
import { utcDateOf, type IsoDate } from "../model/dates.ts";
import type { PrintKeyOrigin } from "../model/print-key.ts";
import { pushMark } from "../model/push.ts";
import type { PostPart } from "./post-editions.ts";

/** One Markdown edition, found, keyed and split here (its front matter read once) before the build renders it. */
export interface EditionSource extends FrontMatterSplit {
  /** The file, under the content folder as given, with forward slashes: what problems and warnings name. */
  file: string;
  key: EditionKey;
  /** Where the key comes from when that is not `file`, the template: a data file's row, or the recurring rule. */
  origin?: string;
  /** For a CSV row: the columns whose cells are empty (not in `data`). */
  empty?: string[];
  /** Marked push (front matter `push: true`, a row's `push` column): printed at once to every subscriber. */
  push?: true;
  /** An edition of several blog posts (two on one day): each rendered with its own front matter, in order. */
  parts?: PostPart[];
  /** A blog's post (blog-posts.ts): rendered as the site renders its Markdown, not always as Liquid. */
  post?: true;
}

/** A publication with its editions, sorted by key. */
export interface PublicationSource extends Publication {
  editions: Publication["editions"] & { list: EditionSource[] };
  /** The edition shown at /sample/. */
  sampleKey: EditionKey;
  /** The author's image for icon.png, if there is one. */
  iconFile?: string;
}

/** Everything under content/: the publications the site serves. */
export interface Site {
  publications: PublicationSource[];
  /** The publication also served at the site root (`content/site.json`: {"root": "<slug>"}). */
  root?: string;
  /** Where the site is deployed (`content/site.json`: {"url": "https://…"}): makes asset URLs absolute. */
  url?: string;
  /** The print-key services subscribers' keys may be on (`content/site.json`: "print_key_origins"). */
  printKeyOrigins?: PrintKeyOrigin[];
  /** Live subscriptions each publication takes at most (`content/site.json`: "max_subscriptions"). */
  maxSubscriptions?: number;
}

export interface LoadOptions {
  /** The build date, where an open-ended recurring rule starts its window (default: today, UTC). */
  today?: IsoDate;
  /**
   * What each Markdown edition file gave an earlier load, by its absolute path (`npm start`'s
   * memory): a file found here, of the same version, is not read again.
   */
  read?: Map<string, EditionRead>;
}

/**
 * What one Markdown edition file gave, for a publication keyed `by`: an edition, or a problem;
 * `version` is the file's when it was read (model/file-version.ts).
 */
export type EditionRead = { by: string; version: string } & ({ edition: EditionSource } | { problem: ContentProblem });

/**
 * Reads and checks every publication under `contentDir`. Throws a ContentError
 * listing all problems in all publications, so an author fixes them in one go.
 */
export function loadSite(contentDir: string, options: LoadOptions = {}): Site {
  const today = options.today ?? utcDateOf(new Date());
  const problems: ContentProblem[] = [];
  const publications: PublicationSource[] = [];
  if (!exists(contentDir)) return { publications };
  const tree = contentTree(contentDir, problems);
  for (const slug of listDirs(tree, contentDir)) {
    const dir = path.join(contentDir, slug);
    if (!isPublicationDir(dir)) continue;
    const read = readPublication(slug, path.join(dir, "publication.json"));
    if ("problems" in read) {
      problems.push(...read.problems);
      continue;
    }
    const pub = read.publication;
    const list = readEditions(pub, dir, tree, today, options.read);
    misplacedData(dir, problems);
    const file = path.join(dir, "publication.json");
    const sampleKey = list.length ? sampleOf(pub, list, file, problems) : "";
    const iconFile = iconOf(pub, dir, file, problems);
    const source = { ...pub, editions: { ...pub.editions, list }, sampleKey, ...(iconFile ? { iconFile } : {}) };
    problems.push(...editionChecks(source));
    publications.push(source);
  }
  const slugs = publications.map((p) => p.slug);
  const settings = readSiteSettings(contentDir, slugs, problems);
  if (problems.length) throw new ContentError(problems);
  return { publications, ...settings };
}

function sampleOf(pub: Publication, list: EditionSource[], file: string, problems: ContentProblem[]): EditionKey {
  if (pub.editions.sample === undefined) return list[0]!.key;
  const sample = pub.editions.sample;
  // "sample": "2" is as clear as "sample": 2.
  const key = keyFromFrontMatter(pub.editions.by, keyValueOfText(pub.editions.by, sample));
  if ("key" in key && list.some((e) => e.key === key.key)) return key.key;
  problems.push({
    file,
    field: "editions.sample",
    problem: `there is no edition ${JSON.stringify(pub.editions.sample)}`,
    fix: `use the key of one of the editions (the first is ${list[0]!.key}), or leave sample out`,
  });
  return list[0]!.key;
}

function iconOf(pub: Publication, dir: string, file: string, problems: ContentProblem[]): string | undefined {
  const icon = path.join(dir, pub.icon ?? "icon.png");
  if (exists(icon)) return icon;
  if (pub.icon !== undefined)
    problems.push({
      file,
      field: "icon",
      problem: `${icon} does not exist`,
      fix: "put the image in the publication's folder, or leave icon out for a plain default",
    });
  return undefined;
}

/** Every edition of a publication: its Markdown files, its data rows and its recurring dates, sorted by key. */
function readEditions(
  pub: Publication,
  dir: string,
  tree: ContentTree,
  today: IsoDate,
  read?: Map<string, EditionRead>,
): EditionSource[] {
  const { problems } = tree;
  const before = problems.length;
  const editionsDir = path.join(dir, "editions");
  const markdown = readMarkdownEditions(pub, editionsDir, tree, read);
  const { rows, recurring } = dataEditions(pub, dir, today, problems);
  if (markdown.length + rows.length + recurring.length === 0) {
    if (problems.length === before)
      problems.push({
        file: editionsDir,
        field: "",
        problem: "has no editions",
        fix:
          "add at least one Markdown file with the edition's key in its front matter, " +
          "or rows in content/<slug>/editions.csv with a template edition.md " +
          '(docs/data-and-recurring-editions.md: "Editions from data")',
      });
    return [];
  }
  const byKey = editionsByKey(pub, [...markdown, ...rows], problems);
  // A Markdown edition or a row for a date of the rule is that date's special edition.
  for (const edition of recurring) if (!byKey.has(edition.key)) byKey.set(edition.key, edition);
  for (const edition of byKey.values()) markPush(edition, problems);
  return [...byKey.values()].sort((a, b) => compareKeys(pub.editions.by, a.key, b.key));
}

/** The editions by key; a key two editions have is a problem naming both. */
function editionsByKey(
  pub: Publication,
  editions: EditionSource[],
  problems: ContentProblem[],
): Map<EditionKey, EditionSource> {
  const field = KEY_FIELD[pub.editions.by];
  const byKey = new Map<EditionKey, EditionSource>();
  for (const edition of editions) {
    const twin = byKey.get(edition.key);
    if (twin !== undefined) {
      problems.push({
        file: edition.origin ?? edition.file,
        field,
        problem: `${edition.key} is also the key of ${twin.origin ?? twin.file}`,
        fix: `give each edition its own key, or merge the two${edition.origin || twin.origin ? "" : " files"}`,
      });
      continue;
    }
    byKey.set(edition.key, edition);
  }
  return byKey;
}

/**
 * Marks an edition push when its front matter (or its data row) says `push: true`: the one rule for
 * content/'s editions and a blog's posts (blog-posts.ts). An edition of several posts (two on one day)
 * is push when one of them is. A `push` neither true nor false is a problem naming its file.
 */
export function markPush(edition: EditionSource, problems: ContentProblem[]): void {
  const marks = edition.parts ?? [{ file: edition.origin ?? edition.file, data: edition.data }];
  for (const { file, data } of marks) {
    const push = pushMark(data.push);
    if (push === true) edition.push = true;
    else if (push !== false) problems.push({ file, field: "push", ...push });
  }
}

/** A `_data` folder in a publication: Eleventy reads global data only from the content folder's own `_data`. */
function misplacedData(publicationDir: string, problems: ContentProblem[]) {
  const dir = path.join(publicationDir, "_data");
  const problem = "is not read: only the content folder's own _data/ holds global data";
  if (exists(dir)) problems.push({ file: dir, field: "", problem, fix: DATA_GOES });
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    // Any failure to stat is "not there" for the caller, which says what it looked for.
    return false;
  }
}

// Where live.ts asks for a file's version (the one rule: markdown-editions.ts's).
export { versionOf } from "./markdown-editions.ts";
