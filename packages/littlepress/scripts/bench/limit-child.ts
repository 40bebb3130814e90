// The static limit: a plain Node `http.createServer` sending answers it holds
// in memory, byte for byte what the kit's server sent for the same paths
// (status, headers, body), found by the request's path in a Map. Nothing a
// server could do for these requests is cheaper. Prints its URL, serves until
// killed. Usage: node scripts/bench/limit-child.ts <answers.json>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

const file = process.argv[2];
if (!file) throw new Error("usage: limit-child.ts <answers.json>");
const recorded = JSON.parse(readFileSync(file, "utf8")) as Record<string, Recorded>;
const answers = new Map(
  Object.entries(recorded).map(([p, a]) => [p, { ...a, body: Buffer.from(a.body, "base64") }] as const),
);

const server = createServer((req, res) => {
  const a = answers.get(req.url ?? "");
  if (!a) return void res.writeHead(404, { "Content-Length": "0" }).end();
  res.writeHead(a.status, a.headers);
  res.end(a.body.length ? a.body : undefined);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`BENCH_URL http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => process.exit(0));
