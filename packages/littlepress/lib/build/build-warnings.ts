// The build's warnings: print checks on every rendered edition, its estimated
// length, each description, front-matter slips, settings that change
// nothing and gaps in a finite serial; printed, or with `--strict` failing the build.
import { ContentError, formatWarnings, uniqueProblems, type ContentProblem } from "../model/content-error.ts";
import { inertSettings } from "../model/setting-effects.ts";
import { lengthWarnings } from "./edition-length.ts";
import { frontMatterSlips } from "./front-matter-slips.ts";
import type { RenderedEdition } from "./pack.ts";
import { descriptionWarnings, PrintChecker } from "./print-checks.ts";
import type { Sources } from "./publication-sources.ts";
import type { Remember } from "./render-memory.ts";
import { serialGaps } from "./serial-gaps.ts";
import type { PublicationSource, Site } from "./site.ts";

/** Print checks on every rendered edition (once per file), its estimated length, and each description. */
export function buildWarnings(
  site: Site,
  rendered: Map<string, RenderedEdition[]>,
  sources: Sources,
  remember: Remember,
): ContentProblem[] {
  const warnings: ContentProblem[] = site.publications.flatMap((p) =>
    descriptionWarnings(p.description, sources.get(p.slug)!.settingsFile),
  );
  const checker = new PrintChecker();
  const pages = [...rendered.values()].flat();
  for (const r of pages) warnings.push(...checker.check(r.html, r.source, remember));
  // Editions the printer would cut, by a layout measure (verify and preview measure them in sirius's browser).
  warnings.push(...lengthWarnings(pages, remember));
  for (const pub of site.publications) {
    warnings.push(...frontMatterSlips(pub));
    warnings.push(...serialGaps(pub));
    warnings.push(...settingWarnings(pub, rendered.get(pub.slug) ?? [], sources.get(pub.slug)!.settingsFile));
  }
  return uniqueProblems(warnings);
}

/** A setting that changes nothing on paper (setting-effects.ts), named in the file that defines it. */
function settingWarnings(pub: PublicationSource, pages: RenderedEdition[], file: string): ContentProblem[] {
  return inertSettings(pub.fields, pages).map(({ field, why }) => {
    const read = field.type === "text" ? `{{ config.${field.name} }}` : `{% if config.${field.name} == "…" %}`;
    return {
      file,
      field: `config.fields: ${field.name}`,
      problem: `the setting \`${field.name}\` changes nothing: ${why}`,
      fix:
        `have an edition read it (${read}), ` +
        "check that the editions spell its name as publication.json does, or remove the setting",
    };
  });
}

/** Warnings are printed; with `npm run build -- --strict` they fail the build. */
export function reportWarnings(warnings: ContentProblem[], strict: boolean) {
  if (!warnings.length) return;
  if (strict) throw new ContentError(warnings);
  console.warn(formatWarnings(warnings));
}
