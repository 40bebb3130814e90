// Eleventy configuration: a table of contents. The work is in the littlepress
// plugin (lib/build/eleventy-plugin.ts), which calls the publication model in lib/model/.
// The plugin is imported as a site imports it, by the package's name: the
// compiled one (dist/). Run by `npm run build` (tsx), the build has added the
// plugin of the TypeScript source first, and Eleventy skips the second one (it
// is unique by name); run compiled, as the tests' child processes run, the two are one.
import path from "node:path";
import littlepress from "littlepress";

/**
 * The content folder: content/<slug>/publication.json and content/<slug>/editions/*.md.
 * `npm run build` (lib/build/build.ts) gives Eleventy its own as the input
 * (`--content`, the tests' fixtures); Eleventy run by itself starts from the
 * project, "./", and builds content/.
 */
function contentFolder(eleventyConfig) {
  const input = eleventyConfig.directories.input;
  return input && path.resolve(input) !== path.resolve(".") ? path.relative(".", input) : "content";
}

export default function (eleventyConfig) {
  const content = contentFolder(eleventyConfig);
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
