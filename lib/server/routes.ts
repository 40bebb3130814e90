// Routes: which URL paths reach a function, declared once, in each function's
// own `config.path` (functions/*.mts; Netlify's in-source configuration). Netlify
// routes by them, the local server reads them from the same modules, and a
// function finds its publication's slug by matching the URL against them.

/** A path's named parts (`:slug`) and its `*` (as `splat`), or null when the pattern does not match. */
export type PathParams = Record<string, string>;

/** Compiles a Netlify path pattern (`/:slug/edition/`, `/_littlepress/*`) into a matcher. */
export function pathPattern(pattern: string): (pathname: string) => PathParams | null {
  const names: string[] = [];
  const source = pattern
    .split("/")
    .map((part) => {
      if (part === "*") return (names.push("splat"), "(.*)");
      if (part.startsWith(":")) return (names.push(part.slice(1)), "([^/]+)");
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  const re = new RegExp(`^${source}$`);
  return (pathname) => {
    const m = re.exec(pathname);
    if (!m) return null;
    const params: PathParams = {};
    for (let i = 0; i < names.length; i++) params[names[i]!] = m[i + 1] ?? "";
    return params;
  };
}

/** A compiled set of path patterns: the parameters of the first that matches, or null. */
export type RouteMatcher = (pathname: string) => PathParams | null;

/**
 * Compiles `patterns` once, for a caller that matches them on every request
 * (the local server, a function's slug): compiling a pattern costs a RegExp.
 */
export function compileRoutes(patterns: readonly string[]): RouteMatcher {
  const matchers = patterns.map(pathPattern);
  return (pathname) => {
    for (const match of matchers) {
      const params = match(pathname);
      if (params) return params;
    }
    return null;
  };
}

/** Matchers compiled so far, by their patterns (a project declares a dozen). */
const compiled = new Map<string, RouteMatcher>();

/** The first of `patterns` that matches `pathname`, with its parameters; null when none does. */
export function matchPaths(patterns: readonly string[], pathname: string): PathParams | null {
  const key = patterns.join("\u0000");
  let matcher = compiled.get(key);
  if (!matcher) compiled.set(key, (matcher = compileRoutes(patterns)));
  return matcher(pathname);
}

/**
 * The methods a function module takes, when it says (its `methods` export):
 * the local server answers any other with 405 and Allow. Netlify hands every
 * method to the function, which answers within its contract either way.
 */
export type FunctionMethods = readonly string[];

/** What /edition/ and /sample/ take. */
export const EDITION_METHODS: FunctionMethods = ["GET", "HEAD"];

/** A function module's in-source configuration, as far as routing goes (Netlify's `Config`). */
export interface FunctionConfig {
  path?: string | string[];
  /** A scheduled function's cron expression: it runs on that schedule and at no URL. */
  schedule?: string;
}

/** The paths a function declares in its `config` (none: it answers only at /.netlify/functions/<name>). */
export function functionPaths(config: FunctionConfig | undefined): string[] {
  return config?.path === undefined ? [] : [config.path].flat();
}

/**
 * The publication a request to a function is for: the `:slug` of the function's
 * path that matched ("" at the site root, `/edition/`); undefined when the URL
 * is not one of its paths (a direct call to /.netlify/functions/…).
 */
export function slugOf(paths: readonly string[], pathname: string): string | undefined {
  const params = matchPaths(paths, pathname);
  return params ? (params.slug ?? "") : undefined;
}
