// The editions of a folder of posts (blog-posts.ts makes it a publication):
// each post read as the site's Eleventy reads it, dated, and made an edition,
// by date (the morning after its day; several posts of one day are one
// edition) or as a numbered serial.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";
import { addDays, isRealDate, type IsoDate } from "../model/dates.ts";
import type { EditionKey } from "../model/edition-key.ts";
import type { FrontMatterSplit } from "./front-matter.ts";
import { leftOutBy, readFrontMatter, type PostReading } from "./post-reading.ts";
import { LEAVE_OUT_KEY } from "./post-rendering.ts";
import type { EditionSource } from "./site.ts";
import { readText } from "./text-file.ts";

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
    post: true,
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
        return { key, file: first.file, data: first.data, body: first.body, bodyLine: first.bodyLine, post: true };
      const parts: PostPart[] = list.map((p) => ({
        file: p.file,
        data: p.data,
        body: p.body,
        bodyLine: p.bodyLine,
        ...(typeof p.data.title === "string" && p.data.title && { title: p.data.title }),
      }));
      // The page's language is the first post's; its heading each post's own, over its text.
      const data = typeof first.data.lang === "string" ? { lang: first.data.lang } : {};
      return { key, file: first.file, data, body: "", bodyLine: 1, parts, post: true };
    });
}

/**
 * Every post under `folder`: Markdown files, read as the site's Eleventy reads them
 * (`reading`), and dated. A post Eleventy does not publish is left out: a draft
 * (`draft: true`, whatever the run), and a post a preprocessor of the site's drops;
 * so is a post its author leaves out of print (`littlepress: false`).
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
    if (front.data.draft === true || leftOutOfPrint(front.data, file, problems)) continue;
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

/** Whether the post says `littlepress: false`; any other value than true or false is a problem. */
function leftOutOfPrint(data: Record<string, unknown>, file: string, problems: ContentProblem[]): boolean {
  const value = data[LEAVE_OUT_KEY];
  if (value === undefined || value === true) return false;
  if (value === false) return true;
  problems.push({
    file,
    field: LEAVE_OUT_KEY,
    problem: `must be true or false, got ${JSON.stringify(value)}`,
    fix: `write \`${LEAVE_OUT_KEY}: false\` to leave the post out of print, or remove the line to print it`,
  });
  return true;
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

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    // As isDirectory: the caller says what it needed to find.
    return false;
  }
}
