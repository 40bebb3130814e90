// npm start's watch never takes the server down: a folder it cannot watch is
// said once, and the rest are watched (LiveSite, compiled, in a child process,
// as littlepress start runs it, on real files).
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { FIXTURES } from "../helpers/sites.ts";
import { compiled } from "../helpers/kit-script.ts";

const run = promisify(execFile);
mkdirSync(".test-work", { recursive: true });
const root = path.resolve(mkdtempSync(path.join(".test-work", "live-watch-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it(
  "starts when a folder cannot be watched (a file named as one), says so, and rebuilds saves elsewhere",
  { timeout: 180_000 },
  async () => {
    const content = path.join(root, "content");
    cpSync(path.join(FIXTURES, "basic", "serial"), path.join(content, "serial"), { recursive: true });
    const notAFolder = path.join(root, "notes.txt");
    writeFileSync(notAFolder, "not a folder\n");
    const saved = path.join(content, "serial", "editions", "0.md");
    const script = `
    import { writeFileSync } from "node:fs";
    const { LiveSite } = await import(${JSON.stringify(`./${compiled("lib/build/live.ts")}`)});
    const lines = [];
    const live = new LiveSite({
      content: ${JSON.stringify(path.relative(".", content))},
      output: ${JSON.stringify(path.relative(".", path.join(root, "_site")))},
      watch: ${JSON.stringify([content, notAFolder])},
      log: (line) => lines.push(line),
    });
    await live.start();
    const first = live.state;
    const rebuilt = new Promise((resolve) => live.subscribe((s) => s.build === 2 && resolve(s)));
    writeFileSync(${JSON.stringify(saved)}, "---\\nnumber: 0\\n---\\nSaved.\\n");
    const second = await Promise.race([rebuilt, new Promise((r) => setTimeout(() => r("no rebuild"), 60_000).unref())]);
    await live.close();
    console.log(JSON.stringify({ first, second, lines }));
  `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 150_000,
    });
    const { first, second, lines } = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      first: unknown;
      second: unknown;
      lines: string[];
    };
    expect(first).toEqual({ build: 1 });
    expect(lines.filter((l) => l.includes("cannot watch"))).toEqual([
      `littlepress: cannot watch ${notAFolder}/: a save there is not rebuilt until npm start restarts`,
    ]);
    expect(second).toEqual({ build: 2 });
  },
);
