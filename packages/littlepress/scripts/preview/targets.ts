// Which editions to preview, and the /edition/ URL that asks for each one the
// way the platform would. The publications and their edition keys come from
// the content through the publication model (lib/build/site.ts), the same reading
// the build starts from; the pages themselves come from the built site.
import type { ConfigField } from "../../lib/model/config-fields.ts";
import type { EditionKey, EditionsBy } from "../../lib/model/edition-key.ts";
import { findContentError } from "../../lib/model/content-error.ts";
import { loadSite, type Site } from "../../lib/build/site.ts";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { publicationDataDir, siteDataDir } from "../../lib/model/site-paths.ts";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PreviewError } from "./errors.ts";
import type { PrintHeader } from "./sirius-page.ts";

/** What the preview needs to know of a publication. */
export interface PublicationEditions {
  /** The publication's name: the `from` its prints carry. */
  name: string;
  by: EditionsBy;
  /** Every edition key, in order. */
  keys: EditionKey[];
  /** The subscriber settings (every value a subscriber can pick is previewed). */
  fields: ConfigField[];
  /** Where each edition is written (its Markdown file, or its data row), when the content was read. */
  files?: Record<EditionKey, string>;
}

export interface Target {
  slug: string;
  name: string;
  by: EditionsBy;
  /** The editions to render, in the publication's order. */
  keys: EditionKey[];
  /** Every edition of the publication (to tell which older previews are stale). */
  allKeys: EditionKey[];
  fields: ConfigField[];
  files?: Record<EditionKey, string>;
}

/** The publications under `content`, by slug, sorted by slug. */
export function readPublications(content: string): Map<string, PublicationEditions> {
  let site;
  try {
    site = loadSite(content);
  } catch (error) {
    const problems = findContentError(error);
    throw new PreviewError(
      problems
        ? problems.message
        : `cannot read the publications in ${content}/: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (site.publications.length === 0)
    throw new PreviewError(
      `there are no publications in ${content}/ (each is a folder <slug>/ with publication.json and editions/)`,
    );
  return publicationsOf(site);
}

/**
 * The publications of a site already built (a blog's, built by its own config,
 * has no content/ to read them from), by slug: from the functions' data beside
 * it, as the server reads them, and their names from meta.json.
 */
export async function builtPublications(site: string): Promise<Map<string, PublicationEditions>> {
  const data = siteDataDir(site);
  const slugs = existsSync(data)
    ? readdirSync(data, { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(path.join(publicationDataDir(site, d.name), "index.json")))
        .map((d) => d.name)
        .sort()
    : [];
  if (slugs.length === 0)
    throw new PreviewError(
      `there are no built publications in ${site}/ (looked for ${data}/<slug>/index.json): ` +
        "build the site first (npx littlepress build), or leave out --no-build",
    );
  const publications = new Map<string, PublicationEditions>();
  for (const slug of slugs) {
    const pub = await openPublication(slug, path.resolve(site));
    if (!pub) continue;
    const keys: EditionKey[] = [];
    for await (const { key } of eachEdition(pub)) if (keys.at(-1) !== key) keys.push(key);
    const meta = JSON.parse(readFileSync(path.join(site, slug, "meta.json"), "utf8")) as { name: string };
    publications.set(slug, { name: meta.name, by: pub.index.by, keys, fields: pub.index.fields });
  }
  return publications;
}

/** A site's publications (as a build read them), by slug, sorted by slug. */
export function publicationsOf(site: Site): Map<string, PublicationEditions> {
  const sorted = [...site.publications].sort((a, b) => a.slug.localeCompare(b.slug));
  return new Map(
    sorted.map((p) => [
      p.slug,
      {
        name: p.name,
        by: p.editions.by,
        keys: p.editions.list.map((e) => e.key),
        fields: p.fields,
        files: Object.fromEntries(p.editions.list.map((e) => [e.key, e.origin ?? e.file])),
      },
    ]),
  );
}

/** The editions to render: every edition of `slugs` (all publications when empty), or only `edition`. */
export function chooseTargets(
  publications: Map<string, PublicationEditions>,
  slugs: string[],
  edition?: string,
): Target[] {
  const known = [...publications.keys()];
  if (known.length === 0) throw new PreviewError("there are no publications to preview");
  const unknown = slugs.filter((s) => !publications.has(s));
  if (unknown.length) {
    const names = unknown.map((s) => `"${s}"`).join(", ");
    throw new PreviewError(`there is no publication ${names}; the publications are: ${known.join(", ")}`, true);
  }
  const chosen = slugs.length ? [...new Set(slugs)] : known;
  const targets = chosen.map((slug) => {
    const m = publications.get(slug)!;
    return {
      slug,
      name: m.name,
      by: m.by,
      keys: edition === undefined ? m.keys : m.keys.filter((k) => k === edition),
      allKeys: m.keys,
      fields: m.fields,
      ...(m.files ? { files: m.files } : {}),
    };
  });
  if (edition === undefined) return targets;
  const found = targets.filter((t) => t.keys.length);
  if (found.length === 0) {
    const examples = targets.map((t) => `${t.slug}: ${describeKeys(t.allKeys)}`).join("; ");
    throw new PreviewError(`no chosen publication has an edition "${edition}" (${examples})`, true);
  }
  return found;
}

function describeKeys(keys: EditionKey[]): string {
  if (keys.length <= 3) return keys.join(", ");
  return `${keys[0]}, ${keys[1]} … ${keys.at(-1)}`;
}

/** The delivery time the preview asks a dated edition for: in its hour, or at 06:00 of its day (UTC). */
const deliveryTime = (by: EditionsBy, key: EditionKey) => (by === "utc_hour" ? `${key}:00:00Z` : `${key}T06:00:00Z`);

/**
 * The query the platform sends for an edition: delivery_count,
 * or a local_delivery_time inside the edition's day or hour.
 */
export function editionQuery(by: EditionsBy, key: EditionKey): string {
  // Keys are digits, dates or dated hours: nothing in them needs escaping.
  if (by === "delivery_count") return `delivery_count=${key}`;
  return `local_delivery_time=${deliveryTime(by, key)}`;
}

/**
 * The header sirius prints above the edition: a dated edition as delivered at
 * the time it is asked for; a numbered one, which has no date, as sent at `now`.
 */
export function printHeader(target: Pick<Target, "name" | "by">, key: EditionKey, now: Date): PrintHeader {
  if (target.by === "delivery_count") return { at: now, from: target.name };
  return { at: new Date(deliveryTime(target.by, key)), from: target.name, timeZone: "UTC" };
}

/** The /edition/ URL of one edition, with a subscriber's settings as the platform sends them. */
export function editionUrl(
  base: string,
  slug: string,
  by: EditionsBy,
  key: EditionKey,
  settings: Record<string, string> = {},
): string {
  const values = new URLSearchParams(settings).toString();
  return `${base}/${slug}/edition/?${editionQuery(by, key)}${values ? `&${values}` : ""}`;
}
