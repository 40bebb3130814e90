// One cold start of the edition function, in a fresh process: the time from
// importing functions/edition.mts to its first answer, then the resident
// memory after the mixed requests, called on the handler directly.
// Usage: node --import tsx scripts/bench/cold-child.ts <requests.json> <site>
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServeContext } from "../../lib/edge/site-folder.ts";
import { checkAnswer, type EditionRequest } from "./requests.ts";
import { ROOT } from "./util.ts";

const [first, ...rest] = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as EditionRequest[];
// The site, as the local server names it to the functions, and the route's `:slug`, as Netlify hands it.
/** The site is named both ways: a --before tree older than the runtime of issue 39 reads `littlepressSite`. */
type Context = ServeContext & { littlepressSite: string };
const site = path.resolve(process.argv[3]!);
const contextOf = (r: EditionRequest): Context => ({
  littlepress: { site },
  littlepressSite: site,
  params: { slug: r.slug },
});
const origin = "https://bench.example";

const t0 = performance.now();
const handler = (
  (await import(pathToFileURL(path.join(ROOT, "functions", "edition.mts")).href)) as {
    default: (req: Request, context: Context) => Promise<Response>;
  }
).default;
const imported = performance.now();
const firstAnswer = await handler(new Request(origin + first!.path), contextOf(first!));
const firstBody = await firstAnswer.text();
const answered = performance.now();

const problems: string[] = [];
const note = (r: EditionRequest, status: number, body: string) => {
  const problem = checkAnswer(r, status, body);
  if (problem && problems.length < 5) problems.push(problem);
};
note(first!, firstAnswer.status, firstBody);
for (const r of rest) {
  const res = await handler(new Request(origin + r.path), contextOf(r));
  note(r, res.status, await res.text());
}
process.stdout.write(
  JSON.stringify({
    importMs: imported - t0,
    firstAnswerMs: answered - imported,
    coldStartMs: answered - t0,
    requests: rest.length,
    rss: process.memoryUsage().rss,
    problems,
  }) + "\n",
);
