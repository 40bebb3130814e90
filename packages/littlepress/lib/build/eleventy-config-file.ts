// Which Eleventy configuration file a project has: `npm run build` without
// --content builds a site by its own config, and the plugin's messages about
// its options name that file.
import { existsSync } from "node:fs";
import path from "node:path";

/** Eleventy's own names for its configuration file, in the order Eleventy looks for them. */
export const ELEVENTY_CONFIG_FILES = [
  ".eleventy.js",
  "eleventy.config.js",
  "eleventy.config.mjs",
  "eleventy.config.cjs",
];

/** The project's Eleventy configuration file (relative to `dir`, as named there), or undefined when it has none. */
export function eleventyConfigFile(dir = "."): string | undefined {
  return ELEVENTY_CONFIG_FILES.find((name) => existsSync(path.join(dir, name)));
}
