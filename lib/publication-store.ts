import { readFile } from "node:fs/promises";
import path from "node:path";
import { compileConfigValidator, type ConfigValidator } from "./config-validator.ts";
import type { Manifest } from "./manifest.ts";
import { DATA_DIR, publicationDataDir, SITE_INDEX, siteDir, type SiteIndex } from "./site-paths.ts";

/** A built publication as the functions use it: its manifest, its validator, its edition files. */
export interface PublishedPublication {
  manifest: Manifest;
  /** Compiled once per publication and process, never per request. */
  validate: ConfigValidator;
  /** Reads a prebuilt edition file (cached after the first read). */
  body(file: string): Promise<string>;
}

const SAFE_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;
const opened = new Map<string, Promise<PublishedPublication | undefined>>();

/**
 * Opens a built publication by slug ("" for the one at the site root);
 * undefined when the site has no such publication.
 */
export async function openPublication(slug: string, site = siteDir()): Promise<PublishedPublication | undefined> {
  if (slug === "") slug = (await readSiteIndex(site)).root ?? "";
  if (!SAFE_SLUG.test(slug)) return undefined;
  const id = `${site}\u0000${slug}`;
  let pending = opened.get(id);
  if (!pending) {
    pending = load(publicationDataDir(site, slug));
    opened.set(id, pending);
    // A publication missing now may be built later (a test, a rebuild): do not remember misses.
    pending.then((p) => p ?? opened.delete(id), () => opened.delete(id));
  }
  return pending;
}

async function readSiteIndex(site: string): Promise<SiteIndex> {
  try {
    return JSON.parse(await readFile(path.join(site, DATA_DIR, SITE_INDEX), "utf8")) as SiteIndex;
  } catch {
    return {};
  }
}

async function load(dir: string): Promise<PublishedPublication | undefined> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as Manifest;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  const bodies = new Map<string, Promise<string>>();
  return {
    manifest,
    validate: compileConfigValidator(manifest.fields),
    body(file) {
      let text = bodies.get(file);
      if (!text) bodies.set(file, (text = readFile(path.join(dir, file), "utf8")));
      return text;
    },
  };
}
