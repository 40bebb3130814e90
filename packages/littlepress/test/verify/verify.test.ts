// `npm run verify` on content folders of its own (test/verify/content/, not
// test/fixtures/: the global setup would fail on the misprinted one). Each run
// is the real command in a child process, bounded in time; its server binds
// 127.0.0.1 on a free port and stops with it.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../scripts/verify.ts";
import type { Report } from "../../scripts/check/report.ts";
import { formatVerdict } from "../../scripts/verify/summary.ts";
import { RenderError } from "../../scripts/preview/render.ts";
import { compiled } from "../helpers/kit-script.ts";
import { PAGE_MS } from "../helpers/page-time.ts";

const CONTENT = "test/verify/content";
const exec = promisify(execFile);

/**
 * A bound on a hang, not on the speed: one verify took 71 s in a loaded run (npm start and a CPU-bound process
 * beside npm test), and a page that runs out of time is rendered again with twice the time.
 */
const BOUND_MS = 300_000;

/**
 * Runs `npm run verify -- ...argv` as a child process; resolves to its exit code and output. Its pages get a page's
 * time in tests: the tests judge what verify finds in them, and its default 20 s failed them as late on a busy machine.
 */
async function verify(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [compiled("scripts/verify.ts"), "--page-timeout", String(PAGE_MS / 1000), ...argv];
  try {
    const { stdout, stderr } = await exec(process.execPath, args, { timeout: BOUND_MS, killSignal: "SIGKILL" });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; killed?: boolean; stdout: string; stderr: string };
    if (e.killed || typeof e.code !== "number") throw error; // timed out or never ran: not an answer of verify's
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** main() with its output captured, for the arguments (no build, no server). */
async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe("npm run verify on publications of every kind, one of them not ready", { timeout: BOUND_MS + 10_000 }, () => {
  const run = verify("--content", `${CONTENT}/mixed`);

  it("checks every publication the build produced, over the days of its own editions, and previews them", async () => {
    const { stdout } = await run;
    const lines = stdout.split("\n").filter((l) => /^(PASS|FAIL) /.test(l));
    const verdicts = lines.map((l) => l.split(/:? +/).slice(0, 2).join(" "));
    expect(verdicts).toEqual(["PASS diary", "FAIL postcode", "PASS tide"]);
    // From the first edition (2 March) to a day past the last (5 March), in zones on both sides of UTC;
    // its postcode field refuses the checker's sample name, and passes with the field's own default.
    // Its postcode field at its default and at its longest value the pattern takes (5 digits): two pages an edition.
    const diary =
      "5 days from 2026-03-02 at 06:00 in America/Los_Angeles, Asia/Tokyo; " +
      "3 editions previewed with every setting \\(6 variants, 6 distinct pages\\), up to";
    expect(stdout).toMatch(new RegExp(`PASS {2}diary: +\\d+ passed, 0 failed, \\d+ skipped over ${diary} \\d+ px\n`));
    // Three editions, 0 to 2: the fourth delivery is the 410 that ends the series.
    const tide = /PASS {2}tide: +\d+ passed, 0 failed, \d+ skipped over 4 deliveries from delivery_count 0; 3 editions/;
    expect(stdout).toMatch(tide);
  });

  it("reports what failed and exits 1", async () => {
    const { code, stdout } = await run;
    expect(stdout).toMatch(/FAIL {2}postcode: \d+ passed, 1 failed/);
    expect(stdout).toContain("      FAIL subscribe.accepts-valid: accepts a valid config");
    expect(stdout).toContain("refused every sample config (Postcode: please fill this in.)");
    expect(stdout).toContain("verify subscribes with each text field's default: give such a field a default");
    expect(stdout).toMatch(/\nverify: NOT READY: 1 of 3 publications failed \(postcode\) in [\d.]+ s\n$/);
    expect(code).toBe(1);
  });
});

/**
 * Writes two publications whose default settings print short pages: "scroll",
 * a select whose option `scroll` is 12,000 px long (default `short`), and
 * "names", a name (default "Al") printed a hundred times. With `defaultsOnly`
 * the select has only its default and the name at most 4 characters, so every
 * page a subscriber can get is the default one's length.
 */
function settingsContent(dir: string, defaultsOnly: boolean): void {
  const publication = (slug: string, fields: object[]) => {
    mkdirSync(path.join(dir, slug, "editions"), { recursive: true });
    const json = { name: slug, description: `The ${slug}`, owner_email: "a@example.com", delivered_on: "Daily" };
    const config = { editions: { by: "delivery_count", ends: true }, config: { fields } };
    writeFileSync(path.join(dir, slug, "publication.json"), JSON.stringify({ ...json, ...config }));
  };
  const edition = (slug: string, n: number, body: string) =>
    writeFileSync(path.join(dir, slug, "editions", `${n}.md`), `---\nnumber: ${n}\ntitle: ${slug}\n---\n${body}\n`);
  const options = defaultsOnly
    ? [["Short", "short"]]
    : [
        ["Short", "short"],
        ["Scroll", "scroll"],
      ];
  publication("scroll", [{ type: "select", name: "length", label: "Length", options, default: "short" }]);
  // Long only in Chromium: a height set by a selector the build's layout estimate does not follow (a
  // combinator), so the build passes it and only the rendering of that option can tell (the estimate
  // catches plainly long text itself: test/integration/edition-length.test.ts).
  const scroll = '<style>main > div.scroll { height: 12000px }</style><div class="scroll">A scroll.</div>';
  // Without the option, a comparison with "scroll" fails the build (option-comparisons.ts): the note alone.
  const note = defaultsOnly
    ? "A short note."
    : `{% if config.length == "scroll" %}${scroll}{% else %}A short note.{% endif %}`;
  edition("scroll", 0, note);
  edition("scroll", 1, "The same for every subscriber.");
  const name = { type: "text", name: "name", label: "Your name", required: false, default: "Al" };
  publication("names", [{ ...name, max_length: defaultsOnly ? 4 : 80 }]);
  edition("names", 0, "{% for i in (1..100) %}\nHello {{ config.name }}.\n{% endfor %}");
}

describe(
  "npm run verify renders every setting a subscriber can pick, not only the defaults",
  { timeout: BOUND_MS + 10_000 },
  () => {
    const dir = mkdtempSync(path.join(tmpdir(), "littlepress-verify-settings-"));
    const [every, defaults] = [path.join(dir, "every"), path.join(dir, "defaults")];
    settingsContent(every, false);
    settingsContent(defaults, true);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const runs = [verify("--content", every), verify("--content", defaults)];

    it("fails a select option the printer cuts, naming the publication, the edition and the option", async () => {
      const { code, stdout } = await runs[0]!;
      expect(stdout).toMatch(
        /^FAIL {2}scroll: .*2 editions previewed with every setting \(4 variants, 3 distinct pages\)/m,
      );
      expect(stdout).toMatch(
        /FAIL preview: scroll edition 0 with length=scroll is \d{5} px \(\S+ mm\) long: the printer cuts it at 10000/,
      );
      expect(stdout).not.toMatch(/scroll edition 0 with length=short/);
      expect(code).toBe(1);
    });

    it("fails a text field at max_length that wraps into a page the printer cuts, naming the length", async () => {
      const { stdout } = await runs[0]!;
      expect(stdout).toMatch(
        /^FAIL {2}names: .*1 edition previewed with every setting \(2 variants, 2 distinct pages\)/m,
      );
      expect(stdout).toMatch(/FAIL preview: names edition 0 with name=<80 characters> is \d{5} px/);
      expect(stdout).not.toMatch(/names edition 0 with name=Al/);
      expect(stdout).toMatch(/\nverify: NOT READY: 2 of 2 publications failed \(names, scroll\)/);
    });

    it("passes the same publications when every page a subscriber can get is short", async () => {
      const { code, stdout } = await runs[1]!;
      expect(stdout).toMatch(/^PASS {2}names: /m);
      expect(stdout).toMatch(/^PASS {2}scroll: /m);
      expect(stdout).toMatch(/print preview of \d+ variants as \d+ distinct pages\)/);
      expect(code).toBe(0);
    });
  },
);

