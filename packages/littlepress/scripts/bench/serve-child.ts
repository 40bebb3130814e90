// The kit's server in a process of its own, so the load generator and the
// server never share a thread. Prints its URL as one line, then serves until
// the parent kills it.
// Usage: node --import tsx scripts/bench/serve-child.ts <siteDir> <work> [<tree>]
// - without <tree>, "after": this project's lib/server/server.ts startServer,
//   through tsx, as `npm run serve` runs it;
// - with <tree>, another checkout of the kit (the bench's --before): the server
//   that tree's own scripts/serve.ts starts (at cfbdd5e, lib/serve/compiled-server.ts's
//   startCompiledServer), imported from there by absolute path.
// <work> holds the subscriptions' store and sealing key, which the load never uses.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./util.ts";

/** The options both servers take (lib/server/server.ts's ServerOptions, and the same at cfbdd5e). */
interface Options {
  port: number;
  root: string;
  siteDir: string;
  stateDir: string;
  keyFile: string;
}
type Start = (options: Options) => Promise<{ url: string }>;

const [siteDir, work, tree] = process.argv.slice(2);
if (!siteDir || !work) throw new Error("usage: serve-child.ts <siteDir> <work> [<tree>]");
// Only the side's own server is loaded in its process.
const start: Start = tree
  ? await treeServer(path.resolve(tree))
  : (await import("../../lib/server/server.ts")).startServer;
const { url } = await start({
  port: 0,
  root: tree ? path.resolve(tree) : ROOT,
  siteDir: path.resolve(siteDir),
  stateDir: path.join(work, tree ? "state-before" : "state-after"),
  keyFile: path.join(work, tree ? "seal-before.key" : "seal-after.key"),
});
process.stdout.write(`BENCH_URL ${url}\n`);
// A clean exit on SIGTERM, so `node --cpu-prof` can write its profile when the parent stops it, and on
// Ctrl+C, so that a compiled server (before's, at cfbdd5e) removes its compiled code.
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));

/**
 * The function the tree's scripts/serve.ts starts its server with, from the module it imports it from:
 * statically (`import { startServer } from "…"`), or when it needs it (`import("…").then(({ startServer }) …`).
 */
async function treeServer(root: string): Promise<Start> {
  const serve = path.join(root, "scripts", "serve.ts");
  const source = readFileSync(serve, "utf8");
  const named = (names: string[]) => ["startCompiledServer", "startServer"].find((n) => names.includes(n));
  const imports = [
    ...[...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.\.?\/[^"]+)"/g)].map((m) => ({
      name: named(m[1]!.split(",").map((n) => n.trim())),
      from: m[2]!,
    })),
    ...[...source.matchAll(/import\(\s*"(\.\.?\/[^"]+)"\s*\)/g)].map((m) => ({
      name: named(source.match(/\bstart(?:Compiled)?Server\b/g) ?? []),
      from: m[1]!,
    })),
  ];
  for (const { name, from } of imports) {
    if (!name) continue;
    const module = (await import(pathToFileURL(path.resolve(path.dirname(serve), from)).href)) as Record<
      string,
      unknown
    >;
    if (typeof module[name] === "function") return module[name] as Start;
  }
  throw new Error(`${serve} imports neither startCompiledServer nor startServer`);
}
