// Nothing silent, round three (issue 37), tried as a new user's daily paper with
// a `length` select would be: a setting misspelt in a condition, a setting
// renamed in publication.json but not in the edition, a misspelt front-matter
// key littlepress reads, and a setting no edition reacts to. Each is named with
// the file, the line, the name written, the names that exist and the fix: the
// first two fail every build; the last two are warnings that fail --strict and
// `npm run verify`, and `npm start` prints them. The paper written right passes
// all of it without a word.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnStart } from "../../scripts/start.ts";
import { buildCommand } from "../helpers/build-command.ts";
import { COMPILED_START, kitScript, type ScriptRun } from "../helpers/kit-script.ts";

const ROOT = path.join(".test-work", `silent-mistakes-${process.pid}`);

const LENGTH = {
  type: "select",
  name: "length",
  label: "Length",
  options: [
    ["Short", "short"],
    ["Long", "long"],
  ],
};

const publication = (field = LENGTH) => ({
  name: "Daily",
  description: "A morning paper.",
  owner_email: "d@example.com",
  delivered_on: "Every morning",
  editions: { by: "delivery_count" },
  config: { fields: [field] },
});

/** An edition whose long part prints for subscribers who chose `long` (as `condition` reads it). */
const edition = (n: number, { title = "title", condition = 'config.length == "long"' } = {}) =>
  `---\nnumber: ${n}\n${title}: Morning ${n}\n---\nThe short news of day ${n}.\n\n` +
  `{% if ${condition} %}And the long part, with the weather.{% endif %}\n`;

let folders = 0;
/** A content folder of one publication, `daily`, with editions 0 and 1. */
function paper(pub: object, editions: [string, string]): string {
  const dir = path.join(ROOT, `c${folders++}`, "content");
  mkdirSync(path.join(dir, "daily", "editions"), { recursive: true });
  writeFileSync(path.join(dir, "daily", "publication.json"), JSON.stringify(pub, null, 2));
  editions.forEach((text, n) => writeFileSync(path.join(dir, "daily", "editions", `${n}.md`), text));
  return dir;
}

/** A tool of the kit, as npm runs it, on `dir`: its exit code and all it printed. */
function tool(script: string, dir: string, ...flags: string[]): Promise<ScriptRun> {
  return kitScript(script, ["--content", dir, ...(script === "build" ? output(dir, flags) : []), ...flags]);
}
const output = (dir: string, flags: string[]) => [
  "--output",
  path.join(path.dirname(dir), `_site-build-${flags.join("")}`),
];
/** The build command, its main() run in this process (test/helpers/build-command.ts). */
const build = (dir: string, ...flags: string[]) => buildCommand(["--content", dir, ...output(dir, flags), ...flags]);
const verify = (dir: string) => tool("verify", dir, "--no-preview");

afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

