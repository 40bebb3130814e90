// A folder under content/ with no publication.json is no publication, but Eleventy, whose input the
// content folder is, still publishes its Markdown: `content/notes/ideas.md` became a plain page at
// /notes/ideas/, never an edition, without a word. Each such file is named with the fix. Only where the
// content folder is Eleventy's input (the starter's): a blog's own pages elsewhere are its own, and so
// is a folder of posts the plugin reads (its `posts` option).
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";
import { contentTree, isPublicationDir, listDirs, listFiles } from "./content-tree.ts";

/** The Markdown files in folders of `content` that are no publication: Eleventy's pages, not editions. */
export function strayPages(content: string, input: string, postsFolders: string[]): ContentProblem[] {
  if (path.resolve(content) !== path.resolve(input)) return [];
  const tree = contentTree(content, []);
  const posts = postsFolders.map((f) => path.resolve(f));
  const problems: ContentProblem[] = [];
  for (const name of listDirs(tree, content)) {
    const dir = path.join(content, name);
    if (posts.some((f) => f === path.resolve(dir) || f.startsWith(path.resolve(dir) + path.sep))) continue;
    // A publication, as site.ts takes one, is not walked: beside 1,000 editions that was a second walk a build.
    if (isPublicationDir(dir)) continue;
    const files = listFiles(tree, dir);
    // A publication (or one half made: editions without publication.json) is site.ts's to check.
    if (files.some((f) => /^(?:publication\.json|editions[/\\])/.test(path.relative(dir, f)))) continue;
    for (const file of files.filter((f) => f.endsWith(".md"))) problems.push(strayPage(content, name, file));
  }
  return problems;
}

function strayPage(content: string, name: string, file: string): ContentProblem {
  const url =
    "/" +
    path
      .relative(content, file)
      .split(path.sep)
      .join("/")
      .replace(/(?:\/?index)?\.md$/, "/");
  return {
    file,
    field: "",
    problem:
      `is published as a plain page at ${url}, not as an edition: ` +
      `${path.join(content, name)}/ has no publication.json, so it is no publication`,
    fix:
      `to make ${name} a publication, add ${path.join(content, name, "publication.json")} and move its editions ` +
      `into ${path.join(content, name, "editions")}/ (docs/writing-publications.md: "Writing a publication"); ` +
      "otherwise move the file out of the content folder",
  };
}
