// npm run sirius, the local stand-in for sirius (scripts/sirius.ts), started
// in-process on a free port with a temporary output folder: it answers print
// keys as sirius does and writes each print as the 1-bit PNG the printer would
// print. One Chromium serves its renders; afterAll stops it.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../lib/build/build.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import { stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { main as deliver } from "../../scripts/deliver.ts";
import { decodePng } from "../../scripts/preview/print-image.ts";
import {
  DEFAULT_PRINTER_FILE,
  fileStem,
  main,
  printersFrom,
  quality,
  startSirius,
  type LocalSirius,
} from "../../scripts/sirius.ts";
import { tempLocalState } from "../helpers/local-state.ts";
import { PAGE_MS, RENDER_TEST_MS } from "../helpers/page-time.ts";
import { RawConnection, rawRequest } from "../helpers/raw-http.ts";
import { withServer } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/sites.ts";

/** Renders start PhantomJS or Chromium; on a loaded machine that takes seconds. */
const RENDER_TIMEOUT = RENDER_TEST_MS;

const root = mkdtempSync(path.join(tmpdir(), "littlepress-sirius-"));
const out = path.join(root, "prints");
const lines: string[] = [];
const kitchen = "Kt7x9Qp2";
const attic = "At71c_z-";
let sirius: LocalSirius;

beforeAll(async () => {
  sirius = await startSirius({
    out,
    port: 0,
    printers: [
      { key: kitchen, name: "Kitchen", online: true },
      { key: attic, name: "Attic", online: false },
    ],
    log: (line) => lines.push(line),
  });
});
afterAll(async () => {
  await sirius?.close();
  rmSync(root, { recursive: true, force: true });
});

const post = (key: string, type: string, body: string | Buffer, from?: string) =>
  fetch(`${sirius.keyUrl(key)}${from === undefined ? "" : `?from=${encodeURIComponent(from)}`}`, {
    method: "POST",
    headers: { "Content-Type": type },
    body: typeof body === "string" ? body : new Uint8Array(body),
    // Prints sent together wait for each other's render: three took more than 10 s in all on a loaded machine.
    signal: AbortSignal.timeout(PAGE_MS),
  });

const pngs = () => readdirSync(out).filter((f) => f.endsWith(".png"));

/** Every pixel black or white: what a 1-bit printer prints. */
async function expectPrinted(file: string) {
  const meta = await sharp(file).metadata();
  expect(meta.format).toBe("png");
  expect(meta.bitsPerSample).toBe(1);
  const pixels = await decodePng(readFileSync(file));
  expect(pixels.width).toBe(384);
  const values = new Set(pixels.data);
  expect([...values].every((v) => v === 0 || v === 255)).toBe(true);
  expect(values.has(0)).toBe(true); // the header line at least is printed
  return pixels;
}

