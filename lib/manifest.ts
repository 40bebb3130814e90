import type { ConfigField } from "./config-fields.ts";
import { ContentError, type ContentProblem } from "./content-error.ts";
import type { EditionKey, EditionsBy } from "./edition-key.ts";
import { contentHash, editionEtag } from "./etag.ts";
import type { PublicationSource } from "./site.ts";
import { hasSlots, slotMisuse } from "./text-slots.ts";
import type { Variant, VariantId } from "./variants.ts";

/**
 * Everything the /edition/ and /validate_config/ functions know about one
 * publication, written by the build next to the prebuilt editions.
 */
export interface Manifest {
  format: 1;
  slug: string;
  by: EditionsBy;
  ends: boolean;
  charset: string;
  fields: ConfigField[];
  /** Every edition key, in order. */
  keys: EditionKey[];
  /** The edition shown at /sample/. */
  sample: EditionKey;
  /** For each key, the prebuilt copy of each variant. */
  editions: Record<EditionKey, Record<VariantId, PrebuiltEdition>>;
}

/** One rendered edition copy as the router serves it. */
export interface PrebuiltEdition {
  /** The HTML file, relative to the publication's data folder. Identical copies share one file. */
  file: string;
  /** Quoted ETag; for editions with text slots the router derives the subscriber's ETag from it. */
  etag: string;
  /** Whether the HTML has text slots to fill per request. */
  slots: boolean;
}

/** One page Eleventy rendered: which edition, which variant, where it was written, and the HTML. */
export interface RenderedEdition {
  source: string;
  key: EditionKey;
  variant: Variant;
  file: string;
  html: string;
}

/**
 * Builds a publication's manifest from its rendered editions. Identical HTML is
 * stored once: `duplicates` lists the written files the manifest no longer needs.
 */
export function buildManifest(pub: PublicationSource, renders: RenderedEdition[]): { manifest: Manifest; duplicates: string[] } {
  const problems: ContentProblem[] = [];
  const editions: Manifest["editions"] = Object.create(null);
  const fileByHash = new Map<string, string>();
  const duplicates: string[] = [];
  for (const r of renders) {
    for (const problem of slotMisuse(r.html, pub.fields)) problems.push({ file: r.source, field: "config", problem, fix: "see “Text settings in templates” in the README" });
    const hash = contentHash(r.html);
    const shared = fileByHash.get(hash);
    if (shared === undefined) fileByHash.set(hash, r.file);
    else duplicates.push(r.file);
    (editions[r.key] ??= Object.create(null) as Record<VariantId, PrebuiltEdition>)[r.variant.id] = {
      file: shared ?? r.file,
      etag: editionEtag(r.key, r.variant.id, r.html),
      slots: hasSlots(r.html),
    };
  }
  if (problems.length) throw new ContentError(dedupe(problems));
  const manifest: Manifest = {
    format: 1,
    slug: pub.slug,
    by: pub.editions.by,
    ends: pub.editions.ends,
    charset: pub.charset,
    fields: pub.fields,
    keys: pub.editions.list.map((e) => e.key),
    sample: pub.sampleKey,
    editions,
  };
  return { manifest, duplicates };
}

function dedupe(problems: ContentProblem[]): ContentProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.file + p.problem) && seen.add(p.file + p.problem));
}
