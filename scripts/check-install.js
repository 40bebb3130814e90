// Whether littlepress is installed in this site, said plainly when it is not.
// A copy of the littlepress repository that kept its package-lock.json has
// node_modules/littlepress linked to the repository's workspace,
// packages/littlepress, which the copy lacks: npm ci installs nothing there
// and says nothing, and npm start answers only "littlepress: not found".
// `npm test` checks first; on its own, `node scripts/check-install.js` exits 1
// with the fix.
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** What is wrong with littlepress in the site at `site`, or undefined when it is installed. */
export function installProblem(site = ".") {
  const installed = path.join(site, "node_modules", "littlepress");
  if (existsSync(path.join(installed, "package.json"))) return undefined;
  const link = existsSync(installed) || !isLink(installed) ? undefined : readlinkSync(installed);
  if (link === undefined)
    return "littlepress is not installed here (no node_modules/littlepress).\n  fix: npm ci (or npm install)";
  return (
    `littlepress is not installed here: node_modules/littlepress links to ${link}, which is not there.\n` +
    "  This folder's package-lock.json is the littlepress repository's, where littlepress is a workspace.\n" +
    "  fix: make your site with `npx littlepress new <folder>` at the littlepress repository's root\n" +
    '    (docs/upgrading.md: "A site of your own"); or here, delete package-lock.json and node_modules/,\n' +
    '    remove "workspaces" from package.json, and run npm install'
  );
}

function isLink(file) {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = installProblem();
  if (problem) {
    console.error(problem);
    process.exitCode = 1;
  }
}
