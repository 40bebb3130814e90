import { describe, expect, it } from "vitest";
import type { ConfigField } from "../../lib/config-fields.ts";
import { ContentError } from "../../lib/content-error.ts";
import { editionEtag } from "../../lib/etag.ts";
import { buildManifest, type RenderedEdition } from "../../lib/manifest.ts";
import type { PublicationSource } from "../../lib/site.ts";
import { slotToken } from "../../lib/text-slots.ts";
import { variantsOf, type Variant } from "../../lib/variants.ts";

const FIELDS: ConfigField[] = [
  { type: "select", name: "lang", label: "Language", required: true, options: [["English", "en"], ["Français", "fr"]] },
  { type: "text", name: "name", label: "Name", required: false },
];
const [EN, FR] = variantsOf(FIELDS) as [Variant, Variant];

function source(fields: ConfigField[] = FIELDS): PublicationSource {
  return {
    slug: "tales",
    name: "Tales",
    description: "D",
    owner_email: "t@example.com",
    delivered_on: "Daily",
    publication_api_version: "1.0",
    external_configuration: false,
    charset: "utf-8",
    fields,
    editions: { by: "delivery_count", ends: true, list: [{ key: "0", file: "content/tales/editions/a.md" }, { key: "1", file: "content/tales/editions/b.md" }] },
    sampleKey: "1",
  };
}

const render = (key: string, variant: Variant, html: string): RenderedEdition => ({ source: `content/tales/editions/${key}.md`, key, variant, file: `${key}/${variant.id}.html`, html });

describe("buildManifest", () => {
  it("lists keys, settings and one prebuilt copy per key and variant", () => {
    const { manifest, duplicates } = buildManifest(source(), [render("0", EN, "<p>Zero</p>"), render("0", FR, "<p>Zéro</p>"), render("1", EN, "<p>One</p>"), render("1", FR, "<p>Un</p>")]);
    expect(manifest).toMatchObject({ format: 1, slug: "tales", by: "delivery_count", ends: true, charset: "utf-8", fields: FIELDS, keys: ["0", "1"], sample: "1" });
    expect(Object.keys(manifest.editions)).toEqual(["0", "1"]);
    expect(manifest.editions["0"]![FR.id]).toEqual({ file: `0/${FR.id}.html`, etag: editionEtag("0", FR.id, "<p>Zéro</p>"), slots: false });
    expect(duplicates).toEqual([]);
  });

  it("stores identical HTML once and lists the other files as duplicates", () => {
    const { manifest, duplicates } = buildManifest(source(), [render("0", EN, "<p>Same</p>"), render("0", FR, "<p>Same</p>"), render("1", EN, "<p>Same</p>")]);
    expect(manifest.editions["0"]![FR.id]!.file).toBe(`0/${EN.id}.html`);
    expect(manifest.editions["1"]![EN.id]!.file).toBe(`0/${EN.id}.html`);
    expect(duplicates).toEqual([`0/${FR.id}.html`, `1/${EN.id}.html`]);
    // Same file, but still different ETags: key and variant are part of them.
    const etags = [manifest.editions["0"]![EN.id]!.etag, manifest.editions["0"]![FR.id]!.etag, manifest.editions["1"]![EN.id]!.etag];
    expect(new Set(etags).size).toBe(3);
  });

  it("marks copies with text slots", () => {
    const { manifest } = buildManifest(source(), [render("0", EN, `<p>Hi ${slotToken("name")}</p>`), render("0", FR, "<p>Salut</p>")]);
    expect(manifest.editions["0"]![EN.id]!.slots).toBe(true);
    expect(manifest.editions["0"]![FR.id]!.slots).toBe(false);
  });

  it("throws a ContentError naming the source for a misused text setting", () => {
    let error: unknown;
    try {
      buildManifest(source(), [render("0", EN, `<script>var n="${slotToken("name")}"</script>`), render("1", EN, `<p>${slotToken("name").toUpperCase()}</p>`)]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContentError);
    const problems = (error as ContentError).problems;
    expect(problems.map((p) => p.file)).toEqual(["content/tales/editions/0.md", "content/tales/editions/1.md"]);
    expect(problems.every((p) => p.field === "config" && p.fix.length > 0)).toBe(true);
  });

  it("reports the same misuse once per source file, not once per variant", () => {
    const bad = `<style>/*${slotToken("name")}*/</style>`;
    expect(() => buildManifest(source(), [render("0", EN, bad), render("0", FR, bad)])).toThrow(ContentError);
    try {
      buildManifest(source(), [render("0", EN, bad), render("0", FR, bad)]);
    } catch (e) {
      expect((e as ContentError).problems).toHaveLength(1);
    }
  });

  it("survives a JSON round trip", () => {
    const { manifest } = buildManifest(source([]), [render("0", { id: "", values: {} }, "<p>x</p>")]);
    expect(JSON.parse(JSON.stringify(manifest))).toEqual({ ...manifest, editions: { "0": { "": { ...manifest.editions["0"]![""]! } } } });
    expect((JSON.parse(JSON.stringify(manifest)) as typeof manifest).editions["0"]![""]!.file).toBe("0/.html");
  });
});
