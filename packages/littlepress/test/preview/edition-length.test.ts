// The build's layout measure of an edition's length (lib/build/edition-length.ts)
// against the real thing: the same editions rendered by `npm run preview`
// (sirius's page in PhantomJS, sirius's browser, 384 px wide). The measure must err short, so
// that `build --strict` never fails an edition that prints whole, and still
// come near enough to catch one that is clearly too long.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LengthEstimator } from "../../lib/build/edition-length.ts";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { preview } from "../../scripts/preview/run.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { buildSite } from "../helpers/build-sites.ts";

const work = path.join(".test-work", `edition-length-${process.pid}`);
const content = path.join(work, "content");
const site = path.join(work, "_site");

const LOREM =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et " +
  "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex " +
  "ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore.";
const NEKO =
  "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗い所で泣いていた事だけは記憶している。";
const times = (n: number, f: (i: number) => string, sep = "\n\n") =>
  Array.from({ length: n }, (_, i) => f(i)).join(sep);

/** Editions of every common shape, by number. */
const EDITIONS: Record<number, [title: string, body: string]> = {
  0: ["Short", `Hello there.\n\n${LOREM}\n\nBye.`],
  1: ["A picture", `Good morning. The weather is fine today.\n\n![a picture](pic.png)\n\nThat is all. ${LOREM}`],
  2: ["Four hundred", times(400, (i) => `Paragraph ${i + 1}.`)],
  3: ["Lorem", times(40, () => LOREM)],
  4: [
    "Mixed",
    times(10, (i) => `## Section ${i}\n\n${LOREM.slice(0, 160)}\n\n- one\n- two items, longer\n\n> A quoted line.`),
  ],
  5: ["Table", "| a | b | c |\n|---|---|---|\n" + times(80, (i) => `| row ${i} | text | more text here |`, "\n")],
  6: ["Verse", times(25, (i) => `Line one of verse ${i}<br>\nline two is here<br>\nand the third`)],
  7: ["Neko", times(30, () => NEKO)],
  8: ["Roll", '<div style="height: 10400px; border-left: 4px solid black"></div>'],
};

let measured: { key: string; real: number; estimate: number }[] = [];

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  const editions = path.join(content, "paper", "editions");
  mkdirSync(editions, { recursive: true });
  const publication = { name: "Paper", description: "d", owner_email: "p@example.com", delivered_on: "Daily" };
  writeFileSync(
    path.join(content, "paper", "publication.json"),
    JSON.stringify({ ...publication, editions: { by: "delivery_count" } }),
  );
  await sharp({ create: { width: 384, height: 600, channels: 3, background: "#888" } })
    .png()
    .toFile(path.join(editions, "pic.png"));
  for (const [n, [title, body]] of Object.entries(EDITIONS))
    writeFileSync(path.join(editions, `${n}.md`), `---\nnumber: ${n}\ntitle: ${title}\n---\n${body}\n`);
  await buildSite(content, site);
  const estimator = new LengthEstimator();
  const estimates = new Map<string, number>();
  for await (const e of eachEdition((await openPublication("paper", path.resolve(site)))!))
    estimates.set(e.key, estimator.estimate(e.html));
  const browser = await workerBrowser();
  const result = await preview({ content, site, build: false, out: path.join(work, "preview"), browser });
  measured = result.rows.map((r) => ({ key: r.key, real: r.heightPx!, estimate: estimates.get(r.key)! }));
  // The calibration, for a look: how far short the measure is of the print, edition by edition.
  const errors = measured.map((m) => ({ ...m, short: `${(((m.real - m.estimate) / m.real) * 100).toFixed(1)}%` }));
  console.table(errors.sort((a, b) => Number(a.key) - Number(b.key)));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the layout measure against sirius's browser", () => {
  it("measures every edition short of its real length, and within 40% of it", () => {
    expect(measured.map((m) => m.key).sort()).toEqual(Object.keys(EDITIONS).sort());
    for (const m of measured) {
      const at = `edition ${m.key}: estimate ${m.estimate} px, printed ${m.real} px`;
      expect(m.estimate, at).toBeLessThanOrEqual(m.real + 4);
      expect(m.estimate, at).toBeGreaterThan(m.real * 0.6);
    }
  });

  it("finds the editions the printer cuts, and no other", () => {
    const cut = measured.filter((m) => m.real > 10_000).map((m) => m.key);
    expect(cut.sort()).toEqual(["2", "3", "8"]);
    expect(
      measured
        .filter((m) => m.estimate > 10_000)
        .map((m) => m.key)
        .sort(),
    ).toEqual(cut);
  });
});
