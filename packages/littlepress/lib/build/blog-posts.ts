// Publications made from a plain Eleventy site's posts (the plugin's `posts`
// option): a folder of Markdown posts with a `date` in their front matter
// becomes a publication, by date (a post is printed the morning after its day)
// or as a numbered serial (the posts in date order are editions 0, 1, 2, …).
// The settings go through publication.json's own checks; a post the kit cannot
// read fails the build naming the post, the field and the fix. A post is read
// as the site's Eleventy reads it (post-reading.ts): its front matter in any
// language Eleventy reads, and left out when Eleventy would not publish it.
import iconv from "iconv-lite";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";
import { addDays, isRealDate, type IsoDate } from "../model/dates.ts";
import type { EditionKey } from "../model/edition-key.ts";
import { checkPublication, checkSlug } from "../model/publication.ts";
import type { FrontMatterSplit } from "./front-matter.ts";
import { leftOutBy, readFrontMatter, type PostReading } from "./post-reading.ts";
import { markPush, type EditionSource, type PublicationSource } from "./site.ts";
import { readText } from "./text-file.ts";

/**
 * One publication made from a folder of posts, in the plugin's options:
 * `{ slug: "paper", folder: "posts", by: "date", name: "The Paper", description: "…", owner_email: "…" }`.
 * Every field of publication.json but `editions` may be given too (`charset`, `icon`, `url`,
 * `strict_variables`, `markdown`, `config`, …), and is checked as publication.json's is.
 */
export interface PostsPublication {
  /** Served under /<slug>/: lowercase letters, digits and dashes. */
  slug: string;
  /** The folder of Markdown posts, relative to the project (where the build runs); subfolders are read too. */
  folder: string;
  /**
   * "date": a post dated D is the edition of D + 1 (the next delivery morning), by the printer's local date;
   * "serial": the posts in date order are editions 0, 1, 2, … by delivery_count.
   */
  by: "date" | "serial";
  /** Past the last post: `410`, ending subscriptions (a finished serial), or `204`, "nothing today" (the default). */
  ends?: boolean;
  name: string;
  /** One or two sentences; only <strong>, <em>, <br> and <a>. */
  description: string;
  owner_email: string;
  /** Free text; default "The morning after each new post" (by date) or "One post per delivery, in order" (serial). */
  delivered_on?: string;
  /** Image for icon.png, relative to the project; without one, a plain default. */
  icon?: string;
  /** The key of the edition at /<slug>/sample/ (a date, or a number for a serial); default the first. */
  sample?: string | number;
  [field: string]: unknown;
}

/** Where a posts publication's settings are, for its problems and warnings: the config file, and which entry. */
export interface PostsSettings {
  file: string;
  /** "posts[0]": the option, before each field's name. */
  option: string;
}

/** A posts publication, checked, with its editions. */
export type PostsPublicationSource = { publication: PublicationSource; settings: PostsSettings; folder: string };

/**
 * The posts publications, checked, with their editions; every problem found goes into `problems`.
 * `reading` is how the site's Eleventy reads a post (its front matter engines and preprocessors).
 */
export async function postsPublications(
  list: unknown,
  configFile: string,
  problems: ContentProblem[],
  reading: PostReading = {},
): Promise<PostsPublicationSource[]> {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    problems.push({
      file: configFile,
      field: "littlepress option posts",
      problem: `must be a list of publications, got ${describe(list)}`,
      fix: `write posts: [${EXAMPLE}] (${DOCS})`,
    });
    return [];
  }
  const made: PostsPublicationSource[] = [];
  for (const [i, entry] of (list as unknown[]).entries()) {
    const settings = { file: configFile, option: `posts[${i}]` };
    const one = await postsPublication(entry, settings, problems, reading);
    if (one) made.push({ ...one, settings });
  }
  const slugs = new Map<string, string>();
  for (const { publication, settings } of made) {
    const twin = slugs.get(publication.slug);
    if (twin)
      problems.push({
        file: configFile,
        field: `littlepress option ${settings.option}.slug`,
        problem: `"${publication.slug}" is also the slug of ${twin}`,
        fix: "give each publication its own slug",
      });
    slugs.set(publication.slug, settings.option);
  }
  return made;
}

const DOCS = 'docs/eleventy-plugin.md: "Posts as a publication"';
const EXAMPLE = '{ slug: "paper", folder: "posts", by: "date", name: "…", description: "…", owner_email: "…" }';
const BY_MODE = { date: "local_date", serial: "delivery_count" } as const;
const DELIVERED_ON = { date: "The morning after each new post", serial: "One post per delivery, in order" };
const OWN_FIELDS = new Set(["slug", "folder", "by", "ends", "sample"]);

