// The two halves of verify after the build: the conformance checker on every
// publication the build produced, then the print preview of every edition.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { textFields, type ConfigField } from "../../lib/model/config-fields.ts";
import type { PublicationIndex } from "../../lib/model/shard.ts";
import type { Site } from "../../lib/build/site.ts";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import type { Report } from "../check/report.ts";
import { runCheck } from "../check/run-check.ts";
import type { Output } from "../cli.ts";
import { PreviewError } from "../preview/errors.ts";
import { preview } from "../preview/run.ts";
import { printWarnings, type SummaryRow } from "../preview/summary.ts";
import { checkWindow, describeWindow } from "./windows.ts";

/** What the print preview found for one publication. */
export interface PreviewNote {
  rows: SummaryRow[];
  /** Editions fetched with every set of settings a subscriber can have, and how many distinct pages they were. */
  variants?: number;
  pages?: number;
  /** Why no edition could be rendered at all (no Chromium, say). */
  error?: string;
}

export interface Verdict {
  slug: string;
  /** The deliveries the checker played, in words. */
  window: string;
  report: Report;
  preview?: PreviewNote;
  ok: boolean;
}

/** Every publication the build wrote an index for, by slug: what is served, whatever content/ holds. */
export async function builtPublications(site: string): Promise<PublicationIndex[]> {
  const data = siteDataDir(site);
  const dirs = (await readdir(data, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const read = async (slug: string) =>
    JSON.parse(await readFile(path.join(data, slug, "index.json"), "utf8")) as PublicationIndex;
  return Promise.all(dirs.map(read));
}

export async function checkPublications(
  site: string,
  base: string,
  o: { maxDays: number; timeoutMs: number },
  progress: (line: string) => void,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const index of await builtPublications(site)) {
    const window = checkWindow(index, o.maxDays);
    const described = describeWindow(index.by, window);
    progress(`checking ${index.slug}: ${described}`);
    const config = textDefaults(index.fields);
    const url = `${base}/${index.slug}/`;
    const report = await runCheck({ base: url, ...window, timeoutMs: o.timeoutMs, config, strict: true });
    verdicts.push({ slug: index.slug, window: described, report, ok: report.ok });
  }
  return verdicts;
}

/**
 * The author's own defaults for text fields: a value the publication surely
 * accepts, where the checker's sample name might not match a pattern.
 */
function textDefaults(fields: ConfigField[]): Record<string, string> {
  const withDefaults = textFields(fields).filter((f) => f.default !== undefined);
  return Object.fromEntries(withDefaults.map((f) => [f.name, f.default!]));
}

/**
 * Renders every edition with every set of settings a subscriber can have
 * (into `out`, which verify throws away; identical pages once) and adds what
 * it found to each verdict.
 */
export async function previewPublications(
  what: { built: Site; site: string; out: string; timeoutMs?: number },
  verdicts: Verdict[],
  o: Output,
): Promise<void> {
  o.stderr("verify: rendering every edition, with every subscriber setting, as the printer prints it\n");
  try {
    // No line per edition: a failed one is named in the summary.
    const result = await preview({ ...what, build: false });
    for (const v of verdicts) {
      const counts = result.publications.find((p) => p.slug === v.slug);
      v.preview = {
        rows: result.rows.filter((r) => r.slug === v.slug),
        ...(counts ? { variants: counts.variants, pages: counts.pages } : {}),
      };
    }
  } catch (error) {
    if (!(error instanceof PreviewError)) throw error;
    const message = `${error.message} (npm run verify -- --no-preview skips the preview)`;
    for (const v of verdicts) v.preview = { rows: [], error: message };
  }
  // verify is strict: what would not print as it shows (cut by the printer, relative URLs) fails too.
  for (const v of verdicts)
    v.ok &&=
      !v.preview?.error &&
      !v.preview?.rows.some((r) => r.error !== undefined) &&
      printWarnings(v.preview?.rows ?? []).length === 0;
}
