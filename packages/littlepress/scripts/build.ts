// npm run build: checks content/ and renders the site into _site/ (lib/build/build.ts),
// then says what the functions carry. Content problems are printed for the
// author, without a stack trace.
import { formatProblems } from "../lib/model/content-error.ts";
import { PUBLIC_SHARDS_DIR, siteDataDir } from "../lib/model/site-paths.ts";
import { answerUsage, eleventyRunsOnce, parseToolArgs, processOutput, runTool, type Output } from "./cli.ts";

export const USAGE = `Usage: npm run build [-- options]

Checks every publication in content/ and renders the site into _site/ (a
blog's into its Eleventy config's output folder, such as dist/): the
editions, their shards for the functions, meta.json, icons and the desk. A
failed build names each problem and leaves the previous site as it was.

Options:
  --content <dir>   the publications are in <dir>; without it the project is
                    built by its own Eleventy config (.eleventy.js,
                    eleventy.config.js …): the starter's builds content/,
                    a blog's its posts
  --output <dir>    build into <dir> instead of _site/ (or the config's output)
  --strict          print warnings (small text, relative URLs, …) become errors
  -h, --help        show this text

Example:
  npm run build -- --strict`;

const OPTIONS = {
  content: { type: "string" },
  output: { type: "string" },
  strict: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * The command line: builds, then says what the functions carry; resolves to the exit code. What the build itself
 * warns of (eleventy-plugin.ts) goes to the console.
 */
export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("build", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { help: _, ...values } = parsed.values;
  const started = performance.now();
  // Eleventy loads (most of a second) only once the arguments are known good: --help answers at once.
  const { buildSite, describeBuildError, functionDataSize } = await import("../lib/build/build.ts");
  let output: string;
  try {
    // Netlify sets URL, the site's address, during its builds. This is the build that gets deployed.
    ({ output } = await buildSite({ ...values, deploy: true, ...(process.env.URL ? { url: process.env.URL } : {}) }));
  } catch (error) {
    out.stderr(`${describeBuildError(error)}\n`);
    return 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // The build Netlify runs, into the project's own folder: its netlify.toml must publish it and give the
  // functions its data. A build told where to go (--output: a test's folder, a copy to look at) is not deployed.
  const { netlifyMismatches } = await import("../lib/server/netlify-check.ts");
  const mismatches = values.output === undefined ? netlifyMismatches(process.cwd(), output) : [];
  if (mismatches.length) {
    out.stderr(`littlepress: built ${output}/, but netlify.toml would not deploy it as built\n`);
    out.stderr(`${formatProblems(mismatches)}\n`);
    return 1;
  }
  const data = await functionDataSize(output);
  out.stdout(`littlepress: built ${output}/ in ${seconds} s\n`);
  out.stdout(
    `littlepress: the functions carry ${data.files} files, ${(data.bytes / 1024).toFixed(0)} KiB ` +
      `of publication indexes and edition shards (${siteDataDir(output)}/, beside the site, not published)\n`,
  );
  const published = await functionDataSize(output, PUBLIC_SHARDS_DIR);
  if (published.files)
    out.stdout(
      `littlepress: ${published.files} more shards, ${(published.bytes / 1024).toFixed(0)} KiB, ` +
        `did not fit in the functions: published under /${PUBLIC_SHARDS_DIR}/, ` +
        "the functions fetch them from the site\n",
    );
  return 0;
}

runTool("build", import.meta.url, (argv) => {
  eleventyRunsOnce();
  return main(argv);
});