async function postsPublication(
  entry: unknown,
  settings: PostsSettings,
  problems: ContentProblem[],
  reading: PostReading,
): Promise<{ publication: PublicationSource; folder: string } | undefined> {
  const { file, option } = settings;
  const say = (field: string, problem: string, fix: string) =>
    problems.push({ file, field: `littlepress option ${option}${field ? `.${field}` : ""}`, problem, fix });
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    say("", `must be a publication's settings, got ${describe(entry)}`, `write it as ${EXAMPLE} (${DOCS})`);
    return undefined;
  }
  const given = entry as Record<string, unknown>;
  const before = problems.length;
  const { slug, folder, by } = given;
  if (typeof slug !== "string" || !slug)
    say("slug", "is missing", 'add slug: "paper": the publication is served at /paper/');
  else if (checkSlug(slug, file).length)
    say("slug", `"${slug}" cannot be used in a URL`, "use lowercase letters, digits and dashes (for example `paper`)");
  if (by !== "date" && by !== "serial")
    say(
      "by",
      by === undefined ? "is missing" : `must be "date" or "serial", got ${describe(by)}`,
      'write by: "date" (a post is printed the morning after its date) or by: "serial" ' +
        `(the posts in order, one per delivery) (${DOCS})`,
    );
  if (typeof folder !== "string" || !folder)
    say("folder", "is missing", 'add folder: "posts": the folder of Markdown posts, relative to the project');
  else if (!isDirectory(folder))
    say(
      "folder",
      `${folder} is not a folder (${existsSync(folder) ? "it is a file" : "it does not exist"}, ` +
        `looked for from ${process.cwd()})`,
      "give the folder of the posts, relative to the project (where the build runs), such as posts",
    );
  if ("editions" in given)
    say(
      "editions",
      "is made by the plugin from `by` and `ends`",
      "remove editions; set by, and ends if the series ends",
    );
  if (problems.length > before) return undefined;
  const mode = by as "date" | "serial";
  // The rest is publication.json's, checked as publication.json is (the same schema, the same words).
  const raw: Record<string, unknown> = { delivered_on: DELIVERED_ON[mode] };
  for (const [key, value] of Object.entries(given)) if (!OWN_FIELDS.has(key)) raw[key] = value;
  raw.editions = {
    by: BY_MODE[mode],
    ...("ends" in given && { ends: given.ends }),
    ...("sample" in given && { sample: given.sample }),
  };
  const checked = checkPublication(slug as string, raw, file, iconv);
  if ("problems" in checked) {
    for (const p of checked.problems) {
      // editions.ends and editions.sample are written at the top level here.
      const field = p.field.replace(/^editions\./, "");
      problems.push({ ...p, field: `littlepress option ${option}${field ? `.${field}` : ""}` });
    }
    return undefined;
  }
  const pub = checked.publication;
  const list = await postEditions(mode, folder as string, problems, reading);
  // A post's `push: true` marks its edition push, as an edition's front matter does in content/.
  for (const edition of list) markPush(edition, problems);
  if (problems.length > before) return undefined;
  if (!list.length) {
    const problem = `${folder as string} has no posts (Markdown files)`;
    say("folder", problem, "write a first post, or leave this publication out");
    return undefined;
  }
  const sampleKey = sampleOf(pub.editions.sample, list, say);
  let iconFile: string | undefined;
  if (pub.icon !== undefined) {
    if (existsSync(pub.icon)) iconFile = pub.icon;
    else say("icon", `${pub.icon} does not exist`, "give the image's path relative to the project, or leave icon out");
  }
  if (problems.length > before) return undefined;
  return {
    publication: { ...pub, editions: { ...pub.editions, list }, sampleKey, ...(iconFile && { iconFile }) },
    folder: folder as string,
  };
}

function sampleOf(
  sample: string | number | undefined,
  list: EditionSource[],
  say: (field: string, problem: string, fix: string) => void,
): EditionKey {
  if (sample === undefined) return list[0]!.key;
  const found = list.find((e) => e.key === String(sample));
  if (found) return found.key;
  say(
    "sample",
    `there is no edition ${JSON.stringify(sample)}`,
    `use one of the editions' keys (the first is ${list[0]!.key}), or leave sample out`,
  );
  return list[0]!.key;
}

/** One post, read: its file, its front matter and text, and its date. */
export interface Post extends FrontMatterSplit {
  /** The file, relative to the project, with forward slashes. */
  file: string;
  /** The calendar date the post is dated, as written. */
  day: IsoDate;
  /**
   * Its instant, for the order of posts: a date alone is midnight UTC, a time
   * without an offset UTC (as Eleventy reads them).
   */
  instant: number;
}

/** One part of an edition holding several posts (two posts on one day): each is rendered with its own front matter. */
export interface PostPart extends FrontMatterSplit {
  file: string;
  title?: string;
}

