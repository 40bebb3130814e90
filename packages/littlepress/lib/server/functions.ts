// The project's functions as Netlify finds them: one per .mts file in the
// functions folder, each with its routes in `config.path` (Netlify reads them
// there, statically) and, for the local server, the methods it takes.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";
import type { FunctionHandler } from "../edge/http.ts";

/** A function of the project, as the local app routes to it. */
export interface SiteFunction {
  name: string;
  /** Its routes (`config.path`); none: only Netlify answers it, at /.netlify/functions/<name>. */
  paths: string[];
  /** The methods it takes, when its module says (`methods`); the app answers others 405. */
  methods?: readonly string[];
  /**
   * A background function (its name ends in `-background`) with a path:
   * answered 202 at once, and run after, as Netlify runs one.
   */
  background?: boolean;
  handler: FunctionHandler;
}

interface FunctionModule {
  default: FunctionHandler;
  config?: { path?: string | string[]; schedule?: string };
  methods?: readonly string[];
}

/** A function's file: TypeScript as a site writes it, or JavaScript as the package ships its own (not its types). */
const FUNCTION_FILE = /(?<!\.d)\.m[jt]s$/;

/**
 * Netlify's events (its documented trigger names): a function named after one,
 * `-background` or not, is run by Netlify when the event happens
 * (deploy-succeeded-background: a deploy's push run).
 */
const NETLIFY_EVENTS = new Set([
  "deploy-building",
  "deploy-succeeded",
  "deploy-failed",
  "deploy-deleted",
  "deploy-locked",
  "deploy-unlocked",
  "split-test-activated",
  "split-test-deactivated",
  "split-test-modified",
  "submission-created",
  "identity-validate",
  "identity-signup",
  "identity-login",
]);

/**
 * Loads every function of `dir` but the scheduled and the event-triggered
 * ones: those run on their schedule or on Netlify's events only, and a local
 * server has neither, so no route reaches them here (`npm run deliver` and
 * `npm run push` run their work by hand).
 */
export async function loadFunctions(dir: string): Promise<SiteFunction[]> {
  const files = (await readdir(dir)).filter((f) => FUNCTION_FILE.test(f)).sort();
  const loaded = await Promise.all(
    files.map(async (file) => {
      const name = file.replace(FUNCTION_FILE, "");
      if (NETLIFY_EVENTS.has(name.replace(/-background$/, ""))) return [];
      const module = (await importTypeScript(pathToFileURL(path.join(dir, file)).href)) as FunctionModule;
      if (module.config?.schedule) return [];
      const background = name.endsWith("-background");
      // Netlify gives a function without a path its /.netlify/functions/ address; the local server
      // does not. Of those, only deliver-background is one a site calls, and only the scheduled run
      // on Netlify calls it: a self-hosted site runs its batches in `npm run deliver`, so the
      // address would be a door (a body to read, a batch to check) that nothing of its own uses.
      const paths = module.config?.path === undefined ? [] : [module.config.path].flat();
      return [{ name, paths, methods: module.methods, handler: module.default, ...(background && { background }) }];
    }),
  );
  return loaded.flat();
}

/**
 * Imports a site's function, which is TypeScript (Netlify bundles it with
 * esbuild). A process that already loads TypeScript (tsx, vitest) imports it
 * as it is; plain Node before 22.18 cannot strip types, so tsx loads it, for
 * this import alone.
 */
async function importTypeScript(url: string): Promise<unknown> {
  try {
    return await import(url);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
    return tsImport(url, import.meta.url);
  }
}
