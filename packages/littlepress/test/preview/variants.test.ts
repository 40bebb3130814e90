// The preview renders every edition with every setting a subscriber can have,
// and renders each distinct page once: on a publication built into a folder
// of this test's own, whose settings change nothing on the page.
import { mkdirSync, writeFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import { PhantomRenderer } from "../../scripts/preview/phantom.ts";
import { preview, type PreviewResult } from "../../scripts/preview/run.ts";
import { LONG_TEXT_CHARS, longValue, subscriberSettings } from "../../scripts/preview/settings.ts";
import type { PreviewIndex } from "../../scripts/preview/summary.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { buildSite } from "../helpers/build-sites.ts";

const work = path.join(".test-work", `variants-${process.pid}`);

describe("subscriberSettings", () => {
  const lang: ConfigField = {
    type: "select",
    name: "lang",
    label: "Language",
    required: true,
    options: [
      ["English", "en"],
      ["Français", "fr"],
    ],
    default: "fr",
  };
  const size: ConfigField = { type: "radio", name: "size", label: "Size", required: true, options: [["S", "s"]] };
  const name: ConfigField = {
    type: "text",
    name: "name",
    label: "Name",
    required: false,
    default: "Phil",
    max_length: 80,
  };
  const town: ConfigField = { type: "text", name: "town", label: "Town", required: false };

  it("is every option combination, defaults first, each with the text defaults, each text long, all long", () => {
    const labels = subscriberSettings([lang, size, name, town]).map((s) => s.label);
    expect(labels).toEqual([
      'lang=fr, size=s, name=Phil, town=""',
      'lang=fr, size=s, name=<80 characters>, town=""',
      `lang=fr, size=s, name=Phil, town=<${LONG_TEXT_CHARS} characters>`,
      `lang=fr, size=s, name=<80 characters>, town=<${LONG_TEXT_CHARS} characters>`,
      'lang=en, size=s, name=Phil, town=""',
      'lang=en, size=s, name=<80 characters>, town=""',
      `lang=en, size=s, name=Phil, town=<${LONG_TEXT_CHARS} characters>`,
      `lang=en, size=s, name=<80 characters>, town=<${LONG_TEXT_CHARS} characters>`,
    ]);
    const settings = subscriberSettings([lang, size, name, town]);
    expect(settings.map((s) => s.defaults)).toEqual([true, false, false, false, false, false, false, false]);
    expect(settings[1]!.values.name).toHaveLength(80);
    expect(settings[1]!.values.name).toMatch(/^(\w+ )+\w+$/); // words, which wrap as a name does
  });

  it("is one set of empty settings for a publication without fields", () => {
    expect(subscriberSettings([])).toEqual([{ values: {}, label: "", defaults: true }]);
  });

  it("takes the longest value the field's own rules accept, or none", () => {
    const digits = { ...town, pattern: "[0-9]{5}" };
    expect(longValue(digits, (v) => /^[0-9]{5}$/.test(v))).toBe("99999");
    expect(longValue(town, () => false)).toBeUndefined();
  });
});

describe("npm run preview on a publication whose settings give the same pages", () => {
  const content = path.join(work, "content");
  const site = path.join(work, "site");
  const out = path.join(work, "out");
  let result: PreviewResult;
  let renders: number;

  beforeAll(async () => {
    // A select of three and a text field that no edition prints, and an edition 2 that is edition 1 again.
    const dir = path.join(content, "same");
    mkdirSync(path.join(dir, "editions"), { recursive: true });
    const fields = [
      {
        type: "select",
        name: "lang",
        label: "Language",
        options: [
          ["English", "en"],
          ["Français", "fr"],
          ["Deutsch", "de"],
        ],
      },
      { type: "text", name: "name", label: "Name", required: false, max_length: 30 },
    ];
    const meta = { name: "Same", description: "Same", owner_email: "s@example.com", delivered_on: "Daily" };
    const pub = { ...meta, editions: { by: "delivery_count", ends: true }, config: { fields } };
    writeFileSync(path.join(dir, "publication.json"), JSON.stringify(pub));
    const texts = ["The first.", "The second.", "The second."];
    texts.forEach((text, n) =>
      writeFileSync(path.join(dir, "editions", `${n}.md`), `---\nnumber: ${n}\ntitle: Same\n---\n${text}\n`),
    );
    // And one whose select gives each option its own page.
    const other = path.join(content, "differs");
    mkdirSync(path.join(other, "editions"), { recursive: true });
    const select = {
      type: "select",
      name: "lang",
      label: "Language",
      options: [
        ["English", "en"],
        ["Français", "fr"],
      ],
    };
    const differs = { ...pub, name: "Differs", config: { fields: [select] } };
    writeFileSync(path.join(other, "publication.json"), JSON.stringify(differs));
    const hello = '{% if config.lang == "fr" %}Bonjour.{% else %}Hello.{% endif %}';
    writeFileSync(path.join(other, "editions", "0.md"), `---\nnumber: 0\ntitle: Differs\n---\n${hello}\n`);
    await buildSite(content, site);
    const spy = vi.spyOn(PhantomRenderer.prototype, "renderPage");
    try {
      result = await preview({ content, site, build: false, out, browser: await workerBrowser() });
      renders = spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }, 120_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  it("fetches every edition with every setting, and renders each distinct page once", () => {
    expect(result.failures).toBe(0);
    const same = result.publications.find((p) => p.slug === "same")!;
    expect(same.variants).toBe(3 * 3 * 2); // editions × options × (default name, long name)
    expect(same.pages).toBe(2);
    expect(result.variants).toBe(18 + 2);
    expect(result.pages).toBe(2 + 2);
    expect(renders).toBe(4);
    expect(result.rendered).toBe(4);
  });

  it("shows one row an edition, naming the first settings and how many others give that page", () => {
    expect(result.rows.map((r) => [r.slug, r.key, r.settings, r.others])).toEqual([
      ["differs", "0", "lang=en", 0],
      ["differs", "0", "lang=fr", 0],
      ["same", "0", 'lang=en, name=""', 5],
      ["same", "1", 'lang=en, name=""', 5],
      ["same", "2", 'lang=en, name=""', 5],
    ]);
  });

  it("writes each edition's PNG, and no variant sheet where the settings change nothing", async () => {
    const index = JSON.parse(await readFile(path.join(out, "same", "index.json"), "utf8")) as PreviewIndex;
    expect(index.editions.map((e) => e.key)).toEqual(["0", "1", "2"]);
    expect(index.variants).toBeUndefined();
    expect((await sharp(path.join(out, "same", "2.png")).metadata()).width).toBe(384);
  });

  it("shows an edition's pages side by side, under their settings, when its settings differ", async () => {
    const dir = path.join(work, "out", "differs");
    const index = JSON.parse(await readFile(path.join(dir, "index.json"), "utf8")) as PreviewIndex;
    expect(index.variants).toEqual([{ key: "0", file: "variants/0.png", settings: ["lang=en", "lang=fr"] }]);
    const sheet = await sharp(path.join(dir, "variants", "0.png")).metadata();
    expect(sheet.width).toBeGreaterThanOrEqual(2 * 384);
  });
});
