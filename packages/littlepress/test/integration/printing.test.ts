// Images in editions (test/fixtures/printing): fitted to the paper, greyscale,
// written beside the publication and linked by absolute URL from site.json's url.
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { builtSite } from "../helpers/sites.ts";

const site = builtSite("printing");
const first = await eachEdition((await openPublication("pics", path.resolve(site)))!).next();
if (first.done) throw new Error(`${site}/pics has no edition`);
const images = [...first.value.html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);

describe("images in editions", () => {
  it("are linked by absolute URL under the publication, from the site's url", () => {
    expect(images).toHaveLength(2);
    for (const img of images) expect(img).toMatch(/src="https:\/\/press\.example\/pics\/img\/[\w-]+-\d+\.png"/);
    expect(images[1]).toContain('class="dither"');
  });

  it("come out at most 384 px wide, greyscale, with their size in the tag", async () => {
    const sizes = [];
    for (const img of images) {
      const file = path.join(site, "pics", "img", path.basename(/src="([^"]+)"/.exec(img)![1]!));
      const meta = await sharp(file).metadata();
      expect(meta.channels).toBe(1);
      expect(img).toContain(`width="${meta.width}" height="${meta.height}"`);
      sizes.push(meta.width);
    }
    expect(sizes).toEqual([384, 100]); // the 1000 px photo is fitted; the small image keeps its size
  });
});
