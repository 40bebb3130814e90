// Files the package carries besides its code: the desk's templates and scripts,
// the default print layout. They are found from this module, wherever the
// package is: lib/build/ in the repository, dist/lib/build/ once compiled and
// installed under an author's node_modules/.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The package's folder: the nearest one above this module with a package.json (dist/ has none). */
function packageRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`littlepress: no package.json above ${here}`);
  }
}

export const PACKAGE_ROOT = packageRoot();

/** A file or folder of the package, e.g. packageFile("layouts", "desk"). */
export const packageFile = (...parts: string[]) => path.join(PACKAGE_ROOT, ...parts);

/**
 * A module of the kit beside `moduleUrl`, with the extension the kit runs with:
 * .ts from the source (tsx, vitest), .js once compiled.
 */
export const siblingModule = (relative: string, moduleUrl: string) =>
  fileURLToPath(new URL(`${relative}${path.extname(moduleUrl)}`, moduleUrl));

/** The package's own Netlify functions: compiled (dist/functions/*.mjs) once the package is, else their source. */
export const packageFunctions = () =>
  import.meta.url.endsWith(".ts") ? packageFile("functions") : packageFile("dist", "functions");
