// What the littlepress plugin is given, and the settings it works with: its
// options from the Eleventy config, with one run's over them (a build, npm
// start's rebuild), each with its default. Every part of the plugin reads
// these settings, and only these.
import type { EleventyConfig } from "@11ty/eleventy";
import type { PostsPublication } from "./blog-posts.ts";
import type { RenderMemory } from "./render-memory.ts";
import { BUNDLE_BUDGET_BYTES } from "./shard-placement.ts";
import type { Site } from "./site.ts";

/** What the plugin is given: by `.eleventy.js`, or by `npm run build` and `npm start` for one run. */
export interface LittlepressOptions {
  /** The folder of publications (content/<slug>/publication.json …); a blog adding `posts` needs none. */
  content?: string;
  /**
   * Publications made from a folder of the site's Markdown posts, by date or as a
   * numbered serial (lib/build/blog-posts.ts, and docs/eleventy-plugin.md: "Posts as a publication"). The posts stay
   * pages of the site; their editions are rendered in the print layout.
   */
  posts?: PostsPublication[];
  /** Print warnings fail the build (`npm run build -- --strict`). */
  strict?: boolean;
  /**
   * The pages of earlier builds in this process (`npm start`): a page whose
   * inputs are unchanged is taken from here instead of being rendered again.
   */
  memory?: RenderMemory;
  /** The site's address where content/site.json and publication.json give none (Netlify's, or a local server's). */
  url?: string;
  /**
   * A build to deploy (`npm run build`): images linked to the assumed local
   * address, for want of a `url`, are warned about. Builds for a local server
   * (`npm start`, verify, preview) are served at the address they were given.
   */
  deploy?: boolean;
  /** Shard bytes the function bundle may carry (default BUNDLE_BUDGET_BYTES; tests give a tiny one). */
  bundleBudget?: number;
  /** The build date, "YYYY-MM-DD": where open-ended recurring editions start (default: today, UTC). */
  today?: string;
  /** Told the publications the plugin read, once read: how `build()` (lib/build/build.ts) resolves to them. */
  built?: (site: Site) => void;
}

/** The options one run (a build, npm start's rebuild) sets over the config file's. */
export type RunSettings = Omit<LittlepressOptions, "content" | "posts">;

/** The plugin's settings: its options with their defaults. */
export type PluginSettings = LittlepressOptions &
  Required<Pick<LittlepressOptions, "strict" | "deploy" | "bundleBudget">>;

/**
 * The event by which a build hands its run's settings to the plugin, whichever
 * config added it (Eleventy's own event bus: eleventyConfig.on and emit). A
 * project's config adds the plugin with the options it knows; the command
 * that runs Eleventy knows the run's.
 */
const RUN_EVENT = "littlepress.run";

/** Hands `run` to the plugin of this Eleventy config (build.ts, before the config file runs). */
export function giveRunSettings(eleventyConfig: EleventyConfig, run: RunSettings): void {
  eleventyConfig.on(RUN_EVENT, (take: (run: RunSettings) => void) => take(run));
}

/** The plugin's settings: the config's options, the run's over them (when a build gave some), and the defaults. */
export async function pluginSettings(
  eleventyConfig: EleventyConfig,
  options: LittlepressOptions,
): Promise<PluginSettings> {
  let run: RunSettings = {};
  await eleventyConfig.emit(RUN_EVENT, (given: RunSettings) => (run = given));
  const { strict = false, deploy = false, bundleBudget = BUNDLE_BUDGET_BYTES, ...rest } = { ...options, ...run };
  return { strict, deploy, bundleBudget, ...rest };
}
