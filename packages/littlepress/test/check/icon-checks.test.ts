// The checker's icon test against icons of the kinds real tools and other kits
// write (test/check/icons/, made by make-icons.ts there), served over HTTP as a
// publication serves them. Only an icon that prints blank may fail.
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkIcon, judgeDrawing } from "../../scripts/check/icon-checks.ts";
import type { Grey } from "../../scripts/check/png.ts";

const ICONS = "test/check/icons";

/** Each fixture: what its PNG header says it is, and what meta.icon-drawn must say of it. */
const FIXTURES: Record<string, { kind: [depth: number, colourType: number, interlace: number]; drawn: string }> = {
  // colour types: 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA; interlace 1 is Adam7
  "glyph-on-transparent.png": { kind: [8, 6, 0], drawn: "pass" },
  "line-drawing-on-transparent.png": { kind: [8, 6, 0], drawn: "pass" },
  "blue-logo-on-transparent.png": { kind: [8, 6, 0], drawn: "pass" },
  "palette-2-colours.png": { kind: [1, 3, 0], drawn: "pass" },
  "grey-alpha.png": { kind: [8, 4, 0], drawn: "pass" },
  "grey-alpha-16-bit.png": { kind: [16, 4, 0], drawn: "pass" },
  "grey-16-bit.png": { kind: [16, 0, 0], drawn: "pass" },
  "rgba-16-bit-on-transparent.png": { kind: [16, 6, 0], drawn: "pass" },
  "interlaced.png": { kind: [8, 6, 1], drawn: "pass" },
  "thin-line-on-white.png": { kind: [8, 0, 0], drawn: "pass" },
  "dark-grey-logo.png": { kind: [8, 2, 0], drawn: "pass" },
  "short-dash.png": { kind: [8, 2, 0], drawn: "pass" },
  // greys that dither to a visible pattern: they show, so a warning, not a failure
  "mid-grey-logo.png": { kind: [8, 2, 0], drawn: "warn" },
  "grey-on-light-grey.png": { kind: [8, 2, 0], drawn: "warn" },
  "faded-glyph-on-transparent.png": { kind: [8, 6, 0], drawn: "warn" },
  // blank once printed
  "all-white.png": { kind: [8, 0, 0], drawn: "fail" },
  "all-transparent.png": { kind: [8, 6, 0], drawn: "fail" },
  "all-black.png": { kind: [8, 0, 0], drawn: "fail" },
  "white-glyph-on-transparent.png": { kind: [8, 6, 0], drawn: "fail" },
  "stray-dots.png": { kind: [8, 0, 0], drawn: "fail" },
  "faint-on-white.png": { kind: [8, 2, 0], drawn: "fail" },
};

const read = (name: string) => readFileSync(path.join(ICONS, name));

