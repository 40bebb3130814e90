// The CI workflow is valid YAML and runs what the README promises.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { expect, it } from "vitest";

type Step = { name?: string; run?: string; uses?: string; if?: string; env?: Record<string, string> };
const workflow = parse(readFileSync(".github/workflows/ci.yml", "utf8")) as {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
const runs = steps.map((s) => s.run ?? "").join("\n");

it("runs on every push and pull request", () => {
  expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
});

// npm run verify runs the conformance checker on every publication in content/;
// the lint comes after the tests (its failure hides none of their results) and
// before the deploy.
it("installs, tests, builds, runs the conformance checker, lints and deploys, in that order", () => {
  const order = ["npm ci", "npm test", "npm run build", "npm run verify", "npm run lint", "netlify deploy"].map((cmd) =>
    runs.indexOf(cmd),
  );
  expect(order.every((i) => i >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
});

it("names no publication: authors replace the examples", () => {
  expect(runs).not.toMatch(/lighthouse|almanac|good-morning/);
});

it("runs the same in .ci/run: the kit's tests, the author's publications, then the lint", () => {
  const commands = readFileSync(".ci/run", "utf8")
    .split("\n")
    .filter((line) => /^npm /.test(line));
  expect(commands).toEqual(["npm ci --no-audit --no-fund", "npm test", "npm run verify", "npm run lint"]);
});

it("deploys only on main, and skips with a clear line without the secrets", () => {
  const deploy = steps.find((s) => s.run?.includes("netlify deploy"));
  expect(deploy?.if).toContain("refs/heads/main");
  expect(Object.keys(deploy?.env ?? {}).sort()).toEqual(["NETLIFY_AUTH_TOKEN", "NETLIFY_SITE_ID"]);
  expect(deploy?.run).toMatch(
    new RegExp(
      /if \[ -z "\$NETLIFY_AUTH_TOKEN" \] \|\| \[ -z "\$NETLIFY_SITE_ID" \]; then/.source +
        /\s+echo "Skipping the deploy[^"]*"\s+exit 0/.source,
    ),
  );
});
