// The subset of Netlify's routing that netlify.toml uses here: redirects
// (rewrites to functions, forced 404s, plain redirects) and custom headers.
// The local server applies them in the same order Netlify does.
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";

export interface RedirectRule {
  from: string;
  to: string;
  status: number;
  force: boolean;
  match(pathname: string): Record<string, string> | null;
}

export interface HeaderRule {
  for: string;
  values: Record<string, string>;
  match(pathname: string): Record<string, string> | null;
}

export interface NetlifyConfig {
  publish: string;
  functions: string;
  redirects: RedirectRule[];
  headers: HeaderRule[];
}

/** Compiles a Netlify path pattern (`/:slug/edition/`, `/_littlepress/*`) into a matcher. */
export function pathPattern(pattern: string): (pathname: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split("/")
    .map((part) => {
      if (part === "*") return names.push("splat"), "(.*)";
      if (part.startsWith(":")) return names.push(part.slice(1)), "([^/]+)";
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  const re = new RegExp(`^${source}$`);
  return (pathname) => {
    const m = re.exec(pathname);
    return m ? Object.fromEntries(names.map((n, i) => [n, m[i + 1] ?? ""])) : null;
  };
}

export function readNetlifyConfig(file = "netlify.toml"): NetlifyConfig {
  const toml = parse(readFileSync(file, "utf8")) as {
    build?: { publish?: string };
    functions?: { directory?: string };
    redirects?: { from: string; to: string; status?: number; force?: boolean }[];
    headers?: { for: string; values: Record<string, string> }[];
  };
  return {
    publish: toml.build?.publish ?? "_site",
    functions: toml.functions?.directory ?? "netlify/functions",
    redirects: (toml.redirects ?? []).map((r) => ({ from: r.from, to: r.to, status: r.status ?? 301, force: r.force ?? false, match: pathPattern(r.from) })),
    headers: (toml.headers ?? []).map((h) => ({ for: h.for, values: h.values, match: pathPattern(h.for) })),
  };
}

/** Fills `:name` and `:splat` placeholders of a redirect target. */
export function fillTarget(to: string, params: Record<string, string>): string {
  return to.replace(/:([A-Za-z_]+)/g, (whole, name: string) => params[name] ?? whole);
}
