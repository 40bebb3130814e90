// The model's rules that the desk's pages use (lib/model/desk-rules.ts and what
// it imports), bundled into one ES module for the browser, which cannot load
// TypeScript: the desk imports it as ./model.js, so its simulator keeps the
// model's rules rather than a copy. Here esbuild bundles it the first time a
// process asks. The package ships the bundle made ahead in this module's
// place (scripts/precompile.ts, run by `npm run prepare`): a build then
// neither loads esbuild nor starts its process.
import { PACKAGE_ROOT, siblingModule } from "./package-files.ts";

/** The bundle, made once per process: the model does not change while one runs (`npm start` rebuilds content). */
let deskModel: Promise<string> | undefined;

/** The desk's /_desk/model.js. */
export function deskModelScript(): Promise<string> {
  deskModel ??= import("esbuild")
    .then(({ build }) =>
      build({
        // From the package's folder, whatever the working folder: the bundle names its source files by path.
        absWorkingDir: PACKAGE_ROOT,
        entryPoints: [siblingModule("../model/desk-rules", import.meta.url)],
        bundle: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        write: false,
        legalComments: "none",
        banner: { js: "// Made from lib/model/desk-rules.ts (lib/build/desk-model.ts): edit that, not this." },
      }),
    )
    .then((result) => result.outputFiles[0]!.text);
  return deskModel;
}
