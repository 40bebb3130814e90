// What kind of project the commands are run in (lib/build/eleventy-config-file.ts):
// the starter (its .eleventy.js over content/<slug>/publication.json) is built
// with --content; anything else by its own Eleventy config, whatever its folders
// are called (a blog whose input is content/); and a folder with neither is said.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eleventyConfigFile, nothingToBuild, starterContent } from "../../lib/build/eleventy-config-file.ts";
import { contentFolders } from "../helpers/content-folder.ts";

const folders = contentFolders("project-kind-");
afterAll(folders.remove);

const publication = { name: "P", description: "D", owner_email: "p@example.com", editions: { by: "local_date" } };

describe("the kind of project", () => {
  it("is the starter when its .eleventy.js builds a content/ of publications", () => {
    const dir = folders.content({
      ".eleventy.js": "export default function () {}\n",
      "content/paper/publication.json": publication,
    });
    expect(starterContent(dir)).toBe("content");
    expect(nothingToBuild(dir)).toBeUndefined();
  });

  it("is a blog built by its own config when content/ is only its input (eleventy-base-blog's)", () => {
    const blog = folders.content({
      "eleventy.config.js": "export default function () {}\n",
      "content/blog/firstpost.md": "---\ndate: 2026-03-02\n---\nHi\n",
      "content/index.njk": "Home\n",
    });
    expect(eleventyConfigFile(blog)).toBe("eleventy.config.js");
    expect(starterContent(blog)).toBeUndefined();
    expect(nothingToBuild(blog)).toBeUndefined();
    // An older blog's .eleventy.js over a content/ of posts is no starter either.
    const older = folders.content({
      ".eleventy.js": "export default function () {}\n",
      "content/posts/firstpost.md": "---\ndate: 2026-03-02\n---\nHi\n",
    });
    expect(starterContent(older)).toBeUndefined();
    // A config of another name over publications: its own config builds them (--content would not find it).
    const renamed = folders.content({
      "eleventy.config.mjs": "export default function () {}\n",
      "content/paper/publication.json": publication,
    });
    expect(starterContent(renamed)).toBeUndefined();
  });

  it("with neither publications nor a config, says where it looked and what to do", () => {
    const empty = folders.content({ "content/notes.txt": "not a publication" });
    const said = nothingToBuild(empty)!;
    expect(said).toContain(`found no publications in ${path.resolve(empty)}: no content/<slug>/publication.json`);
    expect(said).toContain("no Eleventy config file (.eleventy.js, eleventy.config.js");
    expect(said).toMatch(/\n {2}fix: .*littlepress plugin.*--content <dir>$/);
  });
});
