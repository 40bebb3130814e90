// What a project's netlify.toml must say of the site `littlepress build` wrote. Netlify publishes its
// [build] publish folder and bundles each function's included_files, and the deployed functions read the
// data of the site their bundle holds (lib/edge/site-folder.ts's deployedSite). A site built into dist/ by
// its Eleventy config, under a netlify.toml copied from the starter (publish "_site", "_site_data/**"),
// would deploy an older folder, or functions without their data: `littlepress build` says so, and fails.
import { existsSync } from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";
import { DATA_SUFFIX, siteDataDir } from "../model/site-paths.ts";
import { readNetlifyConfig } from "./netlify-config.ts";

/** Where the project's netlify.toml does not deploy the site built into `output` (none without a netlify.toml). */
export function netlifyMismatches(root: string, output: string): ContentProblem[] {
  const file = path.join(root, "netlify.toml");
  if (!existsSync(file)) return [];
  const config = readNetlifyConfig(file);
  const site = path.resolve(root, output);
  const built = path.relative(root, site).split(path.sep).join("/");
  const data = `${built}${DATA_SUFFIX}`;
  const problems: ContentProblem[] = [];
  if (path.resolve(root, config.publish) !== site)
    problems.push({
      file: "netlify.toml",
      field: "build.publish",
      problem: `is "${config.publish}", but the site is built into ${built}/: Netlify would publish another folder`,
      fix: `set publish = "${built}", or build into ${config.publish}/ (--output ${config.publish})`,
    });
  const elsewhere = Object.entries(config.includedFiles).filter(([, globs]) =>
    globs.some((glob) => {
      const folder = dataFolderOf(glob);
      return folder !== undefined && path.resolve(root, folder) !== siteDataDir(site);
    }),
  );
  if (elsewhere.length)
    problems.push({
      file: "netlify.toml",
      field: elsewhere.map(([name]) => `functions.${name}.included_files`).join(", "),
      problem:
        `names another folder than ${data}/, where the build writes the functions' data: ` +
        "deployed, they would have none",
      fix: `write ${data}/ for it (as "${data}/**", "${data}/site.json")`,
    });
  return problems;
}

/** The functions' data folder a glob of included_files names (`_site_data/**`: `_site_data`), if it names one. */
function dataFolderOf(glob: string): string | undefined {
  const parts = glob.replace(/^\.\//, "").split("/");
  const at = parts.findIndex((part) => part.endsWith(DATA_SUFFIX) || /[*?{[]/.test(part));
  if (at < 0 || /[*?{[]/.test(parts[at]!)) return undefined;
  return parts.slice(0, at + 1).join("/");
}
