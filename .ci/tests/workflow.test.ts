// The workflows are valid YAML and run what the README promises: CI on every
// push, and the daily rebuild.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

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

it("runs the same in .ci/run: the kit's tests, the author's publications, then the lint, said last", () => {
  const lines = readFileSync(".ci/run", "utf8").split("\n");
  // Each step runs through step(), which times it; lint runs beside verify, its output kept in a file.
  const commands = lines.flatMap((line) => /^step (npm [^>&|]*?)\s*(>.*|\|\|.*)?$/.exec(line)?.[1] ?? []);
  expect(commands).toEqual([
    "npm ci --no-audit --no-fund --engine-strict",
    "npm test",
    "npm run lint",
    "npm run verify",
  ]);
  const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
  expect(at(/^step npm run lint .*&$/)).toBeGreaterThan(at(/^step npm test$/));
  // lint's output is printed once verify has ended, and a failing verify's status is the run's.
  expect(at(/^cat "\$lint_log"$/)).toBeGreaterThan(at(/^step npm run verify/));
  expect(at(/exit "\$verify_status"/)).toBeLessThan(at(/^exit "\$lint_status"$/));
});

// A package that does not support the Node CI runs on fails the install (EBADENGINE), as in .ci/run, not just warns.
it("installs engine-strict, as .ci/run does", () => {
  expect(steps.find((s) => s.name === "Install")?.run).toBe("npm ci --engine-strict");
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

// The daily rebuild (.github/workflows/rebuild.yml): a schedule that calls the
// Netlify build hook kept as a secret. Its script runs here as GitHub runs it,
// against a local server standing in for Netlify.
describe("the scheduled rebuild", () => {
  const rebuild = parse(readFileSync(".github/workflows/rebuild.yml", "utf8")) as {
    on: { schedule?: { cron: string }[]; workflow_dispatch?: unknown };
    jobs: Record<string, { steps: Step[]; "timeout-minutes"?: number }>;
  };
  const job = Object.values(rebuild.jobs)[0]!;
  const step = job.steps.find((s) => s.run?.includes("NETLIFY_BUILD_HOOK"))!;

  /** Runs the step's script with bash, the hook given (or not), as the runner would. */
  function runStep(hook: string) {
    return new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = execFile(
        "bash",
        ["-e", "-c", step.run!],
        { env: { ...process.env, NETLIFY_BUILD_HOOK: hook }, timeout: 20_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: stdout + stderr }),
      );
      child.stdin?.end();
    });
  }

  it("runs once a day at a fixed hour, and by hand", () => {
    expect(Object.keys(rebuild.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    expect(rebuild.on.schedule).toHaveLength(1);
    const [minute, hour, ...rest] = rebuild.on.schedule![0]!.cron.split(" ");
    expect(rest).toEqual(["*", "*", "*"]);
    expect(Number(minute)).toBeGreaterThanOrEqual(0);
    expect(Number(minute)).toBeLessThan(60);
    expect(Number(hour)).toBeGreaterThanOrEqual(0);
    expect(Number(hour)).toBeLessThan(24);
    expect(job["timeout-minutes"]).toBeLessThanOrEqual(10);
  });

  it("takes the hook from the secret NETLIFY_BUILD_HOOK, and names no publication", () => {
    // GitHub's expression syntax, not a JavaScript template.
    expect(step.env).toEqual({ NETLIFY_BUILD_HOOK: ["$", "{{ secrets.NETLIFY_BUILD_HOOK }}"].join("") });
    expect(step.run).not.toMatch(/lighthouse|almanac|good-morning|sun-and-moon/);
  });

  it("fails, saying what to set, when the secret is missing", async () => {
    const { code, output } = await runStep("");
    expect(code).toBe(1);
    expect(output).toContain("::error::The repository secret NETLIFY_BUILD_HOOK is not set");
    expect(output).toContain("Build hooks");
  });

  it("POSTs to the hook, and fails when Netlify refuses it", async () => {
    const seen: { method?: string; url?: string }[] = [];
    let status = 200;
    const server = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url });
      req.resume();
      res.statusCode = status;
      res.end(status === 200 ? "" : "no such hook");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/build_hooks/abc123`;
      const ok = await runStep(hook);
      expect(ok.code).toBe(0);
      expect(seen).toEqual([{ method: "POST", url: "/build_hooks/abc123?trigger_title=Daily+rebuild" }]);
      expect(ok.output).toContain("Netlify accepted the build");
      status = 404;
      const refused = await runStep(hook);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain("no such hook");
      expect(refused.output).not.toContain("Netlify accepted the build");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 30_000);
});