describe.concurrent("mistakes that passed without a word", { timeout: 120_000 }, () => {
  it("the paper written right builds without a warning, strict and verified", async () => {
    const dir = paper(publication(), [edition(0), edition(1)]);
    const strict = await tool("build", dir, "--strict"); // as the author runs it: a process of its own
    expect(strict.code, strict.output).toBe(0);
    expect(strict.output).not.toMatch(/problem:/);
    const verified = await verify(dir);
    expect(verified.code, verified.output).toBe(0);
  });

  it("a setting misspelt in a condition fails the build: the file, the line, the name, the one meant", async () => {
    const dir = paper(publication(), [edition(0, { condition: 'config.lenght == "long"' }), edition(1)]);
    const { code, output } = await build(dir);
    expect(code).toBe(1);
    expect(output).toContain(`${path.join(dir, "daily/editions/0.md")}: config.lenght`);
    expect(output).toMatch(
      new RegExp(
        "problem: `config\\.lenght` is read at line 7, column \\d+ .*but the publication has no setting `lenght`: " +
          "did you mean `length`\\? \\(its settings are `length`\\)",
      ),
    );
    expect(output).toMatch(/fix: write config\.length instead, or add the setting to config\.fields/);
  });

  it.each([
    ["printed", "{{ config.lenght }}"],
    ["in a filter", '{{ config.lenght | default: "short" }}'],
    ["in a loop", "{% for part in config.lenght %}{{ part }}{% endfor %}"],
    ["in unless", "{% unless config.lenght %}short{% endunless %}"],
  ])("a misspelt setting %s fails it too", async (_, use) => {
    const dir = paper(publication(), [edition(0), `---\nnumber: 1\n---\nDay 1.\n\n${use}\n`]);
    const { code, output } = await build(dir);
    expect(code).toBe(1);
    expect(output).toMatch(
      /1\.md: config\.lenght\n\s+problem: `config\.lenght` is read at line 6, .*did you mean `length`\?/,
    );
  });

  it("a setting renamed in publication.json but not in the edition fails the build, naming both names", async () => {
    const dir = paper(publication({ ...LENGTH, name: "lenght" }), [edition(0), edition(1)]);
    const { code, output } = await build(dir);
    expect(code).toBe(1);
    expect(output).toMatch(
      new RegExp(
        "0\\.md: config\\.length\n\\s+problem: `config\\.length` is read at line 7, " +
          ".*no setting `length`: did you mean `lenght`\\?",
      ),
    );
    expect(output).toMatch(/a renamed setting must be renamed in the editions too/);
  });

  it("a misspelt front-matter key littlepress reads is a warning; --strict and verify fail on it", async () => {
    const dir = paper(publication(), [edition(0, { title: "titel" }), edition(1)]);
    const file = path.join(dir, "daily/editions/0.md");
    const said = new RegExp(
      `${file.replaceAll(".", "\\.")}: titel\\n\\s+problem: \`titel\` \\(line 3\\) is no key littlepress reads, ` +
        "and the edition does not use it: did you mean `title`\\? As written, the edition prints without its heading" +
        "\\n\\s+fix: rename it `title`",
    );
    const [plain, strict, verified] = await Promise.all([build(dir), build(dir, "--strict"), verify(dir)]);
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output).toMatch(said);
    expect(strict.code).toBe(1);
    expect(strict.output).toMatch(said);
    expect(verified.code).toBe(1);
    expect(verified.output).toMatch(said);
    expect(verified.output).toMatch(/verify: NOT READY/);
  });

  it("keys of the author's own are no slip, nor a near name the edition uses", async () => {
    const own = "---\nnumber: 1\nmood: bright\ndat: Friday\n---\nA {{ mood }} {{ dat }}.\n";
    const dir = paper(publication(), [edition(0), own]);
    const { code, output } = await build(dir, "--strict");
    expect(code, output).toBe(0);
  });

  it("a setting no edition reacts to: warned under npm start, failed by verify, named with its options", async () => {
    // No edition reads the setting: short and long print the same page. (A condition asking for an option
    // that does not exist fails the build: round four, below.)
    const dir = paper(publication(), [edition(0, { condition: "false" }), edition(1, { condition: "false" })]);
    const said = new RegExp(
      "daily/publication\\.json: config\\.fields: length\n\\s+problem: the setting `length` changes nothing: " +
        'every edition prints the same page for "short" and "long"\n\\s+fix: have an edition read it',
    );
    const [plain, verified] = await Promise.all([build(dir), verify(dir)]);
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output).toMatch(said);
    expect(verified.code).toBe(1);
    expect(verified.output).toMatch(said);
    const started = await spawnStart({
      content: dir,
      output: path.join(path.dirname(dir), "_site-start"),
      bin: COMPILED_START,
    });
    try {
      expect(started.log).toMatch(said);
    } finally {
      await started.stop();
    }
  });
});

