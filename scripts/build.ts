// npm run build: renders the site with Eleventy into a fresh folder and swaps
// it in only when the whole build succeeded, so a broken edition never
// replaces a good site. Content problems are printed for the author, without
// a stack trace.
import { readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import Eleventy from "@11ty/eleventy";
import { chainMessages, findContentError } from "../lib/content-error.ts";
import { DATA_DIR, PUBLIC_SHARDS_DIR } from "../lib/site-paths.ts";

/**
 * Builds `content` (default content/) into `output` (default _site/). `url` is
 * the site's address, as Netlify gives it to its builds (`npm run verify` gives
 * its own local server's); content/site.json's `url` still comes first.
 */
export async function build({ content = "content", output = "_site", strict = false, url = "" } = {}): Promise<void> {
  process.env.LITTLEPRESS_CONTENT = path.relative(process.cwd(), path.resolve(content)); // read by .eleventy.js; Eleventy wants it relative
  process.env.LITTLEPRESS_STRICT = strict ? "1" : "0"; // read by the plugin's print checks
  if (url) process.env.URL = url; // Netlify's own variable, read where image URLs are made absolute
  const next = `${output}.next`;
  await rm(next, { recursive: true, force: true });
  const eleventy = new Eleventy(undefined, next, { quietMode: true, configPath: ".eleventy.js" });
  eleventy.disableLogger(); // errors are reported once, by describeBuildError
  try {
    await eleventy.write();
  } catch (error) {
    await rm(next, { recursive: true, force: true });
    throw error;
  }
  await rm(`${output}.old`, { recursive: true, force: true });
  await rename(output, `${output}.old`).catch(() => undefined);
  await rename(next, output);
  await rm(`${output}.old`, { recursive: true, force: true });
}

/**
 * Size of what the functions carry besides their code (the manifests and
 * prebuilt editions), or with `folder` of the shards published instead.
 */
export async function functionDataSize(output = "_site", folder = DATA_DIR): Promise<{ files: number; bytes: number }> {
  const entries = await readdir(path.join(output, folder), { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile());
  const sizes = await Promise.all(files.map(async (e) => (await stat(path.join(e.parentPath, e.name))).size));
  return { files: files.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

/** Every message in an error's chain, for errors that are not content problems (a template syntax error, say). */
export function describeBuildError(error: unknown): string {
  const content = findContentError(error);
  if (content) return content.message;
  const lines = [...new Set(chainMessages(error, 6))];
  return `The build failed:\n  ${lines.join("\n  ")}\n  fix: correct the template named above (the line and column are given); Liquid tags look like {% if config.lang == "fr" %}…{% endif %}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { content: { type: "string" }, output: { type: "string" }, strict: { type: "boolean" } } });
  const started = performance.now();
  const output = values.output ?? "_site";
  build(values).then(
    async () => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const data = await functionDataSize(output);
      console.log(`littlepress: built ${output}/ in ${seconds} s`);
      console.log(`littlepress: the functions carry ${data.files} files, ${(data.bytes / 1024).toFixed(0)} KiB of publication indexes and edition shards (${DATA_DIR}/)`);
      const published = await functionDataSize(output, PUBLIC_SHARDS_DIR);
      if (published.files) console.log(`littlepress: ${published.files} more shards, ${(published.bytes / 1024).toFixed(0)} KiB, did not fit in the functions: published under /${PUBLIC_SHARDS_DIR}/, the functions fetch them from the site`);
    },
    (error) => {
      console.error(describeBuildError(error));
      process.exitCode = 1;
    },
  );
}
