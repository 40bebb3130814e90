// A front-matter key a letter or two away from one littlepress reads (`titel`,
// `nubmer`, `dat`, `psuh`) is almost always a slip, and it is silent: the
// edition prints without its heading, or is not pushed. Keys of an author's
// own are fine, and so is a near name the edition itself uses ({{ dat }}).
import { readFileSync } from "node:fs";
import type { ContentProblem } from "../model/content-error.ts";
import { KEY_FIELD } from "../model/front-matter-key.ts";
import { nearNames } from "../model/near-miss.ts";
import type { EditionSource, PublicationSource } from "./site.ts";

/** What the edition loses when littlepress does not find each key it reads. */
const READ_KEYS: Record<string, string> = {
  title: "the edition prints without its heading",
  lang: "the page keeps the publication's language",
  push: "the edition is not a push edition",
  ...Object.fromEntries(Object.values(KEY_FIELD).map((k) => [k, "the edition has no key of that kind"])),
};

/** One warning per slip: a Markdown file's key by its line, a data file's column once. */
export function frontMatterSlips(pub: PublicationSource): ContentProblem[] {
  const said = new Map<string, ContentProblem>();
  // Rows of a data file share their columns: each name is compared with the keys once.
  const near = new Map<string, string[]>();
  for (const { file, data, body } of marks(pub.editions.list)) {
    for (const key of Object.keys(data)) {
      if (key in READ_KEYS) continue;
      if (!near.has(key)) near.set(key, nearNames(key, Object.keys(READ_KEYS)));
      const meant = near.get(key)!.find((k) => !(k in data));
      if (!meant || new RegExp(`\\b${escapeRegExp(key)}\\b`).test(body)) continue;
      // A data file's rows share their columns: the file and its first such row, once.
      const where = file.replace(/ row \d+.*$/, "");
      if (said.has(`${where}\u0000${key}`)) continue;
      said.set(`${where}\u0000${key}`, slip(file, key, meant));
    }
  }
  return [...said.values()];
}

/** Each front matter (or data row) of the editions, with the file it is in and the text it renders. */
function marks(editions: EditionSource[]): { file: string; data: Record<string, unknown>; body: string }[] {
  return editions.flatMap((e) =>
    (e.parts ?? [e]).map((m) => ({ file: "origin" in m && m.origin ? m.origin : m.file, data: m.data, body: m.body })),
  );
}

function slip(file: string, key: string, meant: string): ContentProblem {
  const line = lineOf(file, key);
  return {
    file,
    field: key,
    problem:
      `\`${key}\`${line ? ` (line ${line})` : ""} is no key littlepress reads, and the edition does not use it: ` +
      `did you mean \`${meant}\`? As written, ${READ_KEYS[meant]}`,
    fix: `rename it \`${meant}\`; a key of your own is fine once an edition uses it ({{ ${key} }})`,
  };
}

/** The line of `key:` in a Markdown file's front matter (undefined for a data row, or a file that cannot be read). */
export function lineOf(file: string, key: string): number | undefined {
  if (!file.endsWith(".md")) return undefined;
  try {
    const lines = readFileSync(file, "utf8").split("\n");
    const at = lines.findIndex((l, i) => i > 0 && new RegExp(`^${escapeRegExp(key)}\\s*:`).test(l));
    return at < 0 ? undefined : at + 1;
  } catch {
    return undefined; // the warning still names the file and the key
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
