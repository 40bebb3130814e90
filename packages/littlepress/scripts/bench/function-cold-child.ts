// One cold start of one function, in a fresh process: the time to import its
// module (by absolute path, through tsx) and to answer one typical request,
// the Response's body read. A scheduled function (config.schedule) is only
// imported: it answers no request. Prints one JSON line.
// Usage: node --import tsx scripts/bench/function-cold-child.ts <module> <call.json>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** What scripts/bench/function-cold.ts asks of the function. */
export interface ColdCall {
  /** The request; none: import only. */
  request?: { method: string; url: string; headers?: Record<string, string>; body?: string };
  context: Record<string, unknown>;
}

const [file, callFile] = process.argv.slice(2);
if (!file || !callFile) throw new Error("usage: function-cold-child.ts <module> <call.json>");
const call = JSON.parse(readFileSync(callFile, "utf8")) as ColdCall;

const t0 = performance.now();
const module = (await import(pathToFileURL(file).href)) as {
  default: (req: Request, context: unknown) => Promise<Response>;
  config?: { schedule?: string };
};
const imported = performance.now();
let answer: { status: number; body: string } | undefined;
if (call.request && !module.config?.schedule) {
  const { method, url, headers, body } = call.request;
  const res = await module.default(new Request(url, { method, headers, body }), call.context);
  answer = { status: res.status, body: await res.text() };
}
const answered = performance.now();
process.stdout.write(
  JSON.stringify({ importMs: imported - t0, answerMs: answer ? answered - imported : 0, answer }) + "\n",
);
