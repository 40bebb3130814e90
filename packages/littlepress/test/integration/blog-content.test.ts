// A blog whose Eleventy input is the whole project ("."), with a folder of
// publications beside its pages (`addPlugin(littlepress, { content: "content" })`)
// and a folder its config passes through. Built by the real `littlepress build` in
// the blog's folder (its own config), in a process of its own.
// - The publication's directory data (`content/<slug>/<slug>.11tydata.js`,
//   `editions/editions.json`) is its editions' data, as in the starter.
// - A build that fails while Eleventy still copies the passed-through files says
//   the build's own problem, never Eleventy's stack trace, and leaves the last
//   good site with nothing half made beside it. (Eleventy 3.1 does not await its
//   copies once a template or a data file has failed, and a copy failing then
//   ended the process.)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { BUILD_TESTS_MS, buildProject, PLUGIN, writeProject } from "../helpers/blog-project.ts";

const ROOT = path.join(".test-work", `blog-content-${process.pid}`);
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const config = (passthrough: string) => `import littlepress from ${JSON.stringify(PLUGIN)};

export default function (eleventyConfig) {
  eleventyConfig.addPassthroughCopy(${passthrough});
  eleventyConfig.addPlugin(littlepress, { content: "content" });
  return { dir: { input: ".", includes: "_includes" } };
}
`;

/** The blog: its home page, its assets (many files: copying them takes a while), and one publication. */
function writeBlog(name: string, files: Record<string, string> = {}): string {
  const all: Record<string, string> = {
    "eleventy.config.js": config(`{ assets: "assets" }`),
    "index.njk": "<!doctype html><title>My blog</title><p>Welcome.</p>\n",
    "content/almanac/publication.json": JSON.stringify({
      name: "The Almanac",
      description: "A fact a day.",
      owner_email: "me@example.com",
      delivered_on: "Every morning",
      editions: { by: "delivery_count" },
    }),
    "content/almanac/almanac.11tydata.js": 'export default () => ({ fact: "Tides follow the moon." });\n',
    "content/almanac/editions/editions.json": JSON.stringify({ kicker: "Today's fact" }),
    "content/almanac/editions/0.md": "---\nnumber: 0\ntitle: Number one\n---\n{{ kicker }}: {{ fact }}\n",
    ...files,
  };
  for (let i = 0; i < 600; i++) all[`assets/file-${i}.txt`] = `asset ${i}\n`;
  return writeProject(path.join(ROOT, name), all);
}

async function editions(dir: string): Promise<string[]> {
  const pub = await openPublication("almanac", path.resolve(dir, "_site"));
  const html: string[] = [];
  for await (const e of eachEdition(pub!)) html.push(e.html);
  return html;
}

/** The blog's build folders: only the site and its functions' data once a build has ended. */
const buildFolders = (dir: string) => readdirSync(dir).filter((f) => f.startsWith("_site"));

describe("a blog with a content folder of publications and files passed through", { timeout: BUILD_TESTS_MS }, () => {
  it("gives the editions the publication's directory data, keeps the blog's home, copies its files", async () => {
    const dir = writeBlog("data");
    const built = await buildProject(dir);
    expect(built, built.output).toMatchObject({ code: 0 });
    const [edition, ...others] = await editions(dir);
    expect(others).toEqual([]);
    expect(edition).toContain("Today's fact: Tides follow the moon.");
    expect(readFileSync(path.join(dir, "_site/assets/file-599.txt"), "utf8")).toBe("asset 599\n");
    // The blog's home page stays its own (the desk's home is a starter's); the publication has its desk page.
    expect(readFileSync(path.join(dir, "_site/index.html"), "utf8")).toContain("<title>My blog</title>");
    expect(readFileSync(path.join(dir, "_site/almanac/index.html"), "utf8")).toContain("The Almanac");
  });

  it("a data file that throws while files are being copied: its problem, no stack, the last site kept", async () => {
    const dir = writeBlog("throws");
    expect((await buildProject(dir)).code).toBe(0);
    const before = await editions(dir);
    writeFileSync(
      path.join(dir, "content/almanac/almanac.11tydata.js"),
      'export default () => {\n  throw new Error("set ALMANAC_KEY to the almanac service\'s key");\n};\n',
    );
    // Each time, the copies are at a different point when the data file throws.
    for (let attempt = 0; attempt < 2; attempt++) {
      const failed = await buildProject(dir);
      expect(failed.code, failed.output).toBe(1);
      expect(failed.output).toMatch(/^littlepress found 1 problem in your content:\n {2}content\/almanac\/almanac/);
      expect(failed.output).toContain("set ALMANAC_KEY to the almanac service's key");
      expect(failed.output).not.toMatch(/TemplatePassthrough|\n\s+at /);
      expect(buildFolders(dir).sort()).toEqual(["_site", "_site_data"]);
      expect(await editions(dir)).toEqual(before);
    }
  });

  it("a page of the blog's own where the publication's desk page goes: both named, and what to do", async () => {
    const dir = writeBlog("clash", { "almanac.njk": "---\npermalink: /almanac/index.html\n---\nMy almanac page\n" });
    const failed = await buildProject(dir);
    expect(failed.code, failed.output).toBe(1);
    expect(failed.output).toMatch(/^The build failed:\n {2}Output conflict: .*`\.\/_site\.next\/almanac\/index\.html`/);
    expect(failed.output).toContain("./almanac.njk");
    expect(failed.output).toContain(
      "fix: give one of the files named above a permalink of its own; littlepress's desk has /<slug>/index.html",
    );
    expect(buildFolders(dir)).toEqual([]);
  });

  it("a copy that fails: which one, and what to correct in the config; no stack, the last site kept", async () => {
    const dir = writeBlog("copy");
    expect((await buildProject(dir)).code).toBe(0);
    const before = await editions(dir);
    writeFileSync(path.join(dir, "eleventy.config.js"), config(`{ assets: "../elsewhere/assets" }`));
    const failed = await buildProject(dir);
    expect(failed.code, failed.output).toBe(1);
    expect(failed.output).toBe(
      "The build failed:\n" +
        "  Having trouble copying './assets'\n" +
        "  Error copying passthrough files: Destination is not in the site output directory. " +
        "Check your passthrough paths.\n" +
        "  fix: correct the Eleventy config's addPassthroughCopy of ./assets: its files must exist and be " +
        "readable, and its destination must be inside the site's output folder\n",
    );
    expect(buildFolders(dir).sort()).toEqual(["_site", "_site_data"]);
    expect(existsSync(path.join(dir, "..", "elsewhere"))).toBe(false);
    expect(await editions(dir)).toEqual(before);
  });
});
