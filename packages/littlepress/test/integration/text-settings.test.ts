// A text setting is filled in after the page is built (issue 25, item 2): in a
// condition it would always be false (or, alone, always true), so the build
// refuses it, naming the file, the setting, the line and the fix, with or
// without --strict. Printed as it is, it still builds and is filled per request.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { fillSlots } from "../../lib/model/text-slots.ts";
import { buildCommand } from "../helpers/build-command.ts";
import { kitScript, type ScriptRun } from "../helpers/kit-script.ts";

const ROOT = ".test-work/text-settings";

const PUBLICATION = {
  name: "Pet",
  description: "d",
  owner_email: "p@example.com",
  delivered_on: "Daily",
  editions: { by: "delivery_count" },
  config: {
    fields: [
      { type: "text", name: "pet_name", label: "Your pet's name", required: false, default: "friend" },
      {
        type: "select",
        name: "lang",
        label: "Language",
        options: [
          ["English", "en"],
          ["Français", "fr"],
        ],
      },
    ],
  },
};

/** A one-publication content folder with this edition 0. */
function content(name: string, edition: string): string {
  const dir = path.join(ROOT, name, "content");
  mkdirSync(path.join(dir, "pet", "editions"), { recursive: true });
  writeFileSync(path.join(dir, "pet", "publication.json"), JSON.stringify(PUBLICATION));
  writeFileSync(path.join(dir, "pet", "editions", "0.md"), `---\nnumber: 0\n---\n${edition}`);
  return dir;
}

/** `npm run build` of `dir` into the _site/ beside it: in a process of its own, as the author runs it. */
function build(dir: string, ...flags: string[]): Promise<ScriptRun> {
  return kitScript("build", buildArgs(dir, flags));
}
/** The same build in this process (buildCommand). */
const buildHere = (dir: string, ...flags: string[]) => buildCommand(buildArgs(dir, flags));
const buildArgs = (dir: string, flags: string[]) => {
  const out = path.join(path.dirname(dir), "_site");
  return ["--content", dir, "--output", out, ...flags];
};

const FIX = /fix: print it as it is, \{\{ config\.pet_name \}\}; use a select setting for choices/;

beforeAll(() => rmSync(ROOT, { recursive: true, force: true }));

describe.concurrent("a text setting in a condition", { timeout: 120_000 }, () => {
  it("a comparison fails the build, naming the file, the setting, the line and the fix", async () => {
    const dir = content("compared", 'Hello.\n\n{% if config.pet_name == "Rex" %}Good dog, Rex!{% endif %}\n');
    const { code, output } = await build(dir);
    expect(code).toBe(1);
    expect(output).toContain(`${path.join(dir, "pet", "editions", "0.md")}: config.pet_name\n`);
    expect(output).toMatch(
      /problem: the text setting `pet_name` is compared at line 6, column 1 \(\{% if config\.pet_name == "Rex" %\}\): /,
    );
    expect(output).toContain("a text setting is filled in after the page is built, so it cannot decide what");
    expect(output).toMatch(FIX);
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  });

  it("a check for a value at all (truthiness) fails too, however it is spaced", async () => {
    const dir = content("truthy", "{%-if config.pet_name-%}\nHi {{ config.pet_name }}\n{%-endif-%}\n");
    const { code, output } = await buildHere(dir, "--strict");
    expect(code).toBe(1);
    expect(output).toMatch(/problem: the text setting `pet_name` is used in a condition, a loop or a filter at line 4/);
    expect(output).toMatch(FIX);
  });
});

describe("a text setting printed as it is", { timeout: 120_000 }, () => {
  it("builds, and every variant carries its slot, filled with the subscriber's value", async () => {
    const dir = content(
      "printed",
      '{% assign pet = config.pet_name %}<p title="{{ pet }}">' +
        '{% if config.lang == "fr" %}Bonjour{% else %}Hello{% endif %}, {{ config.pet_name }}!</p>\n',
    );
    const { code, output } = await buildHere(dir, "--strict");
    expect(output).toContain("littlepress: built");
    expect(code).toBe(0);
    const pub = await openPublication("pet", path.resolve(path.dirname(dir), "_site"));
    const filled = new Map<string, string>();
    for await (const e of eachEdition(pub!)) filled.set(e.variant, fillSlots(e.html, new Map([["pet_name", "Rex"]])));
    expect(filled.get("lang=en")).toContain('<p title="Rex">Hello, Rex!</p>');
    expect(filled.get("lang=fr")).toContain('<p title="Rex">Bonjour, Rex!</p>');
  });
});
