// netlify.toml, read once for everyone who needs it: the local server (the
// publish and functions folders, redirects and custom headers, routed by the
// same app as everything else: lib/server/app.ts) and `npm run bundle` (each
// function's included_files). The functions' own routes are in their
// `config.path` (functions/*.mts).
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";

export interface RedirectRule {
  from: string;
  to: string;
  status: number;
  force: boolean;
}

export interface HeaderRule {
  for: string;
  values: Record<string, string>;
}

export interface NetlifyConfig {
  publish: string;
  functions: string;
  /** Per function, the files of the site it carries besides its code (`[functions.<name>] included_files`). */
  includedFiles: Record<string, string[]>;
  redirects: RedirectRule[];
  headers: HeaderRule[];
}

export function readNetlifyConfig(file = "netlify.toml"): NetlifyConfig {
  const toml = parse(readFileSync(file, "utf8")) as {
    build?: { publish?: string };
    functions?: { directory?: string } & Record<string, { included_files?: string[] } | string>;
    redirects?: { from: string; to: string; status?: number; force?: boolean }[];
    headers?: { for: string; values: Record<string, string> }[];
  };
  return {
    publish: toml.build?.publish ?? "_site",
    functions: toml.functions?.directory ?? "netlify/functions",
    includedFiles: Object.fromEntries(
      Object.entries(toml.functions ?? {}).flatMap(([name, settings]) =>
        typeof settings === "object" && settings.included_files ? [[name, settings.included_files]] : [],
      ),
    ),
    redirects: (toml.redirects ?? []).map((r) => ({
      from: r.from,
      to: r.to,
      status: r.status ?? 301,
      force: r.force ?? false,
    })),
    headers: (toml.headers ?? []).map((h) => ({ for: h.for, values: h.values })),
  };
}

/** Fills `:name` and `:splat` placeholders of a redirect target. */
export function fillTarget(to: string, params: Record<string, string>): string {
  return to.replace(/:([A-Za-z_]+)/g, (whole, name: string) => params[name] ?? whole);
}
