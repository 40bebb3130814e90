// `npm run preview [-- <slug>...]`: every edition as the printer prints it.
// Renders each edition as a print key on sirius prints it (inside sirius's
// page, from a file, 384 px wide in PhantomJS, sirius's browser, cut at 10,000 px and
// made black and white by PIL's rules), and writes preview/<slug>/<key>.png, a
// contact sheet and index.json for the desk, then prints each edition's length
// on paper and warns about what will not print as it shows. The work is in
// scripts/preview/.
import path from "node:path";
import type { PreviewOptions, PreviewResult } from "./preview/run.ts";
import { formatSummary, printWarnings } from "./preview/summary.ts";
import {
  answerUsage,
  eleventyRunsOnce,
  inertOutput,
  parseToolArgs,
  processOutput,
  runTool,
  timeoutProblem,
  type Output,
} from "./cli.ts";
import { plural } from "../lib/model/words.ts";

export type { Output };

export const USAGE = `Usage: npm run preview -- [<slug>...] [options]

Renders every edition of every publication (or of the given slugs) as a
Little Printer prints it today (sirius: its page and header, its PhantomJS 2.1.1
and DejaVu fonts at 384 px,
cut at 10000 px, Floyd-Steinberg as PIL's convert('1')), into preview/<slug>/:
<key>.png, contact-sheet.png, index.json. With settings, every edition is also
rendered with every setting a subscriber can have (each select and radio
option; each text field at its default and at its max_length, or 200
characters), identical pages once; an edition whose settings give different
pages gets variants/<key>.png, those pages side by side. Warns about editions
the printer cuts and relative URLs, which print nothing, naming the settings.

Options:
  --edition <key>   only this edition (a delivery count, date or hour, as in the front matter)
  --out <dir>       write the previews here instead of preview/
  --no-build        use the site already built in _site/
  --site <dir>      use the site already built in <dir> (implies --no-build)
  --content <dir>   the publications are in <dir> instead of content/
  --timeout <s>     give each page this many seconds to load (default 20)
  --strict          exit with 1 when there is a warning
  --readme          also write docs/desk.png and docs/preview-strip.png for the README and the docs
  -h, --help        show this text

Example:
  npm run preview -- lighthouse --edition 0`;

type Parsed = { help: true } | { error: string } | { options: PreviewOptions; strict: boolean };

export function parsePreviewArgs(argv: string[]): Parsed {
  const parsed = parseToolArgs(argv, {
    edition: { type: "string" },
    out: { type: "string" },
    "no-build": { type: "boolean" },
    site: { type: "string" },
    content: { type: "string" },
    timeout: { type: "string" },
    readme: { type: "boolean" },
    strict: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if ("error" in parsed) return parsed;
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const timeoutIssue = values.timeout === undefined ? undefined : timeoutProblem(values.timeout);
  if (timeoutIssue) return { error: timeoutIssue };
  for (const [name, value] of [
    ["--edition", values.edition],
    ["--out", values.out],
    ["--site", values.site],
    ["--content", values.content],
  ] as const) {
    if (value === "") return { error: `${name} needs a value` };
  }
  return {
    options: {
      slugs: positionals,
      ...(values.edition !== undefined ? { edition: values.edition } : {}),
      ...(values.out !== undefined ? { out: values.out } : {}),
      ...(values.site !== undefined ? { site: values.site } : {}),
      ...(values.content !== undefined ? { content: values.content } : {}),
      build: !values["no-build"] && values.site === undefined,
      readme: values.readme ?? false,
      ...(values.timeout !== undefined ? { timeoutMs: Number(values.timeout) * 1000 } : {}),
    },
    strict: values.strict ?? false,
  };
}

/**
 * Runs the preview as the command line does; resolves to the exit code (cli.ts's EXIT). What it cannot do
 * for the person running it (preview/errors.ts's PreviewError) is thrown to runTool, which says it.
 */
export async function main(argv: string[], raw: Output = processOutput): Promise<number> {
  const out = inertOutput(raw);
  const parsed = parsePreviewArgs(argv);
  const answered = answerUsage("preview", parsed, USAGE, out);
  if (answered !== undefined || !("options" in parsed)) return answered ?? 2;
  const started = performance.now();
  // The preview's modules (Eleventy, the renderer) load once the arguments are known good.
  const { preview } = await import("./preview/run.ts");
  const result = await preview({ ...parsed.options, progress: (line) => out.stderr(`preview: ${line}\n`) });
  return reportPreview(result, parsed, performance.now() - started, out);
}

/** The summary, the warnings and what failed, as the command prints them after a preview; the exit code. */
function reportPreview(
  result: PreviewResult,
  parsed: { options: PreviewOptions; strict: boolean },
  ms: number,
  out: Output,
): number {
  out.stdout(formatSummary(result.rows));
  const folder = parsed.options.out ?? "preview";
  const seconds = (ms / 1000).toFixed(1);
  const editions = new Set(result.rows.filter((r) => r.error === undefined).map((r) => `${r.slug}\u0000${r.key}`)).size;
  // Every edition with every setting a subscriber can have; identical pages are rendered once.
  const variants =
    result.variants > editions
      ? ` (${plural(result.variants, "variant")} with every setting, ${plural(result.pages, "distinct page")})`
      : "";
  out.stdout(
    `\n${plural(editions, "edition")}${variants} in ${seconds} s, written to ${folder}${path.sep}<slug>${path.sep}`,
  );
  const copied = result.publications.filter((p) => p.copiedTo).length;
  out.stdout(copied ? ` and copied into the site (shown on each publication's page)\n` : "\n");
  for (const file of result.readmeFiles) out.stdout(`README image: ${file}\n`);
  const warnings = printWarnings(result.rows);
  for (const warning of warnings) out.stderr(`preview: warning: ${warning}\n`);
  if (result.failures) {
    out.stderr(`preview: ${plural(result.failures, "edition")} could not be rendered (marked ✗ above)\n`);
    return 1;
  }
  if (parsed.strict && warnings.length) {
    out.stderr(`preview: --strict: ${plural(warnings.length, "warning")}, failing\n`);
    return 1;
  }
  return 0;
}

runTool("preview", import.meta.url, (argv) => {
  eleventyRunsOnce();
  return main(argv);
});
