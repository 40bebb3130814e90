// Every function's cold start, this tree's and the --before tree's: for each
// function in each tree's functions/, a fresh `node --import tsx` process, in
// that tree, imports the module by absolute path and answers one typical
// request (scripts/bench/function-cold-child.ts): edition and sample a GET,
// validate_config a POST with a config, subscribe a GET of the form page,
// deliveries a GET of a publication's histories; deliver, scheduled, is only
// imported. Each answer is checked. One unmeasured run of each first (tsx
// keeps what it compiled on disk, so both trees start from that cache), then
// the runs, before and after alternated function by function. The site's own
// address, where the subscribe page reads the publication's meta.json as it
// does deployed, is a small static server of the built site in this process.
import { readdirSync, readFile, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import type { ColdCall } from "./function-cold-child.ts";
import { CHOICES, SERIAL, type SyntheticSite } from "./generate.ts";
import { editionRequests } from "./requests.ts";
import { median, mustSucceed, progress, ROOT, runChild } from "./util.ts";

export interface FunctionColdSide {
  /** Medians over the runs, milliseconds; answerMs 0 for a function only imported. */
  importMs: number;
  answerMs: number;
  coldStartMs: number;
}

export interface FunctionColdRow {
  name: string;
  /** What the cold start asks: "GET /daily/edition/?…", or "import only". */
  call: string;
  before?: FunctionColdSide;
  after?: FunctionColdSide;
}

export interface FunctionColdResult {
  runs: number;
  editions: number;
  functions: FunctionColdRow[];
}

type Side = "before" | "after";

interface ColdRun {
  importMs: number;
  answerMs: number;
  answer?: { status: number; body: string };
}

/** The typical request of each function, and what its answer must hold. */
function typicalCalls(site: SyntheticSite, origin: string) {
  const today = editionRequests(site, 200, 13).find((r) => r.kind === "today")!;
  const get = (path: string) => ({ method: "GET", url: origin + path });
  const config = JSON.stringify({ lang: "fr", name: "Léa" });
  const calls: Record<string, { slug: string; request: NonNullable<ColdCall["request"]>; expect: RegExp }> = {
    edition: { slug: today.slug, request: get(today.path), expect: /<html/i },
    sample: { slug: SERIAL, request: get(`/${SERIAL}/sample/`), expect: /<html/i },
    validate_config: {
      slug: CHOICES,
      request: {
        method: "POST",
        url: `${origin}/${CHOICES}/validate_config/`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ config }).toString(),
      },
      expect: /"valid":\s*true/,
    },
    subscribe: { slug: CHOICES, request: get(`/${CHOICES}/subscribe/`), expect: /<form/i },
    deliveries: { slug: CHOICES, request: get(`/${CHOICES}/deliveries/`), expect: /"subscriptions"/ },
  };
  return calls;
}

const functionNames = (tree: string) =>
  readdirSync(path.join(tree, "functions"))
    .filter((f) => f.endsWith(".mts"))
    .map((f) => f.slice(0, -".mts".length));

