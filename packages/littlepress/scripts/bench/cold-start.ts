// Cold start and memory against the site's size: fresh processes import the
// edition function, hand it a built site in its context, answer one
// request, then 1,000 mixed ones. Sizes are interleaved run by run.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { SyntheticSite } from "./generate.ts";
import { editionRequests, type EditionRequest } from "./requests.ts";
import { median, mustSucceed, progress, ROOT, runChild } from "./util.ts";

export interface ColdStartRow {
  editions: number;
  runs: number;
  /** Medians over the runs, milliseconds. */
  importMs: number;
  firstAnswerMs: number;
  coldStartMs: number;
  /** Resident memory after the mixed requests, bytes (median). */
  rss: number;
  requests: number;
}

interface ColdRun {
  importMs: number;
  firstAnswerMs: number;
  coldStartMs: number;
  rss: number;
  requests: number;
  problems: string[];
}

/** `sites` maps each built site folder to the content it was built from. */
export async function benchColdStarts(
  work: string,
  sites: { siteDir: string; site: SyntheticSite }[],
  runs: number,
  requests = 1000,
): Promise<ColdStartRow[]> {
  const files = sites.map(({ site }) => {
    // The first answer is today's edition of the dated publication, as a platform would ask for it.
    const mix = editionRequests(site, requests, 11);
    const first: EditionRequest = editionRequests(site, 200, 13).find((r) => r.kind === "today")!;
    const file = path.join(work, `cold-requests-${site.editions}.json`);
    writeFileSync(file, JSON.stringify([first, ...mix]));
    return file;
  });
  const results: ColdRun[][] = sites.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [j, { siteDir, site }] of sites.entries()) {
      const run = mustSucceed(
        `cold start at ${site.editions} editions`,
        await runChild(
          process.execPath,
          ["--import", "tsx", "scripts/bench/cold-child.ts", files[j]!, path.resolve(siteDir)],
          { cwd: ROOT },
        ),
      );
      const r = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as ColdRun;
      if (r.problems.length)
        throw new Error(
          `the edition function answered wrongly at ${site.editions} editions:\n  ${r.problems.join("\n  ")}`,
        );
      results[j]!.push(r);
      progress(
        `cold start ${site.editions} editions (run ${i + 1}/${runs}): ` +
          `${r.coldStartMs.toFixed(0)} ms to the first answer, ` +
          `RSS ${(r.rss / 2 ** 20).toFixed(0)} MiB after ${r.requests} requests`,
      );
    }
  }
  return sites.map(({ site }, j) => {
    const rs = results[j]!;
    return {
      editions: site.editions,
      runs,
      importMs: median(rs.map((r) => r.importMs)),
      firstAnswerMs: median(rs.map((r) => r.firstAnswerMs)),
      coldStartMs: median(rs.map((r) => r.coldStartMs)),
      rss: median(rs.map((r) => r.rss)),
      requests: rs[0]!.requests,
    };
  });
}