describe("print keys, as sirius answers them", () => {
  it("GET with Accept: application/json names the printer", async () => {
    const res = await fetch(sirius.keyUrl(kitchen), { headers: { Accept: "application/json" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ name: "Kitchen", owner: "local", status: "online" });
    const offline = await fetch(sirius.keyUrl(attic), { headers: { Accept: "application/json" } });
    expect(await offline.json()).toMatchObject({ name: "Attic", status: "offline" });
  });

  it("GET from a browser, which prefers HTML, gets a page", async () => {
    const res = await fetch(sirius.keyUrl(kitchen), { headers: { Accept: "text/html,*/*;q=0.8" } });
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("<h1>Kitchen</h1>");
  });

  it("answers 404 for an unknown key, another path or a key with a trailing slash", async () => {
    for (const url of [sirius.keyUrl("nope"), `${sirius.url}/`, `${sirius.keyUrl(kitchen)}/`]) {
      const res = await fetch(url, { headers: { Accept: "application/json" } });
      expect(res.status, url).toBe(404);
      await res.arrayBuffer();
    }
    const printed = await post("nope", "text/html", "<p>hi</p>");
    expect(printed.status).toBe(404);
    await printed.arrayBuffer();
  });

  it("answers 415 to a body sirius does not print, and prints nothing", async () => {
    const before = pngs().length;
    const res = await post(kitchen, "application/octet-stream", "\x00\x01");
    expect(res.status).toBe(415);
    await res.arrayBuffer();
    await sirius.idle();
    expect(pngs()).toHaveLength(before);
    expect(lines.at(-1)).toMatch(/refused: "application\/octet-stream" is not a type sirius prints \(415\)$/);
  });

  it('answers 504 {"status": "failed-offline"} for an offline printer', async () => {
    const res = await post(attic, "text/html", "<p>hi</p>", "Almanac");
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ status: "failed-offline" });
    expect(lines.at(-1)).toMatch(/ {2}Attic {2}from "Almanac" {2}offline: answered 504, nothing printed$/);
  });

  it("answers 413 to a body over 1 MiB, and the next request is answered", async () => {
    const res = await post(kitchen, "text/html", Buffer.alloc(2 * 1024 * 1024, "a"));
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    await res.arrayBuffer();
    const next = await fetch(sirius.keyUrl(kitchen), { headers: { Accept: "application/json" } });
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  });

  it("answers 413 to a declared length over 1 MiB without reading it, and closes the connection", async () => {
    const conn = await RawConnection.open(sirius.url);
    try {
      const head = { "Content-Type": "text/html", "Content-Length": String(50 * 1024 * 1024) };
      void conn.write(rawRequest("POST", `/printkey/${kitchen}`, head, Buffer.alloc(64 * 1024, "a")));
      const refused = await conn.response();
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe("close");
      expect(await conn.closedByServer()).toBe(true);
    } finally {
      conn.close();
    }
  });
});

