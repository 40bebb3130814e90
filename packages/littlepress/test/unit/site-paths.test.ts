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

  it("is _site in the working directory unless LITTLEPRESS_SITE_DIR says otherwise", () => {
    delete process.env.LITTLEPRESS_SITE_DIR;
    expect(deployedSite()).toBe(path.resolve(process.cwd(), "_site"));
    process.env.LITTLEPRESS_SITE_DIR = "/tmp/elsewhere";
    expect(deployedSite()).toBe("/tmp/elsewhere");
  });

  it("is the site the caller's context names, when it names one (the local server, tests)", () => {
    expect(siteFor({ littlepress: { site: "/tmp/built" } })).toBe("/tmp/built");
    expect(siteFor(undefined)).toBe(deployedSite());
  });

  it("keeps each publication's data under the data folder, beside the site and outside it", () => {
    expect(publicationDataDir("/site", "tales")).toBe(path.join("/site_data", "tales"));
    expect(siteDataDir("_site")).toBe("_site_data");
    expect(siteDataDir("/built/_site/")).toBe(path.join("/built", "_site_data"));
    expect(DATA_DIR.startsWith("_")).toBe(true);
  });
});
