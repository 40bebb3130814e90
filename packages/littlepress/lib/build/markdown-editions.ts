// The Markdown editions in a publication's editions folder: each file's key,
// front matter and body, or what is wrong with it; under `npm start`, a file
// unchanged since the last load is not read again. A data file there, which
// nothing reads, is a problem of its own.
import { statSync } from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";
import { fileVersion } from "../model/file-version.ts";
import type { EditionKey, EditionsBy } from "../model/edition-key.ts";
import { KEY_FIELD, keyFromFrontMatter, keyValueOfText, slippedKeyName } from "../model/front-matter-key.ts";
import type { Publication } from "../model/publication.ts";
import { listFiles, type ContentTree } from "./content-tree.ts";
import { paginationProblem } from "./data-editions.ts";
import { splitFrontMatter, type FrontMatterSplit } from "./front-matter.ts";
import { lineOf } from "./front-matter-slips.ts";
import type { EditionRead, EditionSource } from "./site.ts";
import { readText } from "./text-file.ts";

/** The Markdown files in a publication's editions folder (none when there is no such folder). */
export function readMarkdownEditions(
  pub: Publication,
  dir: string,
  tree: ContentTree,
  read?: Map<string, EditionRead>,
): EditionSource[] {
  const { problems } = tree;
  const all = listFiles(tree, dir);
  const files = all.filter((f) => f.endsWith(".md"));
  problems.push(...all.filter((f) => isIgnoredData(dir, f)).map(ignoredDataProblem));
  problems.push(...all.filter(isUnreadText).map(unreadTextProblem));
  const editions: EditionSource[] = [];
  for (const file of files) {
    const got = read ? readAgainIfSaved(pub, file, read) : readEditionFile(pub, file, "");
    if ("problem" in got) problems.push(got.problem);
    else editions.push(got.edition);
  }
  return editions;
}

/**
 * What a file gave the last load, if it is still of the same version; else read now and kept.
 * Checked by the file's version, not by the watcher's word: a save it never reported (in a
 * linked folder, a burst past its queue) is read all the same.
 */
function readAgainIfSaved(pub: Publication, file: string, read: Map<string, EditionRead>): EditionRead {
  const id = path.resolve(file);
  const version = versionOf(file);
  const known = read.get(id);
  if (known?.by === pub.editions.by && known.version === version) return known;
  const got = readEditionFile(pub, file, version);
  read.set(id, got);
  return got;
}

/** One Markdown edition file: its key, front matter and body, or what is wrong with it. */
function readEditionFile(pub: Publication, file: string, version: string): EditionRead {
  const by = pub.editions.by;
  const read = { by, version };
  const field = KEY_FIELD[by];
  const text = readText(file);
  if ("problem" in text) return { ...read, problem: text.problem };
  const front = splitFrontMatter(text.text);
  if ("error" in front)
    return { ...read, problem: { file, field: "front matter", problem: front.error, fix: front.fix } };
  const pagination = paginationProblem(file, front.data);
  if (pagination) return { ...read, problem: pagination };
  const key = keyFromFrontMatter(by, front.data[field], () => meantKey(by, front.data, file));
  if ("problem" in key) return { ...read, problem: { file, field, ...keyProblem(key, front, field, file) } };
  return { ...read, edition: { key: key.key, file: file.split(path.sep).join("/"), ...front } };
}

type Said = { problem: string; fix: string };

/** A missing key, said as what is really wrong: no front matter at all, or the field under another case. */
function keyProblem(key: Said, front: FrontMatterSplit, field: string, file: string): Said {
  if (front.bodyLine === 1) {
    const problem = `has no front matter (a \`---\` line at the very top), so no \`${field}\``;
    return { problem, fix: `${key.fix}, between two \`---\` lines at the top of the file` };
  }
  const near = slippedKeyName(front.data, field);
  if (!near) return key;
  const line = lineOf(file, near);
  const at = `\`${near}\`${line ? ` (line ${line})` : ""}`;
  if (near.toLowerCase() === field)
    return {
      problem: `the front matter has ${at}, not \`${field}\`: names are lowercase`,
      fix: `write it as \`${field}\``,
    };
  const problem = `the front matter has ${at}, and no \`${field}\`: did you mean \`${field}\`?`;
  return { problem, fix: `rename it \`${field}\`: ${key.fix}` };
}

/**
 * The key an edition whose own is missing or wrong most likely means, for the fix to show: a slipped key's value
 * (`nubmer: 4`), or else the number or date its file is named with (part-7.md, 2026-11-22.md).
 */
function meantKey(by: EditionsBy, data: Record<string, unknown>, file: string): EditionKey | undefined {
  const slipped = slippedKeyName(data, KEY_FIELD[by]);
  const name = path.basename(file, path.extname(file));
  const named =
    by === "delivery_count" ? /^\D*(\d+)\D*$/.exec(name)?.[1] : /\d{4}-\d{2}-\d{2}(?:T\d{2})?/.exec(name)?.[0];
  const read = keyFromFrontMatter(by, keyValueOfText(by, slipped === undefined ? named : data[slipped]));
  return "key" in read ? read.key : undefined;
}

// Eleventy's data files (JSON, or JavaScript modules), and littlepress's rows (CSV, YAML).
const DATA_FILE = /\.(?:json|c?js|mjs|csv|ya?ml)$/;
// The data files Eleventy itself reads beside the editions: the editions folder's directory data.
const EDITIONS_DATA = /^editions(?:\.11tydata)?\.(?:json|c?js|mjs)$/;

/** A data file in an editions folder that nothing reads: anywhere but editions/editions.json (or .11tydata.*). */
function isIgnoredData(editionsDir: string, file: string): boolean {
  return DATA_FILE.test(file) && !EDITIONS_DATA.test(path.relative(editionsDir, file));
}

export const DATA_GOES =
  "put data for every publication in content/_data/ (`_data/haiku.json` is `{{ haiku }}`), " +
  "for this publication's editions in editions/editions.json, or for one edition in its front matter; " +
  "a list of editions goes in content/<slug>/editions.csv (or .json, .yaml) beside edition.md " +
  '(docs/data-and-recurring-editions.md: "Editions from data")';

function ignoredDataProblem(file: string): ContentProblem {
  const problem = "is not an edition, and littlepress does not read data files here";
  return { file, field: "", problem, fix: DATA_GOES };
}

// Text that reads like an edition but is not a `.md` file: nothing reads it (images here are read by the
// editions that show them; other files are the author's own). It was left out without a word: named instead.
const EDITION_LIKE = /\.(?:markdown|mdown|mkdn?|mdx|txt|text|liquid|njk|html?|webc)$|\.md$/i;

/** A text file in an editions folder that nothing reads, as `part-5.markdown` or `part-5.txt`. */
function isUnreadText(file: string): boolean {
  return !file.endsWith(".md") && EDITION_LIKE.test(file);
}

function unreadTextProblem(file: string): ContentProblem {
  const name = path.basename(file).replace(/\.[^.]+$/, ".md");
  const problem = `is not read: only \`.md\` files in the editions folder are editions, so it is never printed`;
  return { file, field: "", problem, fix: `rename it ${name} (or move it out of the editions folder)` };
}

/** The file's version now (fileVersion), or "gone". */
export function versionOf(file: string): string {
  const facts = statSync(file, { throwIfNoEntry: false });
  return facts ? fileVersion(facts) : "gone";
}
