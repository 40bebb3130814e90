// netlify.toml, read once for everyone who needs it: the local server (the
// publish and functions folders, redirects and custom headers, routed by the
// same app as everything else: lib/server/app.ts) and `npm run bundle` (each
// function's included_files). The functions' own routes are in their
// `config.path` (functions/*.mts).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { packageFile } from "../build/package-files.ts";
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

/**
 * The package's copy of the starter's netlify.toml, for a site that has none (a blog served before it is
 * set up for Netlify). Not named netlify.toml: in the starter repository, netlify-cli takes a workspace
 * package holding a netlify.toml for the site to build and deploy, and the starter's root would not be.
 */
export const STARTER_NETLIFY_CONFIG = "netlify.starter.toml";

/** The project's own netlify.toml, else the package's copy of the starter's (a blog not set up for Netlify). */
export const projectNetlifyConfig = (root: string) => {
  const own = path.join(root, "netlify.toml");
  return readNetlifyConfig(existsSync(own) ? own : packageFile(STARTER_NETLIFY_CONFIG));
};

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
