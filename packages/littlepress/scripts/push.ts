// npm run push -- <slug> <edition>: prints a push edition now, once, to every
// local subscription that was live when it was published (lib/model/push.ts),
// as the next delivery run would. Running it again prints nothing more.
import { printerName, shownText } from "../lib/model/printer-name.ts";
import path from "node:path";
import { printKeyOriginsOf } from "../lib/platform/printers/print-key-origins.ts";
import { pushEditionsOf, runPushes, type PushReport } from "../lib/platform/pushing/push-run.ts";
import { LOCAL_STATE, stateForTool } from "../lib/platform/stores/state-setup.ts";
import { siteIndexOf } from "../lib/edge/site-index.ts";
import { plural } from "../lib/model/words.ts";
import { answerUsage, parseToolArgs, processOutput, runTool, type Output } from "./cli.ts";

export const USAGE = `Usage: npm run push -- <slug> <edition> [--dry-run] [options]

Prints the push edition <edition> of the publication <slug> (an edition whose
front matter says push: true, or a data row whose push column is true) to every
local subscription that was live when it was published, once each, with each
subscriber's settings. The delivery runs do the same for every push edition;
running it again prints nothing more.

Options:
  --dry-run          say what would be sent and to whom; send and write nothing
  --site <dir>       the built site (default _site/)
  --state <dir>      the subscriptions' folder (default ${LOCAL_STATE}/)
  --key-file <file>  the file that keeps their sealing key (as npm run deliver)
  -h, --help         show this text

Example:
  npm run push -- good-morning 2026-11-25`;

const OPTIONS = {
  "dry-run": { type: "boolean" },
  site: { type: "string" },
  state: { type: "string" },
  "key-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function main(argv: string[], out: Output = processOutput, env = process.env): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, true);
  const answered = answerUsage("push", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) {
    out.stderr("push: give a publication's slug and a push edition, like npm run push -- good-morning 2026-11-25\n");
    return 2;
  }
  const [slugArg, edition] = positionals as [string, string];
  const site = path.resolve(values.site ?? "_site");
  // The publication at the site root may be named "/" as well as by its slug.
  const slug = slugArg === "/" ? (siteIndexOf(site).root ?? "") : slugArg;
  const pushes = await pushEditionsOf(site);
  if (!pushes.some((p) => p.slug === slug && p.edition === edition)) {
    const ofSlug = pushes.filter((p) => p.slug === slug).map((p) => p.edition);
    const known = ofSlug.length
      ? `its push editions are ${ofSlug.join(", ")}`
      : pushes.length
        ? `the push editions are ${pushes.map((p) => `${p.slug} ${p.edition}`).join(", ")}`
        : `the site in ${path.relative(process.cwd(), site) || "."} has no push editions ` +
          "(mark one with push: true, then build)";
    out.stderr(`push: ${JSON.stringify(slugArg)} has no push edition ${JSON.stringify(edition)}: ${known}\n`);
    return 2;
  }
  const state = stateForTool(values, env);
  if ("error" in state) {
    out.stderr(`push: ${state.error}\n`);
    return 2;
  }
  const dryRun = values["dry-run"] === true;
  const report = await runPushes({
    ...state,
    site,
    printKeys: { allowed: printKeyOriginsOf(site) },
    at: new Date(),
    only: { slug, edition },
    dryRun,
  });
  out.stdout(pushReportText(report, dryRun));
  return report.lines.some((l) => l.outcome === "error") ? 1 : 0;
}

/** The report of a push run, one line per copy worked on (npm run push, npm run deliver). */
export function pushReportText(report: PushReport, dryRun: boolean): string {
  const copiesOf = (p: { slug: string; edition: string }) =>
    report.lines.filter((l) => l.slug === p.slug && l.edition === p.edition).length;
  const head = report.pushes.map(
    (p) =>
      `push: ${dryRun ? "dry run, " : ""}${p.slug} ${p.edition} (published ${p.published}): ` +
      `${plural(copiesOf(p), "copy", "copies")} worked on` +
      (p.done ? ", every subscriber's copy settled" : "") +
      (p.later
        ? `; ${plural(p.later, "subscription", "subscriptions")} made after it was published ` +
          `${p.later === 1 ? "does" : "do"} not get it (news is for those subscribed when it came out)`
        : "") +
      "\n",
  );
  const lines = report.lines.map(
    (l) =>
      `  ${l.slug || "/"} ${l.edition}  ${l.subscription} (${printerName(l.printer)}): ` +
      `${l.outcome} (${shownText(l.detail)})\n`,
  );
  const left = report.left ? `push: ${report.left} left for the next run (this run's time was up)\n` : "";
  return head.join("") + lines.join("") + left + (dryRun ? "Dry run: nothing was sent or written.\n" : "");
}

runTool("push", import.meta.url, (argv) => main(argv));
