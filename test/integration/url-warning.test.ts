// The warning that content/site.json has no url: only where it matters, a CI
// build (the one that gets deployed) of editions with images and no known
// address. Local builds, which are served on this machine, stay quiet.
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { assumedUrlWarnings } from "../../lib/build/edition-images.ts";

const run = promisify(execFile);
const ROOT = ".test-work/url-warning";
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>';
const PUBLICATION = { name: "Pics", description: "d", owner_email: "p@example.com", delivered_on: "Daily" };

/** A one-publication content folder whose edition shows an image. */
function contentWithImage(): string {
  const editions = path.join(ROOT, "content", "pics", "editions");
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(editions, { recursive: true });
  const publication = { ...PUBLICATION, editions: { by: "delivery_count" } };
  writeFileSync(path.join(ROOT, "content", "pics", "publication.json"), JSON.stringify(publication));
  writeFileSync(path.join(editions, "dot.svg"), SVG);
  writeFileSync(path.join(editions, "0.md"), "---\nnumber: 0\n---\n![a dot](dot.svg)\n");
  return path.join(ROOT, "content");
}

/** Builds with exactly these of CI and URL set; resolves to what the build printed. */
async function build(content: string, name: string, set: { CI?: string; URL?: string }): Promise<string> {
  const { CI: _ci, URL: _url, ...env } = process.env;
  const args = ["--import", "tsx", "scripts/build.ts", "--content", content, "--output", path.join(ROOT, name)];
  const { stdout, stderr } = await run(process.execPath, args, { timeout: 120_000, env: { ...env, ...set } });
  return stdout + stderr;
}

describe("a build of editions with images and no url", () => {
  let content: string;
  beforeAll(() => {
    content = contentWithImage();
  });

  it("says nothing on this machine", async () => {
    const output = await build(content, "local", {});
    expect(output).toContain("littlepress: built");
    expect(output).not.toContain("site.json: url");
  });

  it("warns in CI, naming site.json's url and the fix", async () => {
    const output = await build(content, "ci", { CI: "true" });
    expect(output).toMatch(/site\.json: url\n\s+problem: not set, and this build runs in CI: image URLs point at /);
    expect(output).toContain('fix: add "url"');
  });

  it("says nothing in CI when URL gives the address", async () => {
    const output = await build(content, "ci-url", { CI: "true", URL: "https://press.example" });
    expect(output).not.toContain("site.json: url");
  });
});

describe("assumedUrlWarnings", () => {
  it("warns only for an assumed address in CI", () => {
    const warning = expect.objectContaining({ file: "c/site.json", field: "url" });
    expect(assumedUrlWarnings("http://127.0.0.1:8080", "c/site.json", { CI: "true" })).toEqual([warning]);
    expect(assumedUrlWarnings("http://127.0.0.1:8080", "c/site.json", {})).toEqual([]);
    expect(assumedUrlWarnings("http://127.0.0.1:8080", "c/site.json", { CI: "1" })).toHaveLength(1);
    expect(assumedUrlWarnings("http://127.0.0.1:8080", "c/site.json", { CI: "false" })).toEqual([]);
    expect(assumedUrlWarnings(undefined, "c/site.json", { CI: "true" })).toEqual([]);
  });
});
