// A broken publication fails the build with the file, the field and the fix,
// no stack trace, and the previous good site stays in place.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { buildCommand } from "../helpers/build-command.ts";
import { kitScript, type ScriptRun } from "../helpers/kit-script.ts";

const ROOT = ".test-work/broken";

const GOOD = {
  name: "Broken",
  description: "d",
  owner_email: "b@example.com",
  delivered_on: "Daily",
  editions: { by: "delivery_count" },
};

/** Writes a one-publication content folder: publication.json (object or raw text) and editions. */
function content(
  name: string,
  publication: object | string,
  editions: Record<string, string> = { "0.md": "---\nnumber: 0\n---\nHi\n" },
): string {
  const dir = path.join(ROOT, name, "content");
  rmSync(path.join(ROOT, name), { recursive: true, force: true });
  mkdirSync(path.join(dir, "pub", "editions"), { recursive: true });
  writeFileSync(
    path.join(dir, "pub", "publication.json"),
    typeof publication === "string" ? publication : JSON.stringify(publication),
  );
  for (const [file, text] of Object.entries(editions)) writeFileSync(path.join(dir, "pub", "editions", file), text);
  return dir;
}

/** `npm run build -- --content <dir> --output <dir>/../_site <flags>`, as the author runs it: a process of its own. */
function buildProcess(dir: string, ...flags: string[]): Promise<ScriptRun> {
  const out = path.join(path.dirname(dir), "_site");
  return kitScript("build", ["--content", dir, "--output", out, ...flags], { timeout: 60_000 });
}

/** The same command, its main() run in this process (test/helpers/build-command.ts). */
function build(dir: string, ...flags: string[]): Promise<ScriptRun> {
  return buildCommand(["--content", dir, "--output", path.join(path.dirname(dir), "_site"), ...flags]);
}

async function expectFailure(dir: string, ...expected: (string | RegExp)[]) {
  return failure(await build(dir), ...expected);
}

function failure({ code, output }: ScriptRun, ...expected: (string | RegExp)[]) {
  expect(code).toBe(1);
  for (const text of expected) expect(output).toMatch(text);
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  return output;
}

beforeAll(() => rmSync(ROOT, { recursive: true, force: true }));

