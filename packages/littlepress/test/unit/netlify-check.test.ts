// `littlepress build` under a netlify.toml that would not deploy what it built (lib/server/netlify-check.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { netlifyMismatches } from "../../lib/server/netlify-check.ts";
import { STARTER_NETLIFY_CONFIG } from "../../lib/server/netlify-config.ts";

const root = mkdtempSync(path.join(tmpdir(), "netlify-check-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const starter = readFileSync(STARTER_NETLIFY_CONFIG, "utf8");
const withToml = (toml: string) => writeFileSync(path.join(root, "netlify.toml"), toml);

it("says nothing without a netlify.toml, or when it publishes the site built and bundles its data", () => {
  expect(netlifyMismatches(root, "dist")).toEqual([]);
  withToml(starter);
  expect(netlifyMismatches(root, "_site")).toEqual([]);
  expect(netlifyMismatches(root, path.join(root, "_site"))).toEqual([]);
  withToml(starter.replace('publish = "_site"', 'publish = "dist"').replaceAll("_site_data/", "dist_data/"));
  expect(netlifyMismatches(root, "dist")).toEqual([]);
});

it("names the starter's publish and included_files under a site built into dist/, with what to write", () => {
  withToml(starter);
  const problems = netlifyMismatches(root, "dist");
  expect(problems).toEqual([
    {
      file: "netlify.toml",
      field: "build.publish",
      problem: 'is "_site", but the site is built into dist/: Netlify would publish another folder',
      fix: 'set publish = "dist", or build into _site/ (--output _site)',
    },
    {
      file: "netlify.toml",
      field: expect.stringMatching(/^functions\.edition\.included_files, functions\.sample\.included_files, /),
      problem: expect.stringContaining("names another folder than dist_data/, where the build writes"),
      fix: 'write dist_data/ for it (as "dist_data/**", "dist_data/site.json")',
    },
  ]);
  // Every function that carries data is named; one that names none of it (a file of its own) is not.
  expect(problems[1]!.field.split(", ")).toHaveLength(7);
  withToml('[build]\npublish = "dist"\n[functions.edition]\nincluded_files = ["words/**", "dist_data/**"]\n');
  expect(netlifyMismatches(root, "dist")).toEqual([]);
});
