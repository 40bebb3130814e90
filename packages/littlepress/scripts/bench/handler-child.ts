// The edition function alone, for scripts/bench/handler-bench.ts: each
// functions/edition.mts given (this tree's, the --before tree's) imported by
// absolute path through tsx, its default export handed the benchmark's
// /edition/ mix one request after another, a web Request in and the
// Response's body read, in decisions per second, the modules alternated run
// by run. Every answer of the mix is checked once first. Prints one JSON line.
// Usage: node --import tsx scripts/bench/handler-child.ts <requests.json> <site> <seconds> <rounds> <module>...
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { checkAnswer, type EditionRequest } from "./requests.ts";

type Handler = (req: Request, context: Context) => Promise<Response>;
/**
 * The built site, and the route's `:slug` as Netlify hands it (the kit before issue 26 read it from the URL).
 * The site is named both ways: a --before tree older than the runtime of issue 39 reads `littlepressSite`.
 */
type Context = { littlepress: { site: string }; littlepressSite: string; params: { slug: string } };

const [requestsFile, site, secondsText, roundsText, ...modules] = process.argv.slice(2);
if (!requestsFile || !site || !modules.length)
  throw new Error("usage: handler-child.ts <requests.json> <site> <seconds> <rounds> <module>...");
const [seconds, rounds] = [Number(secondsText), Number(roundsText)];
const requests = JSON.parse(readFileSync(requestsFile, "utf8")) as EditionRequest[];
const urls = requests.map((r) => `http://127.0.0.1${r.path}`);
const contexts: Context[] = requests.map((r) => ({
  littlepress: { site },
  littlepressSite: site,
  params: { slug: r.slug },
}));

const handlers: Handler[] = [];
for (const file of modules) {
  const handler = ((await import(pathToFileURL(file).href)) as { default: Handler }).default;
  for (const [i, r] of requests.entries()) {
    const res = await handler(new Request(urls[i]!), contexts[i]!);
    const problem = checkAnswer(r, res.status, await res.text());
    if (problem) throw new Error(`${file}: ${problem}`);
  }
  handlers.push(handler);
}

const perSecond = async (handler: Handler) => {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < seconds * 1000)
    for (let i = 0; i < 100; i++, n++) {
      const k = n % urls.length;
      await (await handler(new Request(urls[k]!), contexts[k]!)).arrayBuffer();
    }
  return n / ((performance.now() - t0) / 1000);
};
for (const handler of handlers) await perSecond(handler); // warm-up
const runs = handlers.map(() => [] as number[]);
for (let i = 0; i < rounds; i++) {
  // A rotating order, so that neither module always runs first.
  for (let k = 0; k < handlers.length; k++) {
    const j = (k + i) % handlers.length;
    runs[j]!.push(await perSecond(handlers[j]!));
  }
}
process.stdout.write(JSON.stringify(runs) + "\n");
