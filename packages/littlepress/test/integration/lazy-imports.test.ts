// The edition function's cold start is mostly its imports: ajv (the settings'
// validator, about half of them) is imported only once a publication with
// settings is opened. Checked in a fresh process, as a function starts.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { builtSite } from "../helpers/sites.ts";

const run = promisify(execFile);

/** In a fresh process: the status of each request, in turn, and whether ajv was loaded after it. */
async function coldRequests(site: string, paths: string[]): Promise<{ status: number; ajv: boolean }[]> {
  const script = `
    import { createRequire } from "node:module";
    const { callFunction } = await import("./test/helpers/handlers.ts");
    const edition = await import("./functions/edition.mts");
    const cache = createRequire(process.cwd() + "/").cache;
    const context = { littlepress: { site: ${JSON.stringify(site)} } };
    const seen = [];
    for (const p of ${JSON.stringify(paths)}) {
      const res = await callFunction(edition, new Request("http://127.0.0.1" + p), context);
      seen.push({ status: res.status, ajv: Object.keys(cache).some((f) => /[\\\\/]ajv[\\\\/]/.test(f)) });
    }
    console.log(JSON.stringify(seen));
  `;
  const args = ["--import", "tsx", "--input-type=module", "-e", script];
  const { stdout } = await run(process.execPath, args, { timeout: 30_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { status: number; ajv: boolean }[];
}

it("answers a publication without settings without importing ajv, and imports it for one with settings", async () => {
  const site = path.resolve(builtSite("basic"));
  const seen = await coldRequests(site, [
    "/serial/edition/?delivery_count=0",
    "/settings/edition/?delivery_count=0&lang=fr",
  ]);
  expect(seen).toEqual([
    { status: 200, ajv: false },
    { status: 200, ajv: true },
  ]);
});
