// What sirius's browser lacks, named by verify: each case on its own (none
// where the page is plain), then through the preview of a built publication,
// where the warning names the edition's file and the script that PhantomJS
// really did not run.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { qtwebkitLacks } from "../../scripts/preview/qtwebkit.ts";
import { preview } from "../../scripts/preview/run.ts";
import { browserWarnings } from "../../scripts/preview/summary.ts";
import { formatVerdict } from "../../scripts/verify/summary.ts";
import { buildSite } from "../helpers/build-sites.ts";

const page = (body: string) => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;

describe("what QtWebKit lacks, one case at a time", () => {
  it("names nothing in a plain page, ES5 scripts, const, -webkit-flex and DejaVu's characters", () => {
    const plain = page(
      `<style>.row { display: -webkit-flex; display: flex; margin: 0 4px; }</style>
       <p style="color: #000">Привет, ☀ ∑ café — “quoted”</p>
       <script>var a = 1; const b = 2; function f(x) { return x + a + b; }</script>
       <script type="module">let ignored = () => 1;</script>`,
    );
    expect(qtwebkitLacks(plain)).toEqual([]);
  });

  const cases: [string, string, RegExp][] = [
    ["let", "<script>let a = 1;</script>", /^a script uses what ES5 lacks \(its line 1: let a = 1;\)/],
    ["an arrow function", "<script>\nvar f = (x) => x;</script>", /ES5 lacks \(its line 2: var f = \(x\) => x;\)/],
    ["a class", "<script>class A {}</script>", /ES5 lacks/],
    ["a template literal", "<script>var s = `x`;</script>", /ES5 lacks/],
    ["CSS grid", "<style>.a { display: grid; }</style>", /^CSS grid does nothing in sirius's browser/],
    ["var()", '<p style="width: var(--w)">x</p>', /^var\(\) is dropped by sirius's browser/],
    ["flex gap", "<style>.a { display: -webkit-flex; gap: 8px; }</style>", /^gap does nothing in sirius's browser/],
    ["unprefixed flex", "<style>.a { display: flex; }</style>", /^display: flex is no flex box in sirius's browser/],
    ["a character DejaVu lacks", "<p>Rain 🌧 and 日</p>", /^🌧 日 are in no font sirius has .* print as nothing/],
  ];
  for (const [what, body, said] of cases)
    it(`names ${what}, with what to do`, () => {
      const found = qtwebkitLacks(page(body));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(said);
    });

  it("reads no character of a script or a style as text", () => {
    expect(qtwebkitLacks(page("<script>var s = '🌧';</script><style>p::after { content: '日'; }</style>"))).toEqual([]);
  });
});

describe("verify names them under the edition's file", () => {
  const work = path.join(".test-work", `qtwebkit-${process.pid}`);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("warns, without failing, with the file and what to do; PhantomJS's SyntaxError is not said twice", async () => {
    const content = path.join(work, "content");
    const editions = path.join(content, "modern", "editions");
    mkdirSync(editions, { recursive: true });
    const publication = { name: "Modern", description: "d", owner_email: "m@example.com", delivered_on: "Daily" };
    writeFileSync(
      path.join(content, "modern", "publication.json"),
      JSON.stringify({ ...publication, editions: { by: "delivery_count" } }),
    );
    const body = '<div style="display: grid">Rain 🌧</div>\n\n<script>let late = 1;</script>';
    writeFileSync(path.join(editions, "1.md"), `---\nnumber: 1\ntitle: One\n---\n${body}\n`);
    const site = path.join(work, "_site");
    await buildSite(content, site);
    const result = await preview({ content, site, build: false, out: path.join(work, "preview") });
    const warnings = browserWarnings(result.rows);
    expect(warnings).toHaveLength(3);
    for (const w of warnings) expect(w).toMatch(/^.*modern\/editions\/1\.md \(modern edition 1\): /);
    expect(warnings.join("\n")).toMatch(/ES5 lacks \(its line 1: let late = 1;\)/);
    expect(warnings.join("\n")).toMatch(/CSS grid does nothing/);
    expect(warnings.join("\n")).toMatch(/🌧 is in no font sirius has/);
    const report = { ok: true, checks: [], counts: { pass: 1, fail: 0, skip: 0 } };
    const verdict = { slug: "modern", window: "1 day", ok: true, report, preview: { rows: result.rows } };
    const text = formatVerdict(verdict as unknown as Parameters<typeof formatVerdict>[0]);
    expect(text).toMatch(/^PASS /);
    expect(text).toMatch(/\n {6}WARN preview: .*1\.md \(modern edition 1\): CSS grid/);
  }, 120_000);
});
