// The command line: arguments, exit codes, text and JSON output, progress on
// stderr, and a clear answer (never a stack trace) for bad input.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../scripts/check.ts";
import { fakeEdition, goodPublication, makePng, type RunningFake, startFake } from "./broken-servers.ts";
import { compiled } from "../helpers/kit-script.ts";
import { closedPorts } from "../helpers/server.ts";

const run = promisify(execFile);

/** main() with its output captured. */
async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

const find = (report: { checks: { id: string }[] }, id: string) => report.checks.find((c) => c.id === id);

let good: RunningFake;
let textJson: RunningFake;
let broken: RunningFake;
beforeAll(async () => {
  good = await startFake(goodPublication());
  textJson = await startFake({ ...goodPublication(), metaContentType: "text/json" });
  // a blank icon, and a 400 for a delivery_count that is not a number
  broken = await startFake({
    ...goodPublication(),
    icon: makePng(55, 55, "white"),
    edition: (q) => (/^\d*$/.test(q.get("delivery_count") ?? "") ? fakeEdition(q) : { status: 400 }),
  });
});
afterAll(() => Promise.all([good.close(), textJson.close(), broken.close()]));

describe("arguments", () => {
  it("--help prints the usage and exits 0", async () => {
    const { code, stdout } = await cli("--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run check -- <base_url>/);
  });

  it.each([
    [[], /give the publication's URL/],
    [["not a url"], /the address given is not a URL/],
    [["http://alice:hunter2@127.0.0.1/pub/"], /^check: a publication URL carries no user name or password/],
    [["ftp://example.com/pub/"], /not an http\(s\) URL/],
    [["http://127.0.0.1/pub/", "--days", "two"], /--days must be a whole number from 1 to 366, not "two"/],
    [["http://127.0.0.1/pub/", "--hour", "24"], /--hour must be a whole number from 0 to 23/],
    [["http://127.0.0.1/pub/", "--tz", "Mars/Olympus"], /--tz "Mars\/Olympus" is not a time zone/],
    [["http://127.0.0.1/pub/", "--start", "2026-02-30"], /--start must be a date written YYYY-MM-DD/],
    [["http://127.0.0.1/pub/", "--config", "lang"], /--config takes NAME=VALUE/],
    [["http://127.0.0.1/pub/", "--timeout", "0"], /--timeout is in seconds/],
    [["http://127.0.0.1/pub/", "--colour"], /^check: unknown option '--colour'; see --help\n$/],
  ])("%j is refused with one sentence, a pointer to --help and exit code 2", async (argv, message) => {
    const { code, stdout, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/^check: [^\n]*; see --help\n$/);
  });
});

describe("reports", () => {
  it("prints a readable report with the request behind each check, progress on stderr, exit 0", async () => {
    const { code, stdout, stderr } = await cli(
      good.url,
      "--start",
      "2026-01-09",
      "--tz",
      "Europe/London",
      "--tz",
      "America/Los_Angeles",
    );
    expect(code).toBe(0);
    expect(stdout).toContain(`littlepress check: ${good.url}`);
    expect(stdout).toMatch(
      new RegExp(
        / {2}PASS {2}edition\.etag-daily: .*\n.*\n {8}GET http:\/\/127\.0\.0\.1:\d+\/pub\/edition\//.source +
          /\?local_delivery_time=2026-01-\d\dT06%3A00%3A00%2B00%3A00&delivery_count=\d&lang=en&name=Ada\n/.source,
      ),
    );
    expect(stdout).toMatch(/\nOK: \d+ passed, 0 warnings, 0 failed, 0 skipped\n$/);
    expect(stderr).toContain("check: day 3/14 Europe/London delivery_count=2: 204");
    expect(stderr).toContain("check: day 3/14 America/Los_Angeles delivery_count=2: 204");
  });

  it("--json prints the report as JSON", async () => {
    const { code, stdout } = await cli(good.url, "--json", "--start", "2026-01-09", "--days", "3");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { checks: { id: string; status: string }[] };
    expect(report).toMatchObject({
      ok: true,
      base: good.url,
      plan: { start: "2026-01-09", days: 3, hour: 6, zones: ["UTC"] },
    });
    expect(report.checks.find((c: { id: string }) => c.id === "edition.status")).toMatchObject({ status: "pass" });
  });

  it("--json on a failing publication: only JSON on stdout, every check with id, title, status; exit 1", async () => {
    const { code, stdout, stderr } = await cli(broken.url, "--json", "--start", "2026-01-09", "--days", "2");
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { ok: boolean; checks: { id: string; title: string; status: string }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => c.status === "fail").map((c) => c.id)).toEqual([
      "meta.icon-drawn",
      "edition.bad-values",
    ]);
    for (const c of report.checks) expect(c).toMatchObject({ id: expect.any(String), title: expect.any(String) });
    expect(find(report, "edition.bad-values")).toMatchObject({ detail: expect.stringMatching(/answered 400/) });
    expect(stderr).toMatch(/^check: /m);
  });

  it("a warning leaves the exit code 0, and --strict makes it 1", async () => {
    expect((await cli(textJson.url, "--days", "2")).code).toBe(0);
    const strict = await cli(textJson.url, "--days", "2", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/FAIL {2}meta\.content-type/);
  });

  it("an unreachable server is a FAIL with a reason, exit 1, no stack trace", async () => {
    const url = `http://127.0.0.1:${(await closedPorts(1))[0]}/pub/`;
    const { code, stdout, stderr } = await cli(url);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL {2}meta\.reachable: meta\.json answers 200\n {8}no answer: connection refused/);
    expect(stdout).toMatch(/NOT READY: 0 passed, 0 warnings, 1 failed/);
    expect(stdout).not.toContain("--timeout"); // refused is not slow: no advice to wait longer
    expect(stdout + stderr).not.toMatch(/\n\s+at /);
  });

  it("runs as a script: the same answer and exit code from a real process", async () => {
    const url = `http://127.0.0.1:${(await closedPorts(1))[0]}/pub/`;
    const failure = await run(process.execPath, [compiled("scripts/check.ts"), url, "--timeout", "2"], {
      timeout: 15_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stdout: string }).stdout).toContain("no answer: connection refused");
    expect((failure as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  }, 20_000);
});
