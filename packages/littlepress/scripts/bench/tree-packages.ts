// The packages a "before" kit needs that this project no longer installs. A
// checked-out or copied kit finds this project's node_modules by walking up
// (tree.ts), which holds what the kit needs today: a package the kit has since
// dropped (node-html-parser, gone in issue 51, which the default before still
// imports) is missing there, and that kit's server did not start. Those are
// installed for the tree alone, each package with its own dependencies nested
// inside it, so that neither this project's packages nor the tree's others
// change: the before server and Netlify's bundler both resolve them as Node does.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { installedPackage, progress } from "./util.ts";

/** name -> version range, from the kit's package.json `dependencies`. */
function dependencies(kit: string): Record<string, string> {
  const manifest = path.join(kit, "package.json");
  if (!existsSync(manifest)) return {};
  return (JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {};
}

/** Whether `name` resolves from `dir` as Node resolves a bare import: a node_modules folder here or above. */
function resolves(name: string, dir: string): boolean {
  try {
    installedPackage(name, dir);
    return true;
  } catch {
    return false;
  }
}

/** The kit's dependencies that do not resolve from it, as `name@range`. */
export function missingPackages(kit: string): string[] {
  return Object.entries(dependencies(kit))
    .filter(([name]) => !resolves(name, kit))
    .map(([name, range]) => `${name}@${range}`);
}

/** What installMissing placed in a kit's node_modules, to place again where that folder is remade (bundles). */
export interface PlacedPackages {
  /** The folder npm installed them in. */
  store: string;
  names: string[];
}

const INSTALL_TIMEOUT_MS = 300_000;

/**
 * Installs the kit's missing dependencies (npm, from the configured registry) into `store`, then places each in
 * the kit's node_modules with the rest of the install nested inside it.
 */
export function installMissing(kit: string, store: string): PlacedPackages {
  const missing = missingPackages(kit);
  if (!missing.length) return { store, names: [] };
  progress(`install ${missing.join(", ")}: the kit before needs them, and this project no longer has them`);
  mkdirSync(store, { recursive: true });
  // --prefix: npm would otherwise install into the nearest project above (this one).
  const args = [
    "install",
    "--prefix",
    store,
    "--no-save",
    "--no-package-lock",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
  ];
  const npm = spawnSync("npm", [...args, ...missing], { cwd: store, encoding: "utf8", timeout: INSTALL_TIMEOUT_MS });
  if (npm.status !== 0)
    throw new Error(`npm install ${missing.join(" ")} for the kit before failed: ${npm.stderr || npm.error}`);
  const placed = { store, names: missing.map((spec) => spec.slice(0, spec.lastIndexOf("@"))) };
  placePackages(placed, path.join(kit, "node_modules"));
  return placed;
}

/** Copies each placed package from its store into `modules`, with the store's other packages nested in it. */
export function placePackages({ store, names }: PlacedPackages, modules: string): void {
  if (!names.length) return;
  const installed = path.join(store, "node_modules");
  const others = readdirSync(installed).filter((entry) => !entry.startsWith(".") && !names.includes(entry));
  for (const name of names) {
    const to = path.join(modules, name);
    rmSync(to, { recursive: true, force: true });
    cpSync(path.join(installed, name), to, { recursive: true });
    for (const other of others)
      cpSync(path.join(installed, other), path.join(to, "node_modules", other), { recursive: true, force: false });
  }
}
