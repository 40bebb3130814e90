import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DATA_DIR, publicationDataDir, siteDataDir } from "../../lib/model/site-paths.ts";
import { deployedSite, siteFor } from "../../lib/edge/site-folder.ts";

describe("siteFor / publicationDataDir", () => {
  const saved = process.env.LITTLEPRESS_SITE_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.LITTLEPRESS_SITE_DIR;
    else process.env.LITTLEPRESS_SITE_DIR = saved;
  });

  it("is the site whose functions' data the function's folder holds, whatever its name", () => {
    delete process.env.LITTLEPRESS_SITE_DIR;
    const dir = mkdtempSync(path.join(tmpdir(), "deployed-"));
    try {
      // Nothing built yet: _site, not found (looked for again at the next request).
      expect(deployedSite(dir)).toEqual({ site: path.join(dir, "_site"), found: false });
      // Eleventy's global data, and a folder named like data without a site index, are no site's.
      mkdirSync(path.join(dir, "_data"));
      writeFileSync(path.join(dir, "_data", "site.json"), "{}");
      mkdirSync(path.join(dir, "notes_data"));
      expect(deployedSite(dir).found).toBe(false);
      // A bundle of a site built into dist/ holds dist_data/ (netlify.toml's included_files).
      mkdirSync(path.join(dir, "dist_data"));
      writeFileSync(path.join(dir, "dist_data", "site.json"), "{}");
      expect(deployedSite(dir)).toEqual({ site: path.join(dir, "dist"), found: true });
      // A project folder (netlify dev, unbundled) with an older build's data under another name: the newest.
      mkdirSync(path.join(dir, "_site_data"));
      writeFileSync(path.join(dir, "_site_data", "site.json"), "{}");
      utimesSync(path.join(dir, "_site_data", "site.json"), new Date(2020, 0, 1), new Date(2020, 0, 1));
      expect(deployedSite(dir).site).toBe(path.join(dir, "dist"));
      utimesSync(path.join(dir, "dist_data", "site.json"), new Date(2019, 0, 1), new Date(2019, 0, 1));
      expect(deployedSite(dir).site).toBe(path.join(dir, "_site"));
      process.env.LITTLEPRESS_SITE_DIR = "/tmp/elsewhere";
      expect(deployedSite(dir)).toEqual({ site: "/tmp/elsewhere", found: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is the site the caller's context names, when it names one (the local server, tests)", () => {
    expect(siteFor({ littlepress: { site: "/tmp/built" } })).toBe("/tmp/built");
    expect(siteFor(undefined)).toBe(deployedSite(process.cwd()).site);
  });

  it("keeps each publication's data under the data folder, beside the site and outside it", () => {
    expect(publicationDataDir("/site", "tales")).toBe(path.join("/site_data", "tales"));
    expect(siteDataDir("_site")).toBe("_site_data");
    expect(siteDataDir("/built/_site/")).toBe(path.join("/built", "_site_data"));
    expect(DATA_DIR.startsWith("_")).toBe(true);
  });
});