let server: Server;
let origin: string;
beforeAll(async () => {
  // GET /<name>/icon.png answers test/check/icons/<name>.png
  server = createServer((req, res) => {
    const name = /^\/([\w-]+)\/icon\.png$/.exec(req.url ?? "")?.[1];
    if (!name || !(`${name}.png` in FIXTURES)) return res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "image/png" }).end(read(`${name}.png`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function drawn(name: string) {
  const base = `${origin}/${name.replace(/\.png$/, "")}/`;
  const results = await checkIcon({ base, timeoutMs: 5000, progress: () => {} });
  expect(results.find((r) => r.id === "meta.icon")).toMatchObject({ status: "pass" });
  return results.find((r) => r.id === "meta.icon-drawn")!;
}

describe("the icon fixtures", () => {
  it("are every PNG in the folder, each the kind its name says", () => {
    expect(
      readdirSync(ICONS)
        .filter((f) => f.endsWith(".png"))
        .sort(),
    ).toEqual(Object.keys(FIXTURES).sort());
    for (const [name, { kind }] of Object.entries(FIXTURES)) {
      const png = read(name);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], name).toEqual([55, 55]);
      expect([png[24], png[25], png[28]], name).toEqual(kind);
    }
  });
});

describe("meta.icon-drawn on real icons", () => {
  for (const [name, { drawn: status }] of Object.entries(FIXTURES))
    it(`${name}: ${status}`, async () => {
      expect(await drawn(name)).toMatchObject({ status });
    });

  it("says what prints", async () => {
    expect((await drawn("glyph-on-transparent.png")).detail).toMatch(/^a picture, \d+\.\d% black dots once printed$/);
    expect((await drawn("mid-grey-logo.png")).detail).toMatch(
      /^grey on grey: its greys run only from 136 to 255 of 0-255, so it prints as dither patterns \(\d+\.\d% black/,
    );
    expect((await drawn("all-transparent.png")).detail).toBe(
      "prints blank: not one black dot; draw it dark on a light or transparent ground",
    );
    expect((await drawn("stray-dots.png")).detail).toBe(
      "prints nearly blank: 6 black dots of 3025, scattered, none in a mark of 16 together; " +
        "draw it dark on a light or transparent ground",
    );
    expect((await drawn("all-black.png")).detail).toBe(
      "prints all black; draw it dark on a light or transparent ground",
    );
  });
});

describe("judgeDrawing", () => {
  const white = (): Grey => ({ data: new Uint8Array(55 * 55).fill(255), width: 55, height: 55 });
  const line = (icon: Grey, length: number, shade = 0) => {
    for (let x = 0; x < length; x++) icon.data[27 * 55 + 5 + x] = shade;
    return icon;
  };

  it("passes a mark of 16 joined dots, though under 1% of the icon, and fails 15", () => {
    expect(judgeDrawing(line(white(), 16))).toMatchObject({ status: "pass" });
    expect(judgeDrawing(line(white(), 15))).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/^prints nearly blank: 15 black dots of 3025/),
    });
  });

  it("fails 29 lone dots and passes 31: a share of 1%, joined or not", () => {
    const dotted = (n: number) => {
      const icon = white();
      for (let i = 0; i < n; i++) icon.data[(2 + 2 * Math.floor(i / 20)) * 55 + 2 + 2 * (i % 20)] = 0;
      return icon;
    };
    expect(judgeDrawing(dotted(29))).toMatchObject({ status: "fail" });
    expect(judgeDrawing(dotted(31))).toMatchObject({ status: "pass" });
  });

  it("on black: a white mark shows, lone white dots do not", () => {
    const black = (): Grey => ({ data: new Uint8Array(55 * 55), width: 55, height: 55 });
    expect(judgeDrawing(line(black(), 20, 255))).toMatchObject({ status: "pass" });
    const specks = black();
    for (const i of [100, 900, 2000]) specks.data[i] = 255;
    expect(judgeDrawing(specks)).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/^prints nearly all black: 3 white dots of 3025/),
    });
  });

  it("one even grey prints an even pattern with no picture: a warning", () => {
    const grey: Grey = { data: new Uint8Array(55 * 55).fill(128), width: 55, height: 55 };
    expect(judgeDrawing(grey)).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/^nearly one grey all over \(its greys run only from 128 to 128 of 0-255\)/),
    });
  });

  it("a grey too faint to leave a dot is blank, the same grey darker enough to dither is not", () => {
    // A disc of grey on white: 250 leaves no dot (the printer's error diffusion
    // truncates it away); 200 dithers to a pattern.
    const disc = (shade: number) => {
      const icon = white();
      for (let y = 0; y < 55; y++)
        for (let x = 0; x < 55; x++) if ((x - 27) ** 2 + (y - 27) ** 2 < 400) icon.data[y * 55 + x] = shade;
      return icon;
    };
    expect(judgeDrawing(disc(250))).toMatchObject({ status: "fail" });
    expect(judgeDrawing(disc(200))).toMatchObject({ status: "warn" });
  });
});