describe("prints, as the printer would print them", () => {
  it(
    'answers 200 {"status": "sent"} to an HTML edition and writes it as a 1-bit PNG 384 px wide',
    async () => {
      const before = new Set(pngs());
      const edition = "<h1>Good morning</h1><p>A small edition, long enough to wrap onto a second line.</p>";
      const res = await post(kitchen, "text/html; charset=utf-8", edition, "Good Morning");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "sent" });
      await sirius.idle();
      const made = pngs().filter((f) => !before.has(f));
      expect(made).toHaveLength(1);
      expect(made[0]).toMatch(/^\d{4}-\d\d-\d\d-\d{6}-good-morning\.png$/);
      const file = path.join(out, made[0]!);
      const pixels = await expectPrinted(file);
      expect(pixels.height).toBeGreaterThan(150); // header, heading, two lines and sirius's 80 px margin
      const line = lines.find((l) => l.endsWith(made[0]!));
      expect(line).toMatch(
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d  Kitchen  from "Good Morning"  ${pixels.height} px  .*good-morning\\.png$`),
      );
    },
    RENDER_TIMEOUT,
  );

  it(
    "prints plain text and a PNG image as sirius does, and names a print sent without from by its key",
    async () => {
      const before = new Set(pngs());
      const image = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#777" } })
        .png()
        .toBuffer();
      expect((await post(kitchen, "text/plain", "one\n  two")).status).toBe(200);
      expect((await post(kitchen, "image/png", image, "Photos")).status).toBe(200);
      await sirius.idle();
      const made = pngs().filter((f) => !before.has(f));
      expect(made.map((f) => f.replace(/^\d{4}-\d\d-\d\d-\d{6}-/, "")).sort()).toEqual(["key-kt7x.png", "photos.png"]);
      for (const f of made) await expectPrinted(path.join(out, f));
      // The grey image fills the paper's width (sirius's <img style="width: 100%">): a dithered band of 384 x 192.
      const photo = await decodePng(
        readFileSync(
          path.join(
            out,
            made.find((f) => f.endsWith("photos.png"))!,
          ),
        ),
      );
      expect(photo.height).toBeGreaterThan(192);
    },
    RENDER_TIMEOUT,
  );

  it(
    "says in the terminal what the printer will not load: relative URLs",
    async () => {
      const res = await post(kitchen, "text/html", '<p>Hello <img src="img/sun.png" alt=""></p>', "Sun");
      expect(res.status).toBe(200);
      await sirius.idle();
      const at = lines.findIndex((l) => / {2}from "Sun" {2}\d+ px {2}/.test(l));
      expect(at).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toMatch(/^ +relative URLs load nothing on the printer .*: img\/sun\.png$/);
    },
    RENDER_TIMEOUT,
  );
});

describe("answers as sirius answers", () => {
  it(
    "answers a print only once its image is written, one print at a time, so prints sent together wait",
    async () => {
      const before = new Set(pngs());
      const made = () => pngs().filter((f) => !before.has(f)).length;
      const written: number[] = [];
      await Promise.all(
        ["One", "Two", "Three"].map(async (name) => {
          const res = await post(kitchen, "text/html; charset=utf-8", `<h1>${name}</h1>`, name);
          expect(res.status).toBe(200);
          // When its answer comes, its own image is there: every answer finds one more image than the last.
          written.push(made());
        }),
      );
      expect(written).toEqual([1, 2, 3]);
    },
    RENDER_TIMEOUT,
  );

  it(
    "renders and writes a print whose client hung up before the answer",
    async () => {
      const before = new Set(pngs());
      // The whole request written, then the connection closed: a client that gave up before the answer.
      const conn = await RawConnection.open(sirius.url);
      const body = "<h1>Still printed</h1>";
      await conn.write(
        `POST /printkey/${kitchen}?from=Gone HTTP/1.1\r\nHost: x\r\nContent-Type: text/html; charset=utf-8\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      );
      conn.socket.end();
      // Its render goes on; idle() waits for what was accepted (the request may still be on its way in).
      const deadline = Date.now() + 30_000;
      while (!lines.some((l) => l.includes('from "Gone"')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      await sirius.idle();
      expect(pngs().filter((f) => !before.has(f))).toEqual([expect.stringMatching(/-gone\.png$/)]);
    },
    RENDER_TIMEOUT,
  );
});

describe("a page that does not render", () => {
  let slow: LocalSirius;
  const slowLines: string[] = [];
  beforeAll(async () => {
    slow = await startSirius({
      out: path.join(root, "slow"),
      port: 0,
      printers: [{ key: "slowkey", name: "Porch", online: true }],
      log: (line) => slowLines.push(line),
      timeoutMs: 1_000,
    });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it(
    "is still accepted (200, as sirius accepted it), and the terminal says why it has no image",
    async () => {
      const res = await fetch(`${slow.keyUrl("slowkey")}?from=Slow`, {
        method: "POST",
        headers: { "Content-Type": "text/html" },
        // A script that never ends (the renderer refuses what a page would wait on elsewhere:
        // see hostile-page.test.ts).
        body: "<p>Waiting</p><script>for (;;) {}</script>",
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "sent" });
      await slow.idle();
      expect(slowLines).toEqual([
        expect.stringMatching(/ {2}Porch {2}from "Slow" {2}not rendered: the page did not load in 1 s$/),
      ]);
      expect(readdirSync(path.join(root, "slow")).filter((f) => f.endsWith(".png"))).toEqual([]);
    },
    RENDER_TIMEOUT,
  );
});

describe("end to end: npm run deliver prints on the stand-in", () => {
  const site = withServer("basic");
  const local = tempLocalState("sirius-deliver");
  afterAll(() => local.remove());

  it(
    "delivers a subscription's edition, which lands as a PNG",
    async () => {
      const state = stateSetup(local) as StateSetup;
      // The built site whose content/site.json lists the stand-in, on purpose, as the README shows.
      mkdirSync(path.join(local.folder, "_site_data"), { recursive: true });
      const index = { printKeyOrigins: [{ origin: sirius.url, private: true }] };
      writeFileSync(path.join(local.folder, "_site_data", "site.json"), JSON.stringify(index));
      await createSubscription(state.store, state.sealKey, {
        slug: "serial",
        printKey: new URL(sirius.keyUrl(kitchen)),
        printer: "Kitchen",
        zone: "Europe/Paris",
        hour: 6,
        settings: [],
        at: new Date("2026-03-01T00:00:00Z"),
      });
      const before = new Set(pngs());
      let stdout = "";
      const output = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stdout += t) };
      const where = ["--state", local.folder, "--key-file", local.keyFile, "--site", path.join(local.folder, "_site")];
      const code = await deliver([...where, "--origin", site.url, "--at", "2026-03-02T06:05:00+01:00"], output, {});
      expect(stdout).toContain("printed (sent to the printer)");
      expect(code).toBe(0);
      await sirius.idle();
      const made = pngs().filter((f) => !before.has(f));
      expect(made).toHaveLength(1);
      await expectPrinted(path.join(out, made[0]!));
    },
    RENDER_TIMEOUT,
  );
});

