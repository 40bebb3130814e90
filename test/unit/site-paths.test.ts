import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DATA_DIR, publicationDataDir } from "../../lib/model/site-paths.ts";
import { siteDir, slugFromPath } from "../../lib/serve/site-folder.ts";

describe("slugFromPath", () => {
  it("finds the folder before the endpoint", () => {
    expect(slugFromPath("/tales/edition/", "edition")).toBe("tales");
    expect(slugFromPath("/tales/edition", "edition")).toBe("tales");
    expect(slugFromPath("/tales/validate_config/", "validate_config")).toBe("tales");
    expect(slugFromPath("/dir/sub/tales/edition/", "edition")).toBe("tales");
  });

  it("gives \"\" at the site root or without the endpoint", () => {
    expect(slugFromPath("/edition/", "edition")).toBe("");
    expect(slugFromPath("/edition", "edition")).toBe("");
    expect(slugFromPath("/tales/meta.json", "edition")).toBe("");
    expect(slugFromPath("/", "edition")).toBe("");
  });

  it("uses the last occurrence of the endpoint", () => {
    expect(slugFromPath("/edition/tales/edition/", "edition")).toBe("tales");
  });
});

describe("siteDir / publicationDataDir", () => {
  const saved = process.env.LITTLEPRESS_SITE_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.LITTLEPRESS_SITE_DIR;
    else process.env.LITTLEPRESS_SITE_DIR = saved;
  });

  it("is _site in the working directory unless LITTLEPRESS_SITE_DIR says otherwise", () => {
    delete process.env.LITTLEPRESS_SITE_DIR;
    expect(siteDir()).toBe(path.resolve(process.cwd(), "_site"));
    process.env.LITTLEPRESS_SITE_DIR = "/tmp/elsewhere";
    expect(siteDir()).toBe("/tmp/elsewhere");
  });

  it("keeps each publication's data under the data folder", () => {
    expect(publicationDataDir("/site", "tales")).toBe(path.join("/site", DATA_DIR, "tales"));
    expect(DATA_DIR.startsWith("_")).toBe(true);
  });
});