// Nothing silent, round four (issue 52, item 5): each fails the build (so `npm start` names it, and verify fails).
describe.concurrent("mistakes that passed without a word, round four", { timeout: 120_000 }, () => {
  it("an edition saved as .markdown or .txt is named, with the name to give it", async () => {
    const dir = paper(publication(), [edition(0), edition(1)]);
    writeFileSync(path.join(dir, "daily/editions/part-5.markdown"), edition(5));
    writeFileSync(path.join(dir, "daily/editions/part-6.txt"), edition(6));
    const [built, verified] = await Promise.all([build(dir), verify(dir)]);
    for (const { code, output } of [built, verified]) {
      expect(code, output).toBe(1);
      for (const [file, name] of [
        ["part-5.markdown", "part-5.md"],
        ["part-6.txt", "part-6.md"],
      ] as const)
        expect(output).toMatch(
          new RegExp(
            `editions/${file.replace(".", "\\.")}\\n\\s+problem: is not read: only \`\\.md\` files in the editions ` +
              `folder are editions, so it is never printed\\n\\s+fix: rename it ${name.replace(".", "\\.")}`,
          ),
        );
    }
  });

  it("a gap in a finite serial is named at the part after it: npm start warns, verify fails", async () => {
    const dir = paper({ ...publication(), editions: { by: "delivery_count", ends: true } }, [edition(0), edition(1)]);
    writeFileSync(path.join(dir, "daily/editions/3.md"), edition(3));
    const said = new RegExp(
      "daily/editions/3\\.md: number\n\\s+problem: the serial has no edition numbered 2: delivery 2 gets nothing " +
        '\\(204, "no edition for 2"\\), and the serial goes on at 3\n\\s+fix: number the editions 0, 1, 2, … ' +
        "without a gap: renumber this one 2, or add an edition numbered 2",
    );
    const [plain, verified] = await Promise.all([build(dir), verify(dir)]);
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output).toMatch(said);
    expect(verified.code).toBe(1);
    expect(verified.output).toMatch(said);
  });

  it("Markdown in a folder with no publication.json is named, not published as a plain page", async () => {
    const dir = paper(publication(), [edition(0), edition(1)]);
    mkdirSync(path.join(dir, "notes"));
    writeFileSync(path.join(dir, "notes/ideas.md"), "---\nnumber: 0\n---\nAn idea.\n");
    const [built, verified] = await Promise.all([build(dir), verify(dir)]);
    for (const { code, output } of [built, verified]) {
      expect(code, output).toBe(1);
      expect(output).toContain(
        `${path.join(dir, "notes/ideas.md")}\n    problem: is published as a plain page at /notes/ideas/, ` +
          `not as an edition: ${path.join(dir, "notes")}/ has no publication.json, so it is no publication`,
      );
      expect(output).toMatch(/fix: to make notes a publication, add .*notes\/publication\.json and move its editions/);
    }
  });

  it("a lang that is no language tag is refused, with the tag meant", async () => {
    const dir = paper(publication(), [edition(0), `---\nnumber: 1\nlang: english\n---\nDay 1.\n`]);
    const [built, verified] = await Promise.all([build(dir), verify(dir)]);
    for (const { code, output } of [built, verified]) {
      expect(code, output).toBe(1);
      expect(output).toMatch(
        new RegExp(
          '1\\.md: lang\n\\s+problem: "english" \\(line 3\\) is not a language tag, ' +
            "and the page's <html lang> would say it as it is\n\\s+fix: write lang: en \\(",
        ),
      );
    }
  });

  it("names a stray file, a lang and a comparison in one run: none waits for another to be fixed", async () => {
    const wrong = `---\nnumber: 1\nlang: english\n---\n{% if config.length == "Long" %}Long.{% endif %}\n`;
    const dir = paper(publication(), [edition(0), wrong]);
    writeFileSync(path.join(dir, "daily/editions/part-5.markdown"), "---\nnumber: 5\n---\nDay 5.\n");
    const [built, verified] = await Promise.all([build(dir), verify(dir)]);
    for (const { code, output } of [built, verified]) {
      expect(code, output).toBe(1);
      expect(output).toContain("littlepress found 3 problems in your content:");
      expect(output).toContain(`${path.join(dir, "daily/editions/part-5.markdown")}\n    problem: is not read`);
      expect(output).toMatch(/1\.md: lang\n\s+problem: "english" \(line 3\) is not a language tag/);
      expect(output).toMatch(/1\.md: config\.length\n\s+problem: `config\.length == "Long"` \(line 5\)/);
    }
  });

  it("a comparison with a value none of the setting's options has fails the build, naming the one meant", async () => {
    const dir = paper(publication(), [edition(0, { condition: 'config.length == "Long"' }), edition(1)]);
    const [built, verified] = await Promise.all([build(dir), verify(dir)]);
    for (const { code, output } of [built, verified]) {
      expect(code, output).toBe(1);
      expect(output).toContain(
        `${path.join(dir, "daily/editions/0.md")}: config.length\n    problem: \`config.length == "Long"\` (line 7) ` +
          'compares the setting with "Long", which is not one of its values ("short", "long"), so it is never true: ' +
          'did you mean "long"?',
      );
      expect(output).toMatch(/fix: write "long": an option is \[label, value\] in publication\.json/);
    }
  });
});
