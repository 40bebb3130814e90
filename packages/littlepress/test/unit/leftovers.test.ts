import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { removeFailedBuild } from "../../lib/build/leftovers.ts";

const leftovers = path.resolve("lib/build/leftovers.ts");

/** A folder of pages with a writer that keeps adding late pages to it, as Eleventy's transforms do after a failure. */
function folderWithLateWrites(root: string): { folder: string; stop: () => Promise<number> } {
  const folder = path.join(root, "_site.next");
  mkdirSync(path.join(folder, "post"), { recursive: true });
  for (let i = 0; i < 300; i++) writeFileSync(path.join(folder, "post", `page-${i}.html`), "<p>page</p>");
  const state = { writing: true, written: 0 };
  const writer = (async () => {
    while (state.writing) {
      // The removal can take a folder from under a call (ENOENT): the next round makes it again.
      await mkdir(path.join(folder, "post"), { recursive: true })
        .then(() => writeFile(path.join(folder, "post", `late-${state.written++}.html`), "<p>late</p>"))
        .catch(() => {});
    }
  })();
  return {
    folder,
    stop: async () => {
      state.writing = false;
      await writer;
      return state.written;
    },
  };
}

describe("a failed build's folders", () => {
  it("are removed without an error of their own while late pages are still being written into them", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "leftovers-"));
    const { folder, stop } = folderWithLateWrites(root);
    await expect(removeFailedBuild(folder, path.join(root, "_site_data.next"))).resolves.toBeUndefined();
    expect(await stop()).toBeGreaterThan(0);
    rmSync(root, { recursive: true, force: true });
  });

  it("are gone once the process exits, after the late writes that made them again", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "leftovers-"));
    const script = path.join(root, "fail.mts");
    writeFileSync(
      script,
      `import { removeFailedBuild } from ${JSON.stringify(leftovers)};
import { mkdirSync, writeFileSync } from "node:fs";
const folder = ${JSON.stringify(path.join(root, "_site.next"))};
mkdirSync(folder + "/post", { recursive: true });
await removeFailedBuild(folder);
// A page that left Eleventy's transforms after the build failed.
mkdirSync(folder + "/post", { recursive: true });
writeFileSync(folder + "/post/late.html", "<p>late</p>");
console.log("late page written");
`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], { timeout: 30_000 });
    expect(stdout).toContain("late page written");
    expect(existsSync(path.join(root, "_site.next"))).toBe(false);
    rmSync(root, { recursive: true, force: true });
  });
});
