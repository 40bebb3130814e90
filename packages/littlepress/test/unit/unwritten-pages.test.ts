// Edition pages Eleventy renders but does not write (lib/build/unwritten-pages.ts):
// Eleventy's own file writer leaves the paths a build named unwritten, writes
// every other, and writes them too once the build has let them go.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { leaveUnwritten } from "../../lib/build/unwritten-pages.ts";

mkdirSync(".test-work", { recursive: true });
const root = mkdtempSync(path.join(".test-work", "unwritten-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Writer {
  writeFileSync(file: string, content: string): void;
  writeFile(file: string, content: string): Promise<void>;
}

/** Eleventy's FileSystemManager, as its templates write with it (its constructor wants a TemplateConfig). */
async function eleventyWriter(): Promise<Writer> {
  const file = new URL("Util/FileSystemManager.js", import.meta.resolve("@11ty/eleventy")).href;
  const { FileSystemManager } = (await import(file)) as { FileSystemManager: { prototype: Writer } };
  return Object.create(FileSystemManager.prototype) as Writer;
}

it("leaves the named pages unwritten, writes the others, and all of them once let go", async () => {
  const page = path.join(root, "_littlepress/serial/editions/0.0.html");
  const other = path.join(root, "serial/index.html");
  for (const f of [page, other]) mkdirSync(path.dirname(f), { recursive: true });
  const release = await leaveUnwritten([path.relative(process.cwd(), page)]);
  const writer = await eleventyWriter();
  writer.writeFileSync(page, "<p>edition</p>");
  await writer.writeFile(page, "<p>edition</p>");
  writer.writeFileSync(other, "<p>index</p>");
  expect(existsSync(page)).toBe(false);
  expect(readFileSync(other, "utf8")).toBe("<p>index</p>");
  release();
  writer.writeFileSync(page, "<p>edition</p>");
  expect(readFileSync(page, "utf8")).toBe("<p>edition</p>");
});