// Each case runs a real build, most in this process, a few in a child process as the author runs them: slow on a
// loaded machine, so allow a minute or two.
describe.concurrent("a broken publication fails the build", { timeout: 120_000 }, () => {
  // As the author runs it, in a process of its own: a failure, its exit code and its output.
  it("invalid JSON", async () => {
    failure(
      await buildProcess(content("json", '{"name": "x",}')),
      /pub\/publication.json: line 1, column 13\n/,
      /problem: is not valid JSON: a comma after the last field/,
      /fix: remove the comma at line 1, column 13: JSON allows no comma after the last field/,
    );
  });

  it("a JSON data file Eleventy reads, with a trailing comma: its line, its column and the fix", async () => {
    const dir = content("json-data", GOOD, {
      "0.md": "---\nnumber: 0\n---\n{{ tide }}\n",
      "editions.json": '{\n  "tide": "high",\n}\n',
    });
    await expectFailure(
      dir,
      /pub\/editions\/editions\.json: line 2, column 17\n/,
      /problem: is not valid JSON: a comma after the last field, in `"tide": "high",`/,
      /fix: remove the comma at line 2, column 17/,
    );
  });

  it("a missing required field", async () => {
    const { owner_email: _, ...rest } = GOOD;
    await expectFailure(
      content("missing", rest),
      /publication.json: owner_email\n\s+problem: is missing\n\s+fix: add "owner_email"/,
    );
  });

  it("a bad field: wrong type, unknown name", async () => {
    const out = await expectFailure(
      content("bad", { ...GOOD, editions: { by: "delivery_count", ends: "yes" }, colour: "red" }),
    );
    expect(out).toMatch(/editions\.ends\n\s+problem: must be true or false/);
    expect(out).toMatch(/colour\n\s+problem: is not a field littlepress knows/);
  });

  it("an unknown editions.by", async () => {
    await expectFailure(
      content("by", { ...GOOD, editions: { by: "weekly" } }),
      /editions\.by\n\s+problem: must be one of "delivery_count", "local_date", "utc_date", "utc_hour"/,
    );
  });

  it("a missing or malformed key, and an impossible date", async () => {
    await expectFailure(
      content("nokey", GOOD, { "a.md": "---\ntitle: x\n---\nHi\n" }),
      /a\.md: number\n\s+problem: the edition has no `number`/,
      /fix: write the key in the front matter as `number: 0`/,
    );
    await expectFailure(
      content("badkey", GOOD, { "a.md": "---\nnumber: one\n---\nHi\n" }),
      /a\.md: number\n\s+problem: `number` must be a whole number/,
    );
    const dated = { ...GOOD, editions: { by: "local_date" } };
    await expectFailure(
      content("baddate", dated, { "a.md": "---\ndate: 2026-02-30\n---\nHi\n" }),
      /a\.md: date\n\s+problem: `date` 2026-02-30 is not a real calendar date/,
    );
    await expectFailure(
      content(
        "hourfmt",
        { ...GOOD, editions: { by: "utc_hour" } },
        { "a.md": "---\nhour: 2026-02-03 07:00\n---\nHi\n" },
      ),
      /`hour` must look like 2026-11-22T07/,
    );
  });

  it("two editions with the same key, naming both files", async () => {
    await expectFailure(
      content("dup", GOOD, { "a.md": "---\nnumber: 3\n---\nA\n", "b.md": "---\nnumber: 3\n---\nB\n" }),
      /b\.md: number\n\s+problem: 3 is also the key of .*a\.md/,
    );
  });

  it(
    "config fields: no options, duplicate names, unsafe and reserved names, " + "a default not among the options",
    async () => {
      const fields = [
        { type: "select", name: "lang", label: "Language", options: [] },
        { type: "text", name: "lang", label: "Again" },
        { type: "text", name: "my-name", label: "Unsafe" },
        { type: "text", name: "delivery_count", label: "Reserved" },
        {
          type: "radio",
          name: "size",
          label: "Size",
          options: [
            ["S", "s"],
            ["S again", "s"],
          ],
          default: "m",
        },
        { type: "checkbox", name: "ok", label: "Unknown type" },
      ];
      const out = await expectFailure(content("fields", { ...GOOD, config: { fields } }));
      expect(out).toMatch(/config\.fields\[5\]\.type\n\s+problem: must be "text", "select" or "radio"/);
      // The type error stops the other checks; fix it and they all appear at once.
      const out2 = await expectFailure(content("fields2", { ...GOOD, config: { fields: fields.slice(0, 5) } }));
      expect(out2).toMatch(/config\.fields\[0\]\.options\n\s+problem: a select field needs options/);
      expect(out2).toMatch(/config\.fields\[1\]\.name\n\s+problem: two fields are named "lang"/);
      expect(out2).toMatch(/config\.fields\[2\]\.name\n\s+problem: "my-name" is not a safe query-parameter name/);
      expect(out2).toMatch(
        /config\.fields\[3\]\.name\n\s+problem: "delivery_count" is a parameter the platform sends itself/,
      );
      expect(out2).toMatch(/config\.fields\[4\]\.options\[1\]\n\s+problem: the value "s" is listed twice/);
      expect(out2).toMatch(/config\.fields\[4\]\.default\n\s+problem: the default "m" is not one of the option values/);
    },
  );

  it("options that would explode into too many copies", async () => {
    const many = (name: string) => ({
      type: "select",
      name,
      label: name,
      options: Array.from({ length: 10 }, (_, i) => [`O${i}`, `o${i}`]),
    });
    await expectFailure(
      content("explode", { ...GOOD, config: { fields: [many("a"), many("b"), many("c")] } }),
      /combine into 1000 copies of every edition \(at most 256\)/,
    );
  });

  it("a text setting changed by a filter", async () => {
    const pub = { ...GOOD, config: { fields: [{ type: "text", name: "who", label: "Name" }] } };
    await expectFailure(
      content("filter", pub, { "0.md": "---\nnumber: 0\n---\nHi {{ config.who | upcase }}\n" }),
      /0\.md: config\.who\n\s+problem: the text setting `who` is used in a condition, a loop or a filter at line 4/,
    );
  });

  it("a text setting in a link, an image's src, an event handler, srcdoc or style (issue 24)", async () => {
    const pub = { ...GOOD, config: { fields: [{ type: "text", name: "who", label: "Name" }] } };
    const edition = (n: number, html: string): [string, string] => [`${n}.md`, `---\nnumber: ${n}\n---\nHi ${html}\n`];
    const dir = content(
      "attributes",
      pub,
      Object.fromEntries([
        edition(0, '<a href="{{ config.who }}">you</a>'),
        edition(1, '<img alt="" src="{{ config.who }}">'),
        edition(2, "<b onclick=\"greet('{{ config.who }}')\">you</b>"),
        edition(3, '<iframe srcdoc="<p>{{ config.who }}</p>"></iframe>'),
        edition(4, '<b style="color: {{ config.who }}">you</b>'),
        edition(5, '<a href="https://example.com/?q={{ config.who }}">you</a>'),
      ]),
    );
    const problem = (file: string, text: string) =>
      new RegExp(`editions/${file}: config\\.who\\n\\s+problem: the text setting \`who\` is printed in ${text}`);
    const out = await expectFailure(
      dir,
      problem("0\\.md", "the href attribute of <a>, which holds a URL: a subscriber could type a javascript: URL"),
      problem("1\\.md", "the src attribute of <img>, which holds a URL"),
      problem("2\\.md", "the onclick attribute of <b>, an event handler: .* would run as JavaScript"),
      problem("3\\.md", "the srcdoc attribute of <iframe>, which is a page of HTML"),
      problem("4\\.md", "the style attribute of <b>, which is CSS"),
      problem("5\\.md", "the href attribute of <a>, which holds a URL"),
    );
    expect(out).toMatch(/found 6 problems/);
    expect(
      out.match(/fix: print it in the page text, or in a quoted title, alt, class, placeholder, aria-\* or data-\* /g),
    ).toHaveLength(6);
    expect(out).not.toMatch(/the image cannot be read/);
  });

  it("a text setting in title, alt, class, aria-* and data-* builds, without a warning", async () => {
    // With its own url: an <img> in a build on CI without one would be warned about.
    const fields = [{ type: "text", name: "who", label: "Name" }];
    const pub = { ...GOOD, url: "https://example.com", config: { fields } };
    const body =
      '<abbr title="{{ config.who }}" class="x {{ config.who }}">Hi</abbr> ' +
      '<img alt="{{ config.who }}" src="https://example.com/a.png" width="100"> ' +
      '<span aria-label="{{ config.who }}" data-who="{{ config.who }}">{{ config.who }}</span>';
    const dir = content("harmless", pub, { "0.md": `---\nnumber: 0\n---\n${body}\n` });
    const { code, output } = await build(dir, "--strict");
    expect(output).not.toMatch(/warning|problem/);
    expect(code).toBe(0);
    expect((await pages(dir)).get("0")).toContain('<abbr title="\u27E6littlepress:who\u27E7"');
  });

  it("an inline <script> and an event handler: warnings, failing the build with --strict (issue 24)", async () => {
    const dir = content("scripts", GOOD, {
      "0.md": "---\nnumber: 0\n---\nHi\n\n<script>document.title = 'x';</script>\n",
      "1.md": '---\nnumber: 1\n---\n<svg onload="go()"></svg> and <b onclick="go()">you</b>\n',
    });
    const ok = await build(dir);
    expect(ok.code).toBe(0);
    expect(ok.output).toMatch(/3 warnings \(npm run build -- --strict makes them fail the build\)/);
    expect(ok.output).toMatch(
      /0\.md: <script>\n\s+problem: the page has an inline <script>\n\s+fix: printers run no scripts; remove it/,
    );
    expect(ok.output).toMatch(
      /1\.md: <svg onload>\n\s+problem: onload= on <svg> is an event handler, a script\n\s+fix: printers/,
    );
    expect(ok.output).toMatch(/1\.md: <b onclick>\n\s+problem: onclick= on <b> is an event handler/);
    const strict = await build(dir, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.output).toMatch(/found 3 problems/);
    expect(strict.output).toMatch(/0\.md: <script>\n\s+problem: the page has an inline <script>/);
  });

  it("a root slug that does not exist, a sample that is not an edition, an icon that is not there", async () => {
    const dir = content("root", { ...GOOD, editions: { by: "delivery_count", sample: 7 }, icon: "nope.png" });
    writeFileSync(path.join(dir, "site.json"), '{"root": "elsewhere"}');
    const out = await expectFailure(dir);
    expect(out).toMatch(/site\.json: root\n\s+problem: "elsewhere" is not a publication .*\n\s+fix: use one of: pub/);
    expect(out).toMatch(/publication\.json: editions\.sample\n\s+problem: there is no edition 7/);
    expect(out).toMatch(/publication\.json: icon\n\s+problem: .*nope\.png does not exist/);
  });

  it("an image that is not there, in Markdown or as raw HTML", async () => {
    const markdown = await expectFailure(
      content("image", GOOD, { "0.md": "---\nnumber: 0\n---\n![x](missing.png)\n" }),
      /0\.md: <img src="missing\.png">\n\s+problem: the image cannot be read: .*missing\.png does not exist/,
    );
    const html = await expectFailure(
      content("raw-image", GOOD, { "0.md": '---\nnumber: 0\n---\n<img src="relative/missing.png">\n' }),
      /0\.md: <img src="relative\/missing\.png">\n\s+problem: the image cannot be read: .*missing\.png does not exist/,
    );
    for (const out of [markdown, html]) expect(out).not.toMatch(/Cannot read properties/);
  });

  it("print warnings: printed, and failing the build with --strict", async () => {
    const pub = { ...GOOD, description: "<p>Hello</p>" };
    const dir = content("warnings", pub, { "0.md": '---\nnumber: 0\n---\n<p style="font-size: 12px">tiny</p>\n' });
    // In processes of their own, as the author runs them: the warnings the build prints, and --strict's exit code.
    const ok = await buildProcess(dir);
    expect(ok.code).toBe(0);
    expect(ok.output).toMatch(/2 warnings \(npm run build -- --strict makes them fail the build\)/);
    expect(ok.output).toMatch(/0\.md: CSS\n\s+problem: font-size: 12px is smaller than 20 px/);
    expect(ok.output).toMatch(/publication\.json: description\n\s+problem: uses <p>/);
    const strict = await buildProcess(dir, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.output).toMatch(/found 2 problems/);
  });

  it("a broken template, and keeps the previous good site", async () => {
    const dir = content("template", GOOD);
    expect((await build(dir)).code).toBe(0);
    const manifest = path.join(ROOT, "template", "_site_data", "pub", "index.json");
    const before = readFileSync(manifest, "utf8");
    writeFileSync(path.join(dir, "pub", "editions", "0.md"), "---\nnumber: 0\n---\n{% if %}broken\n");
    await expectFailure(dir, /0\.md: template\n\s+problem: .*line 4, column \d+/, /fix: correct the Liquid there/);
    expect(readFileSync(manifest, "utf8")).toBe(before);
  });
});

