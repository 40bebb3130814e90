// The server as `npm start`, `npm run serve` and the benchmark run it: this
// folder's server and the project's functions compiled once by esbuild, as
// Netlify compiles functions (netlify.toml: node_bundler = "esbuild"), then
// run as plain JavaScript.
//
// Why not straight from the TypeScript, as tsx loads it: tsx compiles with
// esbuild's keepNames, which gives every named function expression its name
// at run time (Object.defineProperty), and a request creates several of them.
// Measured side by side on the same site (wrk, 10 connections), a static file
// cost 31-38 us of server CPU a request that way against 17-25 us compiled
// (a plain Node server sending the same bytes: 16-22 us), and /edition/ about
// 1.3 times as much (BENCHMARKS.md, notes).
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { readNetlifyConfig } from "./netlify-config.ts";
import type { LocalServer, ServerOptions, startServer } from "./server.ts";

/** The server module's own file, compiled with the functions so that they share one copy of lib/serve. */
const SERVER_SOURCE = path.join(import.meta.dirname, "server.ts");

/**
 * Where the compiled code goes: inside the project's node_modules, so that
 * the packages it imports (left out of the bundle) resolve as they do for the
 * sources. One folder per process, removed when it exits.
 */
export const COMPILED_DIR = path.join("node_modules", ".cache", "littlepress");

/** Starts the server (lib/server/server.ts) compiled, with the project's functions compiled beside it. */
export async function startCompiledServer(options: ServerOptions = {}): Promise<LocalServer> {
  const root = path.resolve(options.root ?? process.cwd());
  const out = await compileServer(root);
  try {
    const compiled = (await import(pathToFileURL(path.join(out, "server.mjs")).href)) as {
      startServer: typeof startServer;
    };
    const server = await compiled.startServer({ ...options, root, compiledFunctions: path.join(out, "functions") });
    server.server.once("close", () => rmSync(out, { recursive: true, force: true }));
    return server;
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Compiles the server and the project's functions into a fresh folder
 * (server.mjs, functions/<name>.mjs), removed when this process exits; the
 * edition function's benchmark loads it from there too, as Netlify runs it.
 */
export async function compileServer(root: string): Promise<string> {
  const out = compiledFolder(root);
  const functions = path.join(root, readNetlifyConfig(path.join(root, "netlify.toml")).functions);
  const entryPoints: Record<string, string> = { server: SERVER_SOURCE };
  for (const file of readdirSync(functions).filter((f) => f.endsWith(".mts")))
    entryPoints[`functions/${file.slice(0, -".mts".length)}`] = path.join(functions, file);
  const compiling = build({
    entryPoints,
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // One copy of each module for the server and every function (the
    // publications' caches, which a rebuild under `npm start` clears).
    splitting: true,
    format: "esm",
    platform: "node",
    target: `node${process.versions.node}`,
    packages: "external",
    sourcemap: "inline", // errors still name the .ts files and lines
    logLevel: "silent",
  });
  // esbuild's message names the file, the line and the column of each error.
  await compiling.catch((error: unknown) => {
    rmSync(out, { recursive: true, force: true });
    throw error;
  });
  return out;
}

/** A fresh folder for this process's compiled code; those of processes that have ended are removed. */
function compiledFolder(root: string): string {
  const parent = path.join(root, COMPILED_DIR);
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    const pid = /^serve-(\d+)-/.exec(name)?.[1];
    if (pid && !running(Number(pid))) rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  let out: string;
  let n = 0;
  do out = path.join(parent, `serve-${process.pid}-${n++}`);
  while (existsSync(out));
  mkdirSync(out);
  process.once("exit", () => rmSync(out, { recursive: true, force: true }));
  return out;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
