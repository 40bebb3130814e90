// npm run build: checks content/ and renders the site into _site/ (lib/build/build.ts),
// then says what the functions carry. Content problems are printed for the
// author, without a stack trace.
import { pathToFileURL } from "node:url";
import { PUBLIC_SHARDS_DIR, siteDataDir } from "../lib/model/site-paths.ts";
import { scriptArgs } from "./cli.ts";

export const USAGE = `Usage: npm run build [-- options]

Checks every publication in content/ and renders the site into _site/: the
editions, their shards for the functions, meta.json, icons and the desk. A
failed build names each problem and leaves the previous _site/ as it was.

Options:
  --content <dir>   the publications are in <dir>; without it the project is
                    built by its own Eleventy config (.eleventy.js,
                    eleventy.config.js …): the starter's builds content/,
                    a blog's its posts
  --output <dir>    build into <dir> instead of _site/
  --strict          print warnings (small text, relative URLs, …) become errors
  -h, --help        show this text

Example:
  npm run build -- --strict`;

/** The command line: builds, then says what the functions carry. */
async function main(values: { content?: string; output?: string; strict?: boolean }) {
  const started = performance.now();
  // Eleventy loads (most of a second) only once the arguments are known good: --help answers at once.
  const { build, describeBuildError, functionDataSize } = await import("../lib/build/build.ts");
  const output = values.output ?? "_site";
  // Netlify sets URL, the site's address, during its builds. This is the build that gets deployed.
  build({ ...values, deploy: true, ...(process.env.URL ? { url: process.env.URL } : {}) }).then(
    async () => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const data = await functionDataSize(output);
      console.log(`littlepress: built ${output}/ in ${seconds} s`);
      console.log(
        `littlepress: the functions carry ${data.files} files, ${(data.bytes / 1024).toFixed(0)} KiB ` +
          `of publication indexes and edition shards (${siteDataDir(output)}/, beside the site, not published)`,
      );
      const published = await functionDataSize(output, PUBLIC_SHARDS_DIR);
      if (published.files)
        console.log(
          `littlepress: ${published.files} more shards, ${(published.bytes / 1024).toFixed(0)} KiB, ` +
            `did not fit in the functions: published under /${PUBLIC_SHARDS_DIR}/, ` +
            "the functions fetch them from the site",
        );
    },
    (error) => {
      console.error(describeBuildError(error));
      process.exitCode = 1;
    },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = { type: "string" } as const;
  const args = scriptArgs("build", USAGE, { content: folder, output: folder, strict: { type: "boolean" } });
  if (args) void main(args.values);
}