/** A publication's editions from its posts (drafts left out), sorted by key. */
export async function postEditions(
  mode: "date" | "serial",
  folder: string,
  problems: ContentProblem[],
  reading: PostReading = {},
): Promise<EditionSource[]> {
  const posts = (await readPosts(folder, problems, reading)).sort(
    (a, b) => a.instant - b.instant || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
  return mode === "serial" ? serialEditions(posts) : dateEditions(posts);
}

/** Editions 0, 1, 2, … of the posts, in order. */
export function serialEditions(posts: Post[]): EditionSource[] {
  return posts.map((post, i) => ({
    key: String(i),
    file: post.file,
    data: post.data,
    body: post.body,
    bodyLine: post.bodyLine,
  }));
}

/** One edition per day with posts, keyed the day after; several posts of one day are one edition, in order. */
export function dateEditions(posts: Post[]): EditionSource[] {
  const byKey = new Map<EditionKey, Post[]>();
  for (const post of posts) {
    const key = addDays(post.day, 1);
    byKey.set(key, [...(byKey.get(key) ?? []), post]);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, list]) => {
      const [first] = list as [Post];
      if (list.length === 1)
        return { key, file: first.file, data: first.data, body: first.body, bodyLine: first.bodyLine };
      const parts: PostPart[] = list.map((p) => ({
        file: p.file,
        data: p.data,
        body: p.body,
        bodyLine: p.bodyLine,
        ...(typeof p.data.title === "string" && p.data.title && { title: p.data.title }),
      }));
      // The page's language is the first post's; its heading each post's own, over its text.
      const data = typeof first.data.lang === "string" ? { lang: first.data.lang } : {};
      return { key, file: first.file, data, body: "", bodyLine: 1, parts };
    });
}

/**
 * Every post under `folder`: Markdown files, read as the site's Eleventy reads them
 * (`reading`), and dated. A post Eleventy does not publish is left out: a draft
 * (`draft: true`, whatever the run), and a post a preprocessor of the site's drops.
 */
export async function readPosts(
  folder: string,
  problems: ContentProblem[],
  reading: PostReading = {},
): Promise<Post[]> {
  const posts: Post[] = [];
  for (const full of markdownFiles(folder)) {
    const file = full.split(path.sep).join("/");
    const text = readText(full);
    if ("problem" in text) {
      problems.push({ ...text.problem, file });
      continue;
    }
    const front = await readFrontMatter(text.text, file, reading.frontMatter);
    if ("error" in front) {
      problems.push({ file, field: "front matter", problem: front.error, fix: front.fix });
      continue;
    }
    if (front.data.draft === true) continue;
    if (await leftOutBy(file, front.data, front.body, reading.preprocessors)) continue;
    const date = postDate(front.data.date, path.basename(full));
    if ("problem" in date) {
      problems.push({ file, field: "date", ...date });
      continue;
    }
    posts.push({ file, ...front, ...date });
  }
  return posts;
}

function markdownFiles(dir: string): string[] {
  const files: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, d.name);
    if (d.isDirectory() && d.name !== "node_modules") files.push(...markdownFiles(full));
    else if (d.name.endsWith(".md") && isFile(full)) files.push(full);
  }
  return files.sort();
}

const DATE_FIX =
  "write the day of the post in its front matter as `date: 2026-11-22` " +
  "(a time may follow: `date: 2026-11-22T09:30` or `date: 2026-11-22T09:30:00+01:00`)";

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?[ ]?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
// Eleventy's names for a file's own dates: they change when the file does, which would move an edition.
const FILE_DATES = /^(?:git )?(?:last modified|created)$/i;

/**
 * A post's day and instant: from `date` in its front matter, else from a
 * file name that starts with one (2026-11-22-title.md), as Eleventy reads it.
 */
export function postDate(
  value: unknown,
  fileName: string,
): { day: IsoDate; instant: number } | { problem: string; fix: string } {
  if (value === undefined || value === null) {
    const named = /^(\d{4}-\d{2}-\d{2})(?=[-_.])/.exec(fileName)?.[1];
    if (named) return postDate(named, "");
    return { problem: "the post has no `date` (littlepress prints a post by its date)", fix: DATE_FIX };
  }
  // JavaScript front matter may give a Date: its instant, and its day in UTC (as Eleventy shows dates).
  if (value instanceof Date) {
    const instant = value.getTime();
    if (Number.isNaN(instant))
      return { problem: "`date` is a Date that is not a real date (Invalid Date)", fix: DATE_FIX };
    return { day: value.toISOString().slice(0, 10), instant };
  }
  const text = typeof value === "string" ? value.trim() : "";
  if (FILE_DATES.test(text))
    return {
      problem: `\`date: ${text}\` changes with the file, and an edition must keep its day`,
      fix: DATE_FIX,
    };
  const m = DATE.exec(text);
  if (!m) return { problem: `\`date\` must look like 2026-11-22, got ${JSON.stringify(value)}`, fix: DATE_FIX };
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone] = m;
  if (!isRealDate(Number(y), Number(mo), Number(d)))
    return { problem: `\`date\` ${text} is not a real calendar date`, fix: "correct the date" };
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return { problem: `\`date\` ${text} is not a real time of day`, fix: "correct the time, from 00:00 to 23:59" };
  const offset =
    zone === undefined || zone === "Z"
      ? "Z"
      : zone.length === 3
        ? `${zone}:00`
        : zone.replace(/^(.\d\d)(\d\d)$/, "$1:$2");
  const instant = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return { day: `${y}-${mo}-${d}`, instant };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    // Nothing there, or nothing this process may look at: not a folder of posts, which the caller says.
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    // As isDirectory: the caller says what it needed to find.
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : JSON.stringify(value);
}