/** Every rendered page of a built publication, by edition key. */
async function pages(dir: string, slug = "pub"): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const e of eachEdition((await openPublication(slug, path.resolve(path.dirname(dir), "_site")))!))
    found.set(e.key, e.html);
  return found;
}

describe.concurrent("nothing silent (issue 13)", { timeout: 120_000 }, () => {
  it("every edition's template problem, of every publication, in one build (issue 52)", async () => {
    const dir = content("templates", GOOD, {
      "0.md": "---\nnumber: 0\n---\n{% if %}broken\n",
      "1.md": "---\nnumber: 1\n---\n\n{{ nmae }}\n",
    });
    mkdirSync(path.join(dir, "other", "editions"), { recursive: true });
    writeFileSync(path.join(dir, "other", "publication.json"), JSON.stringify({ ...GOOD, name: "Other" }));
    writeFileSync(path.join(dir, "other", "editions", "0.md"), "---\nnumber: 0\n---\n{{ titel }}\n");
    writeFileSync(path.join(dir, "other", "editions", "1.md"), "---\nnumber: 1\n---\nFine\n");
    const output = await expectFailure(
      dir,
      /found 3 problems/,
      /pub\/editions\/0\.md: template\n\s+problem: .*line 4, column \d+/,
      /pub\/editions\/1\.md: \{\{ nmae \}\}\n\s+problem: `nmae` is not defined \(line 5, column 4\)/,
      /other\/editions\/0\.md: \{\{ titel \}\}\n\s+problem: `titel` is not defined \(line 4, column 4\)/,
    );
    expect(output).not.toContain("other/editions/1.md");
  });

  it("an unknown variable fails the build naming the file, the variable and its line", async () => {
    const dir = content("strict", GOOD, { "0.md": "---\nnumber: 0\ntitle: T\n---\n\n{{ titel }}\n" });
    await expectFailure(
      dir,
      /0\.md: \{\{ titel \}\}\n\s+problem: `titel` is not defined \(line 6, column 4\)/,
      /fix: correct the name.*\| default/,
    );
  });

  it(
    "data files, default and if, kept line breaks, attributes; " +
      "strict_variables: false prints an unknown variable as nothing",
    async () => {
      const pub = { ...GOOD, markdown: { breaks: true } };
      const body =
        'Sky: {{ haiku.first }} / {{ shared }} / {{ mood | default: "calm" }}{% if missing %}!{% endif %}\n\n' +
        "line one\nline two\n\n![Sun](sun.png){.dither}\n";
      const dir = content("data", pub, {
        "0.md": `---\nnumber: 0\n---\n${body}`,
        "editions.json": '{"shared": "from editions.json"}',
      });
      mkdirSync(path.join(dir, "_data"));
      writeFileSync(path.join(dir, "_data", "haiku.json"), '{"first": "old pond"}');
      await sharp({ create: { width: 20, height: 20, channels: 3, background: "#888" } })
        .png()
        .toFile(path.join(dir, "pub", "editions", "sun.png"));
      const other = path.join(dir, "lenient");
      mkdirSync(path.join(other, "editions"), { recursive: true });
      writeFileSync(path.join(other, "publication.json"), JSON.stringify({ ...GOOD, strict_variables: false }));
      writeFileSync(path.join(other, "editions", "0.md"), "---\nnumber: 0\n---\n[{{ titel }}]\n\nline one\nline two\n");
      const { code } = await build(dir);
      expect(code).toBe(0);
      const html = (await pages(dir)).get("0")!;
      expect(html).toContain("<p>Sky: old pond / from editions.json / calm</p>");
      expect(html).toContain("<p>line one<br>\nline two</p>");
      expect(html).toMatch(/<img src="[^"]+" alt="Sun" class="dither"/);
      const lenient = (await pages(dir, "lenient")).get("0")!;
      expect(lenient).toContain("<p>[]</p>");
      expect(lenient).toContain("<p>line one\nline two</p>"); // breaks are off by default
    },
  );

  it("a publication.json not in UTF-8 and a Latin-1 edition are refused naming the encoding", async () => {
    const dir = content("latin1", GOOD, { "0.md": "---\nnumber: 0\n---\nHi\n", "1.md": "" });
    writeFileSync(path.join(dir, "pub", "editions", "1.md"), Buffer.from("---\nnumber: 1\n---\nCaf\xe9\n", "latin1"));
    await expectFailure(
      dir,
      new RegExp(
        /1\.md: encoding\n\s+problem: is not valid UTF-8 \(line 4\); /.source +
          /it looks like Latin-1\/Windows-1252\n\s+fix: save it as UTF-8/.source,
      ),
    );
    writeFileSync(path.join(dir, "pub", "publication.json"), Buffer.from("\uFEFF" + JSON.stringify(GOOD), "utf16le"));
    await expectFailure(dir, /publication\.json: encoding\n\s+problem: is saved as UTF-16 LE, not UTF-8/);
  });

  it("an icon that comes out blank fails the build naming it", async () => {
    const dir = content("icon", GOOD);
    await sharp({ create: { width: 60, height: 60, channels: 3, background: "#ffffff" } })
      .png()
      .toFile(path.join(dir, "pub", "icon.png"));
    await expectFailure(dir, /pub\/icon\.png: icon\n\s+problem: comes out 0\.0% black/);
  });

  it("an edition over the size budget is a warning", async () => {
    const dir = content("size", GOOD, { "0.md": `---\nnumber: 0\n---\n${"All work and no play. ".repeat(4000)}\n` });
    const { code, output } = await build(dir);
    expect(code).toBe(0);
    expect(output).toMatch(/0\.md: size\n\s+problem: the edition's page is \d+ KiB, over the 64 KiB budget/);
  });

  it("a symlinked edition is built; one pointing outside the content folder is refused", async () => {
    const dir = content("links", { ...GOOD, editions: { by: "delivery_count", ends: true } });
    writeFileSync(path.join(dir, "shared.md"), "---\nnumber: 1\n---\nShared\n");
    symlinkSync("../../shared.md", path.join(dir, "pub", "editions", "1.md"));
    expect((await build(dir)).code).toBe(0);
    expect([...(await pages(dir)).keys()]).toEqual(["0", "1"]);
    symlinkSync(path.resolve("package.json"), path.join(dir, "pub", "editions", "2.md"));
    await expectFailure(
      dir,
      /editions\/2\.md\n\s+problem: is a symbolic link to .*package\.json, outside the content folder/,
    );
  });
});

describe("a site with no publications yet (an author has just removed the examples)", () => {
  it("builds an empty content folder: the desk, and nothing for the functions to find", async () => {
    const dir = path.join(ROOT, "empty", "content");
    rmSync(path.dirname(dir), { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const { code, output } = await buildProcess(dir); // a process of its own, as the author runs it
    expect(code, output).toBe(0);
    const site = path.join(ROOT, "empty", "_site");
    expect(readFileSync(path.join(site, "index.html"), "utf8")).toContain("littlepress desk");
    expect(await openPublication("", path.resolve(site))).toBeUndefined();
  });

  it("builds a folder of publications in a project with no Eleventy config, by the plugin alone", async () => {
    const project = path.join(ROOT, "no-config");
    content("no-config", GOOD);
    const { code, output } = await kitScript("build", ["--content", "content", "--output", "_site"], {
      timeout: 60_000,
      cwd: project,
    });
    expect(code, output).toBe(0);
    expect(output).toContain("built _site/");
    const htmls: string[] = [];
    for await (const e of eachEdition((await openPublication("pub", path.resolve(project, "_site")))!))
      htmls.push(e.html);
    expect(htmls).toHaveLength(1);
    expect(htmls[0]).toContain("Hi");
  });

  it("names a content folder that does not exist, and what to do", async () => {
    await expectFailure(
      path.join(ROOT, "nowhere", "content"),
      /nowhere\/content\n\s+problem: does not exist\n\s+fix: create the folder/,
    );
  });
});

describe.concurrent("editions from data (issue 14)", { timeout: 120_000 }, () => {
  /** A content folder whose publication renders `template` once per row of `csv`. */
  function rows(name: string, csv: string, template: string): string {
    const dir = content(name, { ...GOOD, editions: { by: "local_date" } }, {});
    writeFileSync(path.join(dir, "pub", "editions.csv"), csv);
    writeFileSync(path.join(dir, "pub", "edition.md"), template);
    return dir;
  }

  it("a template made from data that fails for many rows: five, then how many more", async () => {
    const csv = `date,title\n${Array.from({ length: 8 }, (_, i) => `2026-01-0${i + 1},T${i}`).join("\n")}\n`;
    const dir = rows("many-rows", csv, "{{ nope }}\n");
    const output = await expectFailure(dir, /found 6 problems/, /and 3 more problems like these, 8 in all/);
    expect(output.match(/`nope` is not defined/g)).toHaveLength(5);
  });

  it("a template variable one row lacks names the template, the variable and the row", async () => {
    const dir = rows(
      "row-variable",
      'date,word\n2026-01-01,apricity\n2026-01-02,""\n',
      "{{ word | upcase }} {{ wrd }}\n",
    );
    await expectFailure(
      dir,
      /content\/pub\/edition\.md: \{\{ wrd \}\}/,
      /`wrd` is not defined \(line 1, column \d+\).* \(rendering .*content\/pub\/editions\.csv row 1 \(line 2\)\)/,
    );
  });

  it("an empty CSV cell the template prints: the row, its line, the column, and to fill or guard it", async () => {
    const dir = rows(
      "empty-cell",
      "date,exercise,reps\n2026-01-01,Neck rolls,10\n2026-01-02,Chin tucks,\n",
      "{{ exercise }}, {{ reps }}.\n",
    );
    await expectFailure(
      dir,
      /content\/pub\/editions\.csv row 2 \(line 3\): reps\n/,
      /problem: the `reps` cell is empty, and \S*content\/pub\/edition\.md prints it \(line 1, column 20\)\n/,
      /fix: fill the cell; if it may stay empty, write \{% if reps %\}…\{% endif %\} or /,
      /or \{\{ reps \| default: "…" \}\} in \S*edition\.md, or give `reps` a default in its front matter/,
    );
  });

  it("an empty cell the template guards or gives a default builds, and prints nothing unasked", async () => {
    const csv =
      'date,exercise,reps,note\n2026-01-01,Neck rolls,10,Slowly\n2026-01-02,Chin tucks,,\n2026-01-03,Rest,"",""\n';
    const template =
      "---\nnote: Breathe\n---\n{{ exercise }}{% if reps %}, {{ reps }} times{% endif %}. " +
      '{{ note }}. ({{ reps | default: "no count" }})\n';
    const dir = rows("empty-guarded", csv, template);
    const { code, output } = await build(dir);
    expect(code, output).toBe(0);
    const text = new Map([...(await pages(dir))].map(([key, html]) => [key, /<p>(.*?)<\/p>/s.exec(html)?.[1]]));
    expect(Object.fromEntries(text)).toEqual({
      "2026-01-01": "Neck rolls, 10 times. Slowly. (10)",
      // An empty cell is no value: the front matter's note, and the default.
      "2026-01-02": "Chin tucks. Breathe. (no count)",
      // "" between quotes is empty text on purpose: true in {% if %}, as in Liquid, and replaced by default.
      "2026-01-03": "Rest,  times. . (no count)",
    });
  });

  it("a countdown to something that is not a date", async () => {
    const dir = rows("days-until", "date\n2026-01-01\n", '{{ date | days_until: "Christmas" }}\n');
    await expectFailure(
      dir,
      /content\/pub\/edition\.md: template/,
      /days_until needs two dates written YYYY-MM-DD.*got "2026-01-01" and "Christmas"/,
    );
  });

  it("a global data file named `day`, which the kit's `day` of a dated edition would hide", async () => {
    const dir = content(
      "day-clash",
      { ...GOOD, editions: { by: "local_date", every: "day", from: "2026-01-01", until: "2026-01-02" } },
      {},
    );
    writeFileSync(path.join(dir, "pub", "edition.md"), "{{ day.weekday }} {{ day.mood }}\n");
    mkdirSync(path.join(dir, "_data"));
    writeFileSync(path.join(dir, "_data", "day.json"), '{"mood": "calm"}');
    await expectFailure(
      dir,
      /content\/pub\/edition\.md: \{\{ day \}\}\n\s+problem: a data file defines `day` \(content\/_data\/day\.json, or/,
      /the weekday, month and other facts of the edition's date \(rendering .*\)\n\s+fix: rename the data file/,
    );
    // an edition that sets its own `day` takes neither: no clash, its front matter wins
    writeFileSync(path.join(dir, "pub", "edition.md"), "---\nday: { mood: own }\n---\nMood: {{ day.mood }}\n");
    expect(await build(dir)).toMatchObject({ code: 0 });
  });

  it("two rows with one key, and Eleventy pagination in an edition", async () => {
    const dir = rows("twin-rows", "date\n2026-01-01\n2026-01-01\n", "Hi\n");
    const paginated =
      '---\npagination:\n  data: haiku\n  size: 1\n  alias: h\ndate: "{{ h.date }}"\n---\n{{ h.text }}\n';
    writeFileSync(path.join(dir, "pub", "editions", "haiku.md"), paginated);
    await expectFailure(
      dir,
      /editions\.csv row 2 \(line 3\): date\n\s+problem: 2026-01-01 is also the key of .*\.csv row 1 \(line 2\)/,
      /editions\/haiku\.md: pagination\n\s+problem: Eleventy pagination does not make editions here/,
    );
  });
});
