// An edition longer than the printer prints (issue 25, item 4) is known at
// build time: `npm run build` warns, naming the file, its estimated length
// and the fix; `--strict` fails it; `npm start` says so in the terminal. A
// normal edition with a full-width picture passes all three quietly.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnStart } from "../../scripts/start.ts";
import { buildCommand } from "../helpers/build-command.ts";
import { kitScript, type ScriptRun } from "../helpers/kit-script.ts";

const ROOT = path.join(".test-work", `edition-length-build-${process.pid}`);
const PUBLICATION = { name: "Roll", description: "d", owner_email: "r@example.com", delivered_on: "Daily" };

/** A publication whose edition 0 is normal (a few paragraphs, a 384x600 picture) and edition 1 is 400 paragraphs. */
async function content(): Promise<string> {
  const dir = path.join(ROOT, "content");
  const editions = path.join(dir, "roll", "editions");
  mkdirSync(editions, { recursive: true });
  const publication = { ...PUBLICATION, editions: { by: "delivery_count" } };
  writeFileSync(path.join(dir, "roll", "publication.json"), JSON.stringify(publication));
  await sharp({ create: { width: 384, height: 600, channels: 3, background: "#888" } })
    .png()
    .toFile(path.join(editions, "pic.png"));
  const normal = "Good morning.\n\nThe weather is fine today.\n\n![a picture](pic.png)\n\nThat is all for today.\n";
  writeFileSync(path.join(editions, "normal.md"), `---\nnumber: 0\ntitle: Normal\n---\n${normal}`);
  const long = Array.from({ length: 400 }, (_, i) => `Paragraph ${i + 1}.`).join("\n\n");
  writeFileSync(path.join(editions, "long.md"), `---\nnumber: 1\ntitle: Long\n---\n${long}\n`);
  return dir;
}

/** `npm run build`, in a process of its own as the author runs it; the --strict build in this one (buildCommand). */
const build = (dir: string, output: string, ...flags: string[]): Promise<ScriptRun> =>
  kitScript("build", ["--content", dir, "--output", output, ...flags]);
const buildHere = (dir: string, output: string, ...flags: string[]): Promise<ScriptRun> =>
  buildCommand(["--content", dir, "--output", output, ...flags]);

let dir: string;
beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  dir = await content();
});
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

/** The warning about long.md, and none about normal.md. */
function expectLengthWarning(output: string) {
  const long = path.join(dir, "roll", "editions", "long.md");
  const [, px] =
    new RegExp(
      `${long.replaceAll(".", "\\.")}: length\\n\\s+problem: the edition is about ([\\d,]+) px long on paper, ` +
        "and the printer cuts every print at 10,000 px: the rest is never printed",
    ).exec(output) ?? [];
  expect(Number(px?.replaceAll(",", ""))).toBeGreaterThan(10_000);
  expect(output).toMatch(
    /fix: split it into several editions .*npm run verify and npm run preview measure it exactly, rendered in Phantom/,
  );
  expect(output).not.toContain("normal.md: length");
}

describe.concurrent("an edition longer than the printer prints", { timeout: 120_000 }, () => {
  it("npm run build warns, naming the file, its length and the fix", async () => {
    const { code, output } = await build(dir, path.join(ROOT, "plain"));
    expect(code).toBe(0);
    expectLengthWarning(output);
  });

  it("npm run build -- --strict fails it", async () => {
    const { code, output } = await buildHere(dir, path.join(ROOT, "strict"), "--strict");
    expect(code).toBe(1);
    expectLengthWarning(output);
  });

  it("npm start says so in the terminal", async () => {
    const started = await spawnStart({ content: dir, output: path.join(ROOT, "start") });
    try {
      expectLengthWarning(started.log);
    } finally {
      await started.stop();
    }
  });
});