describe("a local site's images, as the home loop prints them", () => {
  // test/fixtures/printing's photo edition, built for a local server on a free port (its images link there, at
  // a loopback address, as npm start's do), and that server's edition POSTed to the stand-in as deliver POSTs it.
  const work = path.join(root, "local-site");
  let server: LocalServer;
  let edition: string;
  beforeAll(async () => {
    const content = path.join(work, "content");
    mkdirSync(content, { recursive: true });
    cpSync(path.join(FIXTURES, "printing", "pics"), path.join(content, "pics"), { recursive: true });
    mkdirSync(path.join(work, "_site"));
    server = await startServer({ port: 0, siteDir: path.join(work, "_site") });
    await build({ content, output: path.join(work, "_site"), url: server.url });
    edition = await (await fetch(`${server.url}/pics/edition/?delivery_count=0`)).text();
  }, RENDER_TIMEOUT);
  afterAll(() => server?.close());

  /** The stand-in's print of the edition, with `sites` as its --site: the PNG's pixels and the lines it logged. */
  async function printed(sites: string[] | undefined) {
    const said: string[] = [];
    const dir = path.join(work, `prints-${sites ? "site" : "default"}`);
    const own = await startSirius({
      out: dir,
      port: 0,
      printers: [{ key: "k1", name: "Desk", online: true }],
      log: (line) => said.push(line),
      ...(sites && { sites }),
    });
    try {
      const res = await fetch(`${own.keyUrl("k1")}?from=Pics`, {
        method: "POST",
        headers: { "Content-Type": "text/html; charset=utf-8" },
        body: edition,
      });
      expect(res.status).toBe(200);
      const file = readdirSync(dir).find((f) => f.endsWith(".png"));
      return { pixels: await decodePng(readFileSync(path.join(dir, file!))), said };
    } finally {
      await own.close();
    }
  }
  /** The share of black dots in rows 100 to 220 of a print: under sirius's header, where the wide photo is. */
  const photoBand = (p: { width: number; channels: number; data: Uint8Array }) => {
    let black = 0;
    for (let i = 100 * p.width; i < 220 * p.width; i++) if (p.data[i * p.channels] === 0) black++;
    return black / (120 * p.width);
  };

  it(
    "loads them from the site named with --site, at its loopback address: the photo's dots are printed",
    async () => {
      expect(edition).toContain(`src="${server.url}/pics/img/`);
      const { pixels, said } = await printed([server.url]);
      expect(said.filter((l) => l.includes("not loaded"))).toEqual([]);
      // The wide photo fills the paper's width under sirius's header: a dithered band of hundreds of rows.
      expect(pixels.height).toBeGreaterThan(300);
      expect(photoBand(pixels)).toBeGreaterThan(0.2); // a broken-image box and its alt text leave it white
    },
    RENDER_TIMEOUT,
  );

  it(
    "refuses every other private address: by default only npm start's own, http://127.0.0.1:8080",
    async () => {
      const { pixels, said } = await printed(undefined);
      expect(said.find((l) => l.includes("not loaded"))).toContain(`${server.url}/pics/img/`);
      expect(photoBand(pixels)).toBeLessThan(0.01);
    },
    RENDER_TIMEOUT,
  );
});

