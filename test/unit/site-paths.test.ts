import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { config as edition } from "../../functions/edition.mts";
import { config as validateConfig } from "../../functions/validate_config.mts";
import { DATA_DIR, publicationDataDir, siteDataDir } from "../../lib/model/site-paths.ts";
import { functionPaths, slugOf } from "../../lib/server/routes.ts";
import { deployedSite, siteFor } from "../../lib/edge/site-folder.ts";

// The publication a URL is for, read from the function's own routes (its config.path).
const slugFromPath = (pathname: string, fn: "edition" | "validate_config") =>
  slugOf(functionPaths(fn === "edition" ? edition : validateConfig), pathname);

describe("slugOf a function's routes", () => {
  it("finds the folder before the endpoint", () => {
    expect(slugFromPath("/tales/edition/", "edition")).toBe("tales");
    expect(slugFromPath("/tales/edition", "edition")).toBe("tales");
    expect(slugFromPath("/tales/validate_config/", "validate_config")).toBe("tales");
  });

  it('gives "" at the site root, and nothing for a path that is not the function\'s', () => {
    expect(slugFromPath("/edition/", "edition")).toBe("");
    expect(slugFromPath("/edition", "edition")).toBe("");
    expect(slugFromPath("/tales/meta.json", "edition")).toBeUndefined();
    expect(slugFromPath("/", "edition")).toBeUndefined();
    expect(slugFromPath("/dir/sub/tales/edition/", "edition")).toBeUndefined();
  });
});

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
    expect(siteFor({ littlepressSite: "/tmp/built" })).toBe("/tmp/built");
    expect(siteFor(undefined)).toBe(deployedSite());
  });

  it("keeps each publication's data under the data folder, beside the site and outside it", () => {
    expect(publicationDataDir("/site", "tales")).toBe(path.join("/site_data", "tales"));
    expect(siteDataDir("_site")).toBe("_site_data");
    expect(siteDataDir("/built/_site/")).toBe(path.join("/built", "_site_data"));
    expect(DATA_DIR.startsWith("_")).toBe(true);
  });
});
