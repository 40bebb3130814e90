// `npm test` (scripts/test.js) as a site made from the starter runs it: its
// tests, with its type check beside them, in a small site of the test's own
// (this repository's installed packages, linked). A type error fails the run
// after the tests, naming the command, with tsc's message and exit code. (A
// site whose tests and types pass: starter.test.ts runs npm test in the site
// littlepress new makes.)
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { outsideFolder } from "./packed.ts";

const run = promisify(execFile);
let site: string;

const PASSING = 'import { expect, it } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n';

beforeAll(() => {
  site = outsideFolder("test-command");
  cpSync("scripts", path.join(site, "scripts"), { recursive: true });
  symlinkSync(path.resolve("node_modules"), path.join(site, "node_modules"));
  writeFileSync(path.join(site, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(
    path.join(site, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "NodeNext" }, include: ["test"] }),
  );
  writeFileSync(path.join(site, "vitest.config.mjs"), "export default { test: { include: ['test/**/*.test.ts'] } };\n");
  mkdirSync(path.join(site, "test"));
  writeFileSync(path.join(site, "test", "sum.test.ts"), PASSING);
  writeFileSync(path.join(site, "test", "typo.ts"), 'export const count: number = "three";\n');
});
afterAll(() => rmSync(site, { recursive: true, force: true }));

/** `node scripts/test.js` in the site: its exit code and output. */
async function npmTest() {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/test.js"], { cwd: site, timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

it("fails on a type error after the tests have run, naming the command and the error", async () => {
  const { code, output } = await npmTest();
  expect(output).toMatch(/1 passed/);
  expect(output).toMatch(/npm exec -- tsc failed \(exit 2\):\ntest\/typo\.ts\(1,14\): error TS2322/);
  expect(code).toBe(2); // tsc's own exit code
});