describe("the command's own rules", () => {
  it("keeps the default printer's key in the output folder, the same from one run to the next", async () => {
    const dir = path.join(root, "default");
    const first = await startSirius({ out: dir, port: 0, log: () => undefined });
    await first.close();
    const second = await startSirius({ out: dir, port: 0, log: () => undefined });
    await second.close();
    expect(first.printers).toEqual([{ key: expect.stringMatching(/^[\w-]{8}$/), name: "Kitchen", online: true }]);
    expect(second.printers).toEqual(first.printers);
    expect(JSON.parse(readFileSync(path.join(dir, DEFAULT_PRINTER_FILE), "utf8"))).toEqual({
      key: first.printers[0]!.key,
      name: "Kitchen",
    });
  });

  it("refuses to start on a printer.json it did not write, rather than change the key", async () => {
    const dir = path.join(root, "broken");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, DEFAULT_PRINTER_FILE), "{");
    await expect(startSirius({ out: dir, port: 0 })).rejects.toThrow(/does not hold a printer's key and name/);
  });

  it("reads --printer and --offline, and says what is wrong with them", () => {
    expect(printersFrom(["abc=Kitchen", "x_y-Z=Office"], ["x_y-Z"])).toEqual({
      printers: [
        { key: "abc", name: "Kitchen", online: true },
        { key: "x_y-Z", name: "Office", online: false },
      ],
    });
    expect(printersFrom(undefined, undefined)).toEqual({});
    expect(printersFrom(["a/b=Kitchen"], [])).toMatchObject({ problem: expect.stringContaining("--printer takes") });
    expect(printersFrom(["abc"], [])).toMatchObject({ problem: expect.stringContaining("needs a name") });
    expect(printersFrom(["abc=A", "abc=B"], [])).toMatchObject({ problem: "--printer abc is given twice" });
    expect(printersFrom(["abc=A"], ["zzz"])).toMatchObject({ problem: expect.stringContaining("--offline zzz") });
  });

  it("takes --site as an origin only, and says what one looks like", async () => {
    let err = "";
    const output = { stdout: () => undefined, stderr: (t: string) => void (err += t) };
    expect(await main(["--port", "0", "--site", "http://127.0.0.1:8080/blog/"], output)).toBe(2);
    expect(err).toMatch(
      /^sirius: --site takes an origin such as http:\/\/127\.0\.0\.1:8080 \(entry 1: .*\); see --help/,
    );
  });

  it("prefers JSON unless the client prefers HTML, as sirius does", () => {
    expect(quality(undefined, "application/json")).toBe(quality(undefined, "text/html"));
    expect(quality("*/*", "text/html")).toBe(1);
    expect(quality("text/html,*/*;q=0.8", "application/json")).toBe(0.8);
    expect(quality("application/json", "text/html")).toBe(0);
  });

  it("names a print file by its time and sender", () => {
    const at = new Date(2026, 10, 24, 7, 5, 9);
    expect(fileStem(at, "Good Morning")).toBe("2026-11-24-070509-good-morning");
    expect(fileStem(at, "Café / Ünïcode!")).toBe("2026-11-24-070509-cafe-unicode");
    expect(fileStem(at, "☀")).toBe("2026-11-24-070509-print");
  });
});
