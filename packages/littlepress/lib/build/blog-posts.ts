// Publications made from a plain Eleventy site's posts (the plugin's `posts`
// option): a folder of Markdown posts with a `date` in their front matter
// becomes a publication, by date (a post is printed the morning after its day)
// or as a numbered serial (the posts in date order are editions 0, 1, 2, …).
// The settings go through publication.json's own checks; a post the kit cannot
// read fails the build naming the post, the field and the fix. A post is read
// as the site's Eleventy reads it (post-reading.ts): its front matter in any
// language Eleventy reads, and left out when Eleventy would not publish it.
import iconv from "iconv-lite";
import { existsSync, statSync } from "node:fs";
import type { ContentProblem } from "../model/content-error.ts";
import type { EditionKey } from "../model/edition-key.ts";
import { checkPublication, checkSlug } from "../model/publication.ts";
import { editionChecks } from "./edition-checks.ts";
import type { PostReading } from "./post-reading.ts";
import { postEditions } from "./post-editions.ts";
import { markPush, type EditionSource, type PublicationSource } from "./site.ts";

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

type Say = (field: string, problem: string, fix: string) => void;

async function postsPublication(
  entry: unknown,
  settings: PostsSettings,
  problems: ContentProblem[],
  reading: PostReading,
): Promise<{ publication: PublicationSource; folder: string } | undefined> {
  const { file, option } = settings;
  const say: Say = (field, problem, fix) =>
    problems.push({ file, field: `littlepress option ${option}${field ? `.${field}` : ""}`, problem, fix });
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    say("", `must be a publication's settings, got ${describe(entry)}`, `write it as ${EXAMPLE} (${DOCS})`);
    return undefined;
  }
  const given = entry as Record<string, unknown>;
  const before = problems.length;
  checkOwnFields(given, file, say);
  if (problems.length > before) return undefined;
  const pub = checkedPublication(given, settings, problems);
  if (!pub) return undefined;
  const folder = given.folder as string;
  const list = await postEditions(given.by as "date" | "serial", folder, problems, reading);
  // A post's `push: true` marks its edition push, as an edition's front matter does in content/.
  for (const edition of list) markPush(edition, problems);
  problems.push(...editionChecks({ fields: pub.fields, editions: { ...pub.editions, list } }));
  if (problems.length > before) return undefined;
  if (!list.length) {
    say("folder", `${folder} has no posts (Markdown files)`, "write a first post, or leave this publication out");
    return undefined;
  }
  const sampleKey = sampleOf(pub.editions.sample, list, say);
  const iconFile = pub.icon === undefined || existsSync(pub.icon) ? pub.icon : undefined;
  if (pub.icon !== undefined && !iconFile)
    say("icon", `${pub.icon} does not exist`, "give the image's path relative to the project, or leave icon out");
  if (problems.length > before) return undefined;
  return {
    publication: { ...pub, editions: { ...pub.editions, list }, sampleKey, ...(iconFile && { iconFile }) },
    folder,
  };
}

/** The plugin's own fields of a posts publication: `slug`, `by` and `folder` (and no `editions`). */
function checkOwnFields(given: Record<string, unknown>, file: string, say: Say): void {
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
}

/** The rest of the settings, publication.json's, checked as publication.json is (the same schema, the same words). */
function checkedPublication(given: Record<string, unknown>, settings: PostsSettings, problems: ContentProblem[]) {
  const mode = given.by as "date" | "serial";
  const raw: Record<string, unknown> = { delivered_on: DELIVERED_ON[mode] };
  for (const [key, value] of Object.entries(given)) if (!OWN_FIELDS.has(key)) raw[key] = value;
  raw.editions = {
    by: BY_MODE[mode],
    ...("ends" in given && { ends: given.ends }),
    ...("sample" in given && { sample: given.sample }),
  };
  const checked = checkPublication(given.slug as string, raw, settings.file, iconv);
  if (!("problems" in checked)) return checked.publication;
  for (const p of checked.problems) {
    // editions.ends and editions.sample are written at the top level here.
    const field = p.field.replace(/^editions\./, "");
    problems.push({ ...p, field: `littlepress option ${settings.option}${field ? `.${field}` : ""}` });
  }
  return undefined;
}

function sampleOf(sample: string | number | undefined, list: EditionSource[], say: Say): EditionKey {
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

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    // Nothing there, or nothing this process may look at: not a folder of posts, which the caller says.
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : JSON.stringify(value);
}
