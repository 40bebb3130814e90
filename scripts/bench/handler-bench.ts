// The Netlify edition function alone, in this process: its default export
// (what Netlify calls, a web Request in and a Response out) handed the
// benchmark's /edition/ mix one request after another, in decisions per
// second; beside it the same decision without the web objects (`answer`, what
// the local server calls). No HTTP, no other load: what the function costs.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compileServer } from "../../lib/server/compiled-server.ts";
import type { EditionHandler } from "../../lib/edge/edition-endpoint.ts";
import type { SyntheticSite } from "./generate.ts";
import { editionRequests } from "./requests.ts";
import { median, ROOT } from "./util.ts";

export interface HandlerResult {
  /** Seconds per measured run, and runs per side (alternated). */
  seconds: number;
  rounds: number;
  /** The default export, its Response's body read: medians over the rounds. */
  handlerPerSecond: number;
  /** `answer`, the decision without a Request or Response. */
  answerPerSecond: number;
}

export async function benchHandler(siteDir: string, site: SyntheticSite, seconds: number, rounds: number) {
  // Compiled as Netlify compiles it (esbuild, lib/server/compiled-server.ts), not as tsx loads it.
  const compiled = await compileServer(ROOT);
  const module = (await import(pathToFileURL(path.join(compiled, "functions", "edition.mjs")).href)) as {
    default: EditionHandler;
  };
  const edition = module.default;
  const context = { littlepressSite: path.resolve(siteDir) };
  const urls = editionRequests(site, 2000, 11).map((r) => `http://127.0.0.1${r.path}`);
  const sides = {
    handler: async (url: string) => void (await (await edition(new Request(url), context)).arrayBuffer()),
    answer: async (url: string) => void (await edition.answer(new URL(url), "GET", context)),
  };
  const perSecond = async (call: (url: string) => Promise<void>) => {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < seconds * 1000) for (let i = 0; i < 100; i++) await call(urls[n++ % urls.length]!);
    return n / ((performance.now() - t0) / 1000);
  };
  for (const call of Object.values(sides)) await perSecond(call); // warm-up
  const runs = { handler: [] as number[], answer: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    runs.handler.push(await perSecond(sides.handler));
    runs.answer.push(await perSecond(sides.answer));
  }
  return { seconds, rounds, handlerPerSecond: median(runs.handler), answerPerSecond: median(runs.answer) };
}
