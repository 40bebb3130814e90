// `npm test` (scripts/test.js) as a site made from the starter runs it: its
// tests, with its type check beside them, in a small site of the test's own
// (this repository's installed packages, linked). A type error fails the run
// after the tests, naming the command, with tsc's message and exit code. In
// the littlepress repository's shape, the site's tests run even when the kit's
// fail, and the end says both. (A site whose tests and types pass:
// starter.test.ts runs npm test in the site littlepress new makes.)
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { outsideFolder } from "./packed.ts";

const run = promisify(execFile);
const sites: string[] = [];

const PASSING = 'import { expect, it } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n';
const FAILING = 'import { expect, it } from "vitest";\nit("subtracts", () => expect(2 - 1).toBe(3));\n';
const VITEST_CONFIG = "export default { test: { include: ['test/**/*.test.ts'] } };\n";
/** A site whose tests and types pass. */
const SITE = {
  "package.json": JSON.stringify({ type: "module", private: true }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: "NodeNext" },
    include: ["test"],
  }),
  "vitest.config.mjs": VITEST_CONFIG,
  "test/sum.test.ts": PASSING,
};
/** The same in the shape of the littlepress repository: the kit a workspace beside it, its tests failing. */
const WITH_FAILING_KIT = {
  ...SITE,
  "package.json": JSON.stringify({ type: "module", private: true, workspaces: ["packages/littlepress"] }),
  "packages/littlepress/package.json": JSON.stringify({ name: "littlepress", scripts: { typecheck: "node -e 0" } }),
  "packages/littlepress/vitest.config.mjs": VITEST_CONFIG,
  "packages/littlepress/test/kit.test.ts": FAILING,
};

/** A site of the test's own, removed after the tests: scripts/, this repository's packages linked, and `files`. */
function siteWith(files: Record<string, string>): string {
  const site = outsideFolder("test-command");
  sites.push(site);
  cpSync("scripts", path.join(site, "scripts"), { recursive: true });
  symlinkSync(path.resolve("node_modules"), path.join(site, "node_modules"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
    writeFileSync(path.join(site, file), text);
  }
  return site;
}
afterAll(() => sites.forEach((site) => rmSync(site, { recursive: true, force: true })));

/**
 * A bound on a hang, not on the speed: npm test here takes 5-10 s alone, and a loaded run (a load average of 15)
 * stopped it at 90 s, after both of its suites had finished.
 */
const BOUND_MS = 300_000;

/** `node scripts/test.js` in `site`: its exit code and output (which says so if it was stopped at the bound). */
async function npmTest(site: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/test.js"], { cwd: site, timeout: BOUND_MS });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string; killed?: boolean };
    const stopped = e.killed ? `\n(stopped after ${BOUND_MS / 1000} s)` : "";
    return { code: e.code, output: `${e.stdout ?? ""}${e.stderr ?? ""}${stopped}` };
  }
}

// Each runs npm test, whose vitest and tsc take seconds each on a busy machine.
const SLOW = { timeout: BOUND_MS + 30_000 };

it("fails on a type error after the tests have run, naming the command and the error", SLOW, async () => {
  const { code, output } = await npmTest(
    siteWith({ ...SITE, "test/typo.ts": 'export const count: number = "three";\n' }),
  );
  expect(output).toMatch(/1 passed/);
  expect(output).toMatch(/npm exec -- tsc failed \(exit 2\):\ntest\/typo\.ts\(1,14\): error TS2322/);
  expect(code).toBe(2); // tsc's own exit code
});

it("runs the site's tests when the kit's fail, and says both results at the end", SLOW, async () => {
  const { code, output } = await npmTest(siteWith(WITH_FAILING_KIT));
  expect(output).toMatch(/1 failed/); // the kit's
  expect(output).toMatch(/1 passed/); // the site's, run all the same
  expect(output).toContain(
    "\nnpm test:\n  the kit's tests (packages/littlepress): failed (exit 1)\n  the site's tests: passed\n",
  );
  expect(code).toBe(1);
});
