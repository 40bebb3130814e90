// Eleventy configuration: a table of contents. The publications are the
// folders of content/; the littlepress plugin checks them and prebuilds every
// edition, and layouts/ holds the print page (restyle it as you like).
// `npm run build` and `npm start` run Eleventy with this file.
import path from "node:path";
import littlepress from "littlepress";

/**
 * The content folder: `littlepress build --content <folder>` gives Eleventy its
 * own as the input; Eleventy run by itself starts from the project, "./", and
 * builds content/.
 */
function contentFolder(eleventyConfig) {
  const input = eleventyConfig.directories.input;
  return input && path.resolve(input) !== path.resolve(".") ? path.relative(".", input) : "content";
}

export default function (eleventyConfig) {
  const content = contentFolder(eleventyConfig);
  eleventyConfig.addPlugin(littlepress, { content });

  return {
    // layouts/ holds the print page and its CSS (included into the page's CSS bundle).
    dir: { input: content, includes: path.relative(content, "layouts") },
    markdownTemplateEngine: "liquid",
    htmlTemplateEngine: "liquid",
  };
}
