// The Netlify edition function alone, without HTTP or other load: the default
// export of functions/edition.mts (what Netlify calls, a web Request in and a
// Response out), this tree's and the --before tree's, handed the benchmark's
// /edition/ mix in one child process (scripts/bench/handler-child.ts), in
// decisions per second. What the function costs, before and after.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { SyntheticSite } from "./generate.ts";
import { editionRequests } from "./requests.ts";
import { median, mustSucceed, ROOT, runChild } from "./util.ts";

export interface HandlerResult {
  /** Seconds per measured run, and runs per side (alternated). */
  seconds: number;
  rounds: number;
  /** This tree's default export, its Response's body read: the median over the rounds. */
  handlerPerSecond: number;
  /** The same of the --before tree's functions/edition.mts, when there is one. */
  beforePerSecond?: number;
}

export async function benchHandler(
  work: string,
  siteDir: string,
  site: SyntheticSite,
  seconds: number,
  rounds: number,
  before?: string,
): Promise<HandlerResult> {
  const requests = path.join(work, "handler-requests.json");
  writeFileSync(requests, JSON.stringify(editionRequests(site, 2000, 11)));
  const modules = [ROOT, ...(before ? [before] : [])].map((tree) => path.join(tree, "functions", "edition.mts"));
  const run = mustSucceed(
    "the edition function in-process",
    await runChild(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join("scripts", "bench", "handler-child.ts"),
        requests,
        path.resolve(siteDir),
        String(seconds),
        String(rounds),
        ...modules,
      ],
      { cwd: ROOT },
    ),
  );
  const [after, beforeRuns] = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as number[][];
  return {
    seconds,
    rounds,
    handlerPerSecond: median(after!),
    ...(beforeRuns && { beforePerSecond: median(beforeRuns) }),
  };
}
