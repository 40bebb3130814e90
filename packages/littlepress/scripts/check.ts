// `npm run check -- <base_url> [options]`: the conformance checker. Plays the
// printer platform against any publication URL over HTTP (it imports nothing
// from lib/, so it judges a publication only by what the platform would see)
// and reports each check as PASS, WARN, FAIL or SKIP with the request behind it.
import { parseCheckArgs, USAGE } from "./check/options.ts";
import { formatReport, reportJson } from "./check/report.ts";
import { shownText } from "../lib/model/printer-name.ts";
import { runCheck } from "./check/run-check.ts";
import { answerUsage, processOutput, runTool, type Output } from "./cli.ts";

export type { Output };

export { runCheck } from "./check/run-check.ts";
export { formatReport } from "./check/report.ts";

/** Runs the checker as the command line does; resolves to the exit code. */
export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseCheckArgs(argv);
  const answered = answerUsage("check", parsed, USAGE, out);
  if (answered !== undefined || !("options" in parsed)) return answered ?? 2;
  const progress = (line: string) => out.stderr(`check: ${shownText(line)}\n`);
  const report = await runCheck({ ...parsed.options, progress });
  out.stdout(parsed.json ? `${reportJson(report)}\n` : formatReport(report));
  return report.ok ? 0 : 1;
}

runTool("check", import.meta.url, main);