export async function benchFunctionColdStarts(
  work: string,
  siteDir: string,
  site: SyntheticSite,
  runs: number,
  before?: string,
  warmup = true,
): Promise<FunctionColdResult> {
  const trees: Partial<Record<Side, string>> = { after: ROOT, ...(before && { before }) };
  const { server, origin } = await siteServer(siteDir);
  try {
    const calls = typicalCalls(site, origin);
    // The local server's context: the site, a file store with its sealing key, the histories shown (npm start),
    // and the route's `:slug`, as Netlify hands it (the kit before issue 26 read it from the URL).
    const local = {
      site: path.resolve(siteDir),
      state: path.join(work, "cold-functions", "state"),
      keyFile: path.join(work, "cold-functions", "seal.key"),
      history: true,
      origin,
    };
    // Both ways: a --before tree older than the runtime of issue 39 reads the flat littlepress* fields.
    const context = {
      littlepress: local,
      littlepressSite: local.site,
      littlepressState: local.state,
      littlepressKeyFile: local.keyFile,
      littlepressHistory: local.history,
      littlepressOrigin: local.origin,
      ip: "127.0.0.1",
    };
    const sides = new Map<string, Side[]>();
    for (const side of ["before", "after"] as const)
      for (const name of trees[side] ? functionNames(trees[side]) : [])
        sides.set(name, [...(sides.get(name) ?? []), side]);
    const all = [...sides.keys()].sort();
    const callFiles = new Map<string, string>();
    for (const name of all) {
      const file = path.join(work, `cold-call-${name}.json`);
      const call = calls[name];
      const params = call && { params: { slug: call.slug } };
      writeFileSync(
        file,
        JSON.stringify({ request: call?.request, context: { ...context, ...params } } satisfies ColdCall),
      );
      callFiles.set(name, file);
    }

    const once = async (side: Side, name: string): Promise<ColdRun> => {
      const tree = trees[side]!;
      const child = path.join(ROOT, "scripts", "bench", "function-cold-child.ts");
      const module = path.join(tree, "functions", `${name}.mts`);
      const run = mustSucceed(
        `the cold start of ${side}'s ${name}`,
        await runChild(process.execPath, ["--import", "tsx", child, module, callFiles.get(name)!], { cwd: tree }),
      );
      const r = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as ColdRun;
      const expect = calls[name]?.expect;
      if (r.answer && (r.answer.status !== 200 || (expect && !expect.test(r.answer.body))))
        throw new Error(`${side}'s ${name} answered ${r.answer.status}: ${r.answer.body.slice(0, 200)}`);
      return r;
    };

    progress(`cold start of every function, before and after: ${warmup ? "a warm-up, then " : ""}${runs} run(s) each`);
    if (warmup) for (const name of all) for (const side of sides.get(name)!) await once(side, name);
    const results = new Map<string, ColdRun[]>();
    for (let i = 0; i < runs; i++) {
      for (const name of all) {
        const order = i % 2 ? [...sides.get(name)!].reverse() : sides.get(name)!;
        for (const side of order) {
          const key = `${side} ${name}`;
          results.set(key, [...(results.get(key) ?? []), await once(side, name)]);
        }
      }
    }

    const summary = (rs: ColdRun[] | undefined): FunctionColdSide | undefined =>
      rs && {
        importMs: median(rs.map((r) => r.importMs)),
        answerMs: median(rs.map((r) => r.answerMs)),
        coldStartMs: median(rs.map((r) => r.importMs + r.answerMs)),
      };
    const functions = all.map((name) => {
      const [b, a] = [summary(results.get(`before ${name}`)), summary(results.get(`after ${name}`))];
      const answered = (results.get(`after ${name}`) ?? results.get(`before ${name}`))![0]!.answer;
      const request = calls[name]?.request;
      const shown = request && decodeURIComponent(request.url.slice(origin.length));
      const call = answered && request ? `${request.method} ${shown}` : "import only";
      progress(
        `cold start ${name}: ` +
          [b && `before ${b.coldStartMs.toFixed(0)} ms`, a && `after ${a.coldStartMs.toFixed(0)} ms`]
            .filter(Boolean)
            .join(", "),
      );
      return { name, call, ...(b && { before: b }), ...(a && { after: a }) };
    });
    return { runs, editions: site.editions, functions };
  } finally {
    await new Promise((done) => server.close(done));
  }
}

/** The built site's files over HTTP on 127.0.0.1, as the site's own address answers them. */
async function siteServer(siteDir: string): Promise<{ server: Server; origin: string }> {
  const root = path.resolve(siteDir);
  const server = createServer((req, res) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    } catch {
      return void res.writeHead(400).end();
    }
    const file = path.join(root, path.normalize(pathname.endsWith("/") ? `${pathname}index.html` : pathname));
    if (!file.startsWith(root + path.sep)) return void res.writeHead(404).end();
    readFile(file, (error, body) => {
      if (error) return void res.writeHead(404).end();
      const type = file.endsWith(".json") ? "application/json" : "text/html; charset=utf-8";
      res.writeHead(200, { "Content-Type": type, "Content-Length": body.length }).end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  return { server, origin: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
}
