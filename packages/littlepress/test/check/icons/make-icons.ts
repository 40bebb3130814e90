// Makes the icons in this folder: 55x55 PNGs of the kinds other tools and kits
// write (transparent backgrounds, palettes, grey with alpha, 16 bits,
// interlaced, anti-aliased greys, colour), and the blank ones the checker must
// still fail. Drawn as SVG and written by sharp, then committed, so the tests
// read the same bytes everywhere. Run again after changing a drawing:
//   npx tsx test/check/icons/make-icons.ts
// test/check/icon-checks.test.ts checks that each file is the PNG kind its
// name says (colour type, depth, interlace), straight from its header.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const DIR = path.dirname(new URL(import.meta.url).pathname);

const svg = (body: string, background = "") =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="55" height="55" viewBox="0 0 55 55">` +
      (background ? `<rect width="55" height="55" fill="${background}"/>` : "") +
      body +
      "</svg>",
  );

// A bird on a branch: a solid glyph with curves, so its edges are anti-aliased.
const BIRD = "M12 40c4-10 10-17 20-18 2-6 8-9 13-6l5 1-5 3c1 10-6 18-17 20l-7 1 3 4h-4l-3-4-4 1z" + "M8 45h40v2H8z";
const bird = (fill: string, extra = "") => `<path d="${BIRD}" fill="${fill}" ${extra}/>`;
// A page of text in 1-px lines on whole-pixel coordinates: each line falls between two
// rows or columns of pixels, so a renderer draws it two pixels wide in 50% grey.
const PAGE_LINES =
  `<g fill="none" stroke="#000" stroke-width="1">` +
  `<path d="M14 6 H41 V49 H14 Z"/><path d="M19 21 H37 M19 28 H37 M19 35 H37 M19 42 H30"/></g>`;
// The same kind of drawing on the pixel grid (half-pixel coordinates): crisp black lines one pixel wide.
const CIRCLE_LINES =
  `<g fill="none" stroke="#000" stroke-width="1" shape-rendering="crispEdges">` +
  `<circle cx="27.5" cy="27.5" r="20"/><path d="M27.5 12.5 V27.5 H38.5"/></g>`;
// A ringed letter, for the logos in greys.
const logo = (ink: string) =>
  `<circle cx="27.5" cy="27.5" r="19" fill="none" stroke="${ink}" stroke-width="4"/>` +
  `<path d="M21 17v21h14v-5h-9V17z" fill="${ink}"/>`;

type Make = () => Promise<Buffer>;
const png = (image: sharp.Sharp) => image.png({ compressionLevel: 9 }).toBuffer();
/** 8-bit grey with alpha (colour type 4), from an SVG drawn in black on transparent. */
async function greyAlpha(drawing: Buffer, depth: "uchar" | "ushort" = "uchar"): Promise<Buffer> {
  const rgba = await sharp(drawing).ensureAlpha().raw().toBuffer();
  const pixels = rgba.length / 4;
  if (depth === "uchar") {
    const la = Buffer.alloc(pixels * 2);
    for (let i = 0; i < pixels; i++) [la[2 * i], la[2 * i + 1]] = [rgba[4 * i]!, rgba[4 * i + 3]!];
    return png(sharp(la, { raw: { width: 55, height: 55, channels: 2 } }).toColourspace("b-w"));
  }
  return png(sharp(drawing).ensureAlpha().toColourspace("grey16"));
}

export const ICONS: Record<string, Make> = {
  // Real icons: each prints a visible picture.
  "glyph-on-transparent.png": () => png(sharp(svg(bird("#000")))),
  "line-drawing-on-transparent.png": () => png(sharp(svg(PAGE_LINES))),
  "palette-2-colours.png": () =>
    sharp(svg(bird("#000"), "#fff"))
      .png({ palette: true, colours: 2 })
      .toBuffer(),
  "grey-alpha.png": () => greyAlpha(svg(bird("#000"))),
  "grey-alpha-16-bit.png": () => greyAlpha(svg(bird("#000")), "ushort"),
  "grey-16-bit.png": () =>
    png(
      sharp(svg(bird("#000"), "#fff"))
        .flatten({ background: "#fff" })
        .toColourspace("grey16"),
    ),
  "rgba-16-bit-on-transparent.png": () => png(sharp(svg(bird("#000"))).toColourspace("rgb16")),
  "interlaced.png": () =>
    sharp(svg(bird("#000")))
      .png({ progressive: true })
      .toBuffer(),
  "thin-line-on-white.png": () =>
    png(sharp(svg(CIRCLE_LINES, "#fff")).flatten({ background: "#fff" }).toColourspace("b-w")),
  "dark-grey-logo.png": () => png(sharp(svg(logo("#333"), "#fff")).flatten({ background: "#fff" })),
  // A brand colour (Material's blue) on transparent: mid-light to a grey conversion, dithered to half its dots.
  "blue-logo-on-transparent.png": () => png(sharp(svg(logo("#2196f3")))),
  // Black at 38% opacity, as icon sets draw an inactive icon: a light grey once on white paper.
  "faded-glyph-on-transparent.png": () => png(sharp(svg(bird("#000", 'fill-opacity="0.38"')))),
  "short-dash.png": () =>
    png(sharp(svg(`<path d="M18 27.5h20" stroke="#000" stroke-width="1"/>`, "#fff")).flatten({ background: "#fff" })),
  "mid-grey-logo.png": () => png(sharp(svg(logo("#888"), "#fff")).flatten({ background: "#fff" })),
  "grey-on-light-grey.png": () => png(sharp(svg(logo("#777"), "#ccc")).flatten({ background: "#fff" })),
  // Blank: nothing, or next to nothing, prints.
  "all-white.png": () => png(sharp(svg("", "#fff")).flatten({ background: "#fff" }).toColourspace("b-w")),
  // Every pixel transparent black (0, 0, 0, 0), as many tools store "empty".
  "all-transparent.png": () =>
    png(sharp({ create: { width: 55, height: 55, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })),
  "all-black.png": () => png(sharp(svg("", "#000")).flatten({ background: "#fff" }).toColourspace("b-w")),
  // Drawn for a dark page: white on transparent is white on white on paper.
  "white-glyph-on-transparent.png": () => png(sharp(svg(bird("#fff")))),
  "stray-dots.png": () => {
    const grey = Buffer.alloc(55 * 55, 255);
    for (const [x, y] of [
      [5, 7],
      [40, 3],
      [22, 30],
      [50, 50],
      [9, 44],
      [31, 12],
    ])
      grey[y! * 55 + x!] = 0;
    return png(sharp(grey, { raw: { width: 55, height: 55, channels: 1 } }).toColourspace("b-w"));
  },
  "faint-on-white.png": () => png(sharp(svg(logo("#f4f4f4"), "#fff")).flatten({ background: "#fff" })),
};

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname)
  for (const [name, make] of Object.entries(ICONS)) await writeFile(path.join(DIR, name), await make());
