// `littlepress build` runs Eleventy once and exits, so it turns off Eleventy's ES
// module cache-buster (scripts/cli.ts's eleventyRunsOnce): it serves only
// Eleventy's --watch and --serve, and on Node 20 it sent every import of the
// build through a loader thread. The author's own setting wins. The project's
// config records what Eleventy was started with, in the real command's process.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { BUILD_TESTS_MS, buildProject, PLUGIN, writeProject } from "../helpers/blog-project.ts";

const ROOT = path.join(".test-work", `one-off-build-${process.pid}`);
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

function writeSite(name: string): string {
  return writeProject(path.join(ROOT, name), {
    "eleventy.config.js":
      `import { writeFileSync } from "node:fs";\n` +
      `import littlepress from ${JSON.stringify(PLUGIN)};\n` +
      "export default function (eleventyConfig) {\n" +
      '  writeFileSync("switch.json", JSON.stringify(process.env.ELEVENTY_SKIP_ESM_RESOLVER ?? null));\n' +
      '  eleventyConfig.addPlugin(littlepress, { content: "content" });\n' +
      "}\n",
    "content/daily/publication.json": JSON.stringify({
      name: "Daily",
      description: "One a day.",
      owner_email: "me@example.com",
      delivered_on: "Every morning",
      editions: { by: "delivery_count" },
    }),
    "content/daily/editions/0.md": "---\nnumber: 0\n---\nHello.\n",
  });
}

const recorded = (dir: string) => JSON.parse(readFileSync(path.join(dir, "switch.json"), "utf8")) as unknown;

it(
  "builds with Eleventy's cache-buster off",
  async () => {
    const dir = writeSite("plain");
    const { code, output } = await buildProject(dir, {});
    expect(code, output).toBe(0);
    expect(recorded(dir)).toBe("1");
  },
  BUILD_TESTS_MS,
);

it(
  "keeps the author's own setting of the switch",
  async () => {
    const dir = writeSite("author");
    const { code, output } = await buildProject(dir, { ELEVENTY_SKIP_ESM_RESOLVER: "" });
    expect(code, output).toBe(0);
    expect(recorded(dir)).toBe("");
  },
  BUILD_TESTS_MS,
);