describe("npm run verify on a publication that would not print well", { timeout: BOUND_MS + 10_000 }, () => {
  it("fails the --strict build, naming the file and the fix, and checks nothing", async () => {
    const { code, stdout } = await verify("--content", `${CONTENT}/misprinted/`, "--no-preview");
    const file = "test/verify/content/misprinted/tiny/editions/0.md";
    expect(stdout).toContain(`${file}: CSS\n    problem: font-size: 10px is smaller than 20 px`);
    const why = "the build of test/verify/content/misprinted/ failed (with --strict, print warnings fail it too)";
    expect(stdout).toContain(`verify: NOT READY: ${why}`);
    expect(stdout).not.toMatch(/^(PASS|FAIL) /m);
    expect(code).toBe(1);
  });
});

describe("npm run verify on publications whose templates fail", { timeout: BOUND_MS + 10_000 }, () => {
  it("names every template problem of every publication in one run (issue 52)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "littlepress-verify-templates-"));
    try {
      for (const [slug, bodies] of [
        ["first", ["{% if %}broken", "Hello {{ nmae }}."]],
        ["second", ["{{ titel }}"]],
      ] as const) {
        mkdirSync(path.join(dir, slug, "editions"), { recursive: true });
        const json = { name: slug, description: "d", owner_email: "a@example.com", delivered_on: "Daily" };
        writeFileSync(
          path.join(dir, slug, "publication.json"),
          JSON.stringify({ ...json, editions: { by: "delivery_count" } }),
        );
        bodies.forEach((body, n) =>
          writeFileSync(path.join(dir, slug, "editions", `${n}.md`), `---\nnumber: ${n}\n---\n${body}\n`),
        );
      }
      const { code, stdout } = await verify("--content", dir, "--no-preview");
      expect(stdout).toContain("littlepress found 3 problems in your content:");
      expect(stdout).toMatch(/first\/editions\/0\.md: template\n/);
      expect(stdout).toContain("first/editions/1.md: {{ nmae }}");
      expect(stdout).toContain("second/editions/0.md: {{ titel }}");
      expect(stdout).toContain("verify: NOT READY: the build of");
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("npm run verify without publications", { timeout: BOUND_MS + 10_000 }, () => {
  const empty = mkdtempSync(path.join(tmpdir(), "littlepress-verify-empty-"));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  const folders = [
    ["an empty folder", empty],
    ["a missing folder", path.join(empty, "nothing")],
  ];
  // Nothing checked is no success: a CI step that verifies the wrong folder must not pass.
  it.each(folders)("says so for %s, with what to do, and exits 1", async (_, dir) => {
    const { code, stdout } = await cli("--content", dir);
    const what = "each is a folder <slug>/ with publication.json and editions/";
    expect(stdout).toContain(
      `verify: nothing to verify: no publications in ${dir}/ (${what})\n  fix: add a publication, `,
    );
    expect(code).toBe(1);
  });
});

describe("arguments", { timeout: BOUND_MS + 10_000 }, () => {
  it("--help prints the usage and exits 0", async () => {
    const { code, stdout } = await cli("--help");
    expect(stdout).toMatch(/^Usage: npm run verify \[-- options\]\n/);
    expect(stdout).toContain("--content <dir>");
    expect(code).toBe(0);
  });

  it.each([
    [["--days", "0"], '--days must be a whole number from 1 to 366, not "0"'],
    [["--timeout", "0"], '--timeout is in seconds, above 0 and at most 600, not "0"'],
    [["--page-timeout", "x"], '--page-timeout is in seconds, above 0 and at most 600, not "x"'],
    [["--page-timeout", ""], '--page-timeout is in seconds, above 0 and at most 600, not ""'],
    [["lighthouse"], "unexpected argument: lighthouse (verify checks every publication)"],
    [["--nope"], "unknown option '--nope'"],
  ])("refuses %j with one sentence that points at --help, exit 2", async (argv, sentence) => {
    const { code, stderr } = await cli(...argv);
    expect(stderr).toBe(`verify: ${sentence}; see --help\n`);
    expect(code).toBe(2);
  });
});

describe("verify's summary of the preview", { timeout: BOUND_MS + 10_000 }, () => {
  it("fails a publication with an edition the printer cuts or a relative URL, saying which and why", () => {
    const report = { checks: [], counts: { pass: 3, warn: 0, fail: 0, skip: 0 } } as unknown as Report;
    const rows = [
      { slug: "scroll", key: "0", heightPx: 640 },
      { slug: "scroll", key: "1", heightPx: 12_000, relative: ["map.png"] },
    ];
    const text = formatVerdict({ slug: "scroll", window: "2 deliveries", report, preview: { rows }, ok: false });
    expect(text.split("\n")).toEqual([
      "FAIL  scroll: 3 passed, 0 failed, 0 skipped over 2 deliveries; 2 editions previewed, up to 12000 px " +
        "(1 longer than the advised 800 px)",
      "      FAIL preview: scroll edition 1 is 12000 px (1500 mm) long: the printer cuts it at 10000 px (1250 mm); " +
        "the rest is never printed",
      "      FAIL preview: scroll edition 1: relative URLs load nothing on the printer " +
        "(it opens the page from a file): map.png; link them by absolute URL",
      "",
    ]);
  });

  it("says how to give a late page more time, once, under the pages that ran out of it", () => {
    const report = { checks: [], counts: { pass: 3, warn: 0, fail: 0, skip: 0 } } as unknown as Report;
    // In the renderer's own words, as the preview keeps them in a row.
    const late = `the page ${RenderError.late(20_000).message}; skipped`;
    const rows = [
      { slug: "news", key: "0", error: late },
      { slug: "news", key: "1", error: late },
    ];
    const text = formatVerdict({ slug: "news", window: "2 deliveries", report, preview: { rows }, ok: false });
    expect(text.split("\n").slice(1)).toEqual([
      `      FAIL preview of edition 0: ${late}`,
      `      FAIL preview of edition 1: ${late}`,
      "           a busy machine renders slowly: npm run verify -- --page-timeout SECONDS gives each page longer",
      "",
    ]);
  });
});
