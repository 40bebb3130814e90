// The desk: the site's own pages, where authors see their publications as the
// platform will (home at /, one page per publication at /<slug>/), added to
// Eleventy as templates of the package's layouts/desk/.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { EleventyConfig } from "@11ty/eleventy";
import { DESK_MODEL_FILE, deskPublication } from "./desk.ts";
import { deskModelScript } from "./desk-model.ts";
import { packageFile } from "./package-files.ts";
import type { Site } from "./site.ts";

/**
 * The desk's pages, its assets and the model's rules its scripts import; `home` adds its home page at /.
 * Returns the pages' URLs: their icons are the site's built files, which no image transform of the site's
 * (eleventy-img's, looking for them in the input folder) is to touch.
 */
export function addDesk(eleventyConfig: EleventyConfig, site: Site, home: boolean): Set<string> {
  const desk = site.publications.map((p) => deskPublication(p, site.root));
  const template = (name: string) => readFileSync(packageFile("layouts", "desk", name), "utf8");
  // Desk pages set their own layout and permalink over the editions' global ones.
  const own = { layout: false, eleventyExcludeFromCollections: true };
  if (home)
    eleventyConfig.addTemplate("_desk/home.njk", template("home.njk"), { ...own, desk, permalink: "/index.html" });
  eleventyConfig.addTemplate("_desk/publication.njk", template("publication.njk"), {
    ...own,
    desk,
    pagination: { data: "desk", size: 1, alias: "pub" },
    eleventyComputed: { permalink: (data: { pub: { slug: string } }) => `/${data.pub.slug}/index.html` },
  });
  // The folder as one copy (a glob would copy file by file, still at work when a failed build is removed);
  // model.d.ts is for the type checker only.
  // Eleventy copies from paths relative to the project: the package's, wherever it is installed.
  const assets = path.relative(".", packageFile("layouts", "desk", "assets"));
  eleventyConfig.addPassthroughCopy({ [assets]: "_desk" }, { filter: ["**", "!**/*.d.ts"] });
  // Beside them, the model's rules that the desk's scripts import as ./model.js:
  // a page of Eleventy's own, so it is written with the others, in the same build.
  eleventyConfig.addTemplate(
    "_desk/littlepress-desk-model.11ty.js",
    { render: deskModelScript },
    { ...own, permalink: `/${DESK_MODEL_FILE}` },
  );
  // Print previews made by `npm run preview` (preview/<slug>/), shown on each publication's page.
  for (const pub of site.publications)
    eleventyConfig.addPassthroughCopy({ [`preview/${pub.slug}`]: `${pub.slug}/preview` });
  return new Set([...(home ? ["/"] : []), ...site.publications.map((p) => `/${p.slug}/`)]);
}
