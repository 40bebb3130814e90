// Eleventy configuration: a table of contents. The work is in the littlepress
// plugin (scripts/eleventy-plugin.ts), which calls the publication model in lib/.
// Run it through `npm run build`, which loads the TypeScript modules with tsx.
import path from "node:path";
import littlepress from "./lib/build/eleventy-plugin.ts";

// content/<slug>/publication.json and content/<slug>/editions/*.md
const content = process.env.LITTLEPRESS_CONTENT ?? "content";

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(littlepress, { content });
  // The input is content/ alone; tests build fixtures from git-ignored folders.
  eleventyConfig.setUseGitIgnore(false);

  return {
    // layouts/ holds the print page and its CSS (included into the page's CSS bundle).
    dir: { input: content, includes: path.relative(content, "layouts") },
    markdownTemplateEngine: "liquid",
    htmlTemplateEngine: "liquid",
  };
}
