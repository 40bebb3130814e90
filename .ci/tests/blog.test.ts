// Any Eleventy site can add a publication (issues 27 and 35): a blog in the
// shape of eleventy-base-blog (fixtures/blog/: its input is content/, its
// layouts and data beside it, `dir.output` in its config, drafts in JavaScript
// front matter dropped from builds by a preprocessor, an image beside a post
// that eleventy-img's transform makes a <picture>, a CSS bundle, a passthrough
// copy, a home page and a feed) installs the packed tarball beside Eleventy,
// adds the plugin as docs/eleventy-plugin.md shows, and its posts become
// publications, by date and as a serial: built, verified (the checker and the
// print preview), served, checked, previewed, and run under `littlepress start`.
// It is no starter site for having a content/ folder.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { inFolder, installTarball, outsideFolder } from "./packed.ts";
import { started, waitFor } from "./processes.ts";
import { freePort } from "../../packages/littlepress/scripts/cli.ts";

const SLOW = 300_000;
const FIXTURE = path.resolve(".ci/tests/fixtures/blog");

let blog: string;
/** The figures the report asks for: the install's time and size, each command's time. */
const figures: string[] = [];

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  figures.push(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * A small PNG, 120 × 80, of a dark possum-ish shape on a light ground: the
 * image beside the fourth post (written here, so the fixture holds no binary).
 */
function possumPng(): Buffer {
  const [width, height] = [120, 80];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xe8); // filter byte 0 is overwritten below
    row[0] = 0;
    for (let x = 0; x < width; x++) {
      const body = ((x - 60) / 40) ** 2 + ((y - 45) / 22) ** 2 < 1;
      const head = ((x - 96) / 12) ** 2 + ((y - 32) / 10) ** 2 < 1;
      if (body || head) row.fill(0x40, 1 + x * 3, 4 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  blog = outsideFolder("blog");
  cpSync(FIXTURE, blog, { recursive: true });
  writeFileSync(path.join(blog, "content/blog/fourthpost/possum.png"), possumPng());
  // Its own dependencies (Eleventy, eleventy-img) and littlepress, in one install.
  await timed("npm install (Eleventy, eleventy-img, the littlepress tarball)", () =>
    installTarball(blog, inject("littlepressTarball")),
  );
  const size = await inFolder(blog, "du", ["-sh", "node_modules"]);
  const packages = (await inFolder(blog, "npm", ["ls", "--all", "--parseable"])).trim().split("\n").length;
  figures.push(`node_modules: ${size.split(/\s/)[0]}, ${packages} packages (npm ls --all --parseable)`);
}, SLOW);

afterAll(() => {
  if (figures.length) console.log(`the blog (fixtures/blog):\n  ${figures.join("\n  ")}`);
  if (blog) rmSync(blog, { recursive: true, force: true });
});

const littlepress = (...args: string[]) => inFolder(blog, "npx", ["--no-install", "littlepress", ...args]);

/** Runs the installed `littlepress <args>` in `cwd`, whatever its exit code: the code and everything it printed. */
async function attempt(cwd: string, ...args: string[]): Promise<{ code: number; output: string }> {
  const bin = path.join(blog, "node_modules/littlepress/dist/scripts/littlepress.js");
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, timeout: 240_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** Runs `littlepress <args>` (a server) in the blog until `use` is done with the address it serves on. */
async function serving(args: string[], use: (url: string, log: () => string) => Promise<void>): Promise<void> {
  const server = await started("npx", ["--no-install", "littlepress", ...args], {
    cwd: blog,
    env: { ...process.env, PORT: "0" },
    ready: /on (http:\/\/127\.0\.0\.1:\d+)\//,
  });
  try {
    await use(server.found, server.log);
  } finally {
    await server.stop();
  }
}

const site = (file: string) => path.join(blog, "_site", file);
/** The build's folders beside the blog: the site and its functions' data, and nothing a build left half made. */
const builtFolders = () =>
  readdirSync(blog)
    .filter((f) => f.startsWith("_site"))
    .sort();
/** The edition of the morning after `date`'s post, asked as the platform asks. */
const morning = (url: string, date: string) => `${url}/paper/edition/?local_delivery_time=${date}T06:00:00-08:00`;

it(
  "builds by its own config, into the _site/ it names, keeping its pages, its bundle, its copies and its images",
  async () => {
    expect(await timed("littlepress build", () => littlepress("build"))).toMatch(/littlepress: built _site\/ in/);
    expect(readFileSync(site("index.html"), "utf8")).toMatch(/<title>My own home<\/title>/);
    expect(existsSync(site("robots.txt"))).toBe(true); // the passthrough copy of public/
    expect(readdirSync(site("dist")).some((f) => f.endsWith(".css"))).toBe(true); // the css bundle's file
    expect(readFileSync(site("feed.xml"), "utf8")).toMatch(/<title>A possum<\/title>/);
    // The blog's own image transform still makes its pages' <picture>s, from the image beside the post.
    expect(readFileSync(site("blog/fourthpost/index.html"), "utf8")).toMatch(
      /<picture><source type="image\/avif" srcset="\/blog\/fourthpost\/[\w-]+\.avif/,
    );
    // The draft is no page of a build (eleventy-base-blog's preprocessor), and nothing is left beside the site.
    expect(existsSync(site("blog/thirdpost"))).toBe(false);
    expect(builtFolders()).toEqual(["_site", "_site_data"]);
  },
  SLOW,
);

it(
  "verifies both publications: the conformance checker and the print preview",
  async () => {
    const output = await timed("littlepress verify", () => littlepress("verify"));
    expect(output).toMatch(/PASS +paper:/);
    expect(output).toMatch(/PASS +serial:/);
    expect(output).toMatch(/verify: OK: 2 publications ready/);
  },
  SLOW,
);

it(
  "is served (with the package's own functions, as it has none) and answers the platform",
  async () => {
    await serving(["serve", "--port", "0"], async (url) => {
      expect(await (await fetch(`${url}/`)).text()).toMatch(/My own home/);
      const meta = (await (await fetch(`${url}/paper/meta.json`)).json()) as { name: string };
      expect(meta.name).toBe("The Paper");
      // A post of 2 March is the edition of the 3rd; the 4th has none.
      const third = await fetch(morning(url, "2026-03-03"));
      expect(third.status).toBe(200);
      expect(third.headers.get("etag")).toMatch(/^"/);
      expect(await third.text()).toMatch(/The first post, on a <strong>Monday<\/strong>/);
      expect((await fetch(morning(url, "2026-03-04"))).status).toBe(204);
      const serial = await fetch(`${url}/serial/edition/?delivery_count=1`);
      expect(await serial.text()).toMatch(/The second post/);

      const checked = await littlepress("check", `${url}/paper/`, "--start", "2026-03-02", "--days", "5");
      expect(checked).toMatch(/OK: \d+ passed, 0 warnings, 0 failed/);
    });
  },
  SLOW,
);

it(
  "reads JavaScript front matter as Eleventy does, and prints no draft: by date, nor as a serial",
  async () => {
    await serving(["serve", "--port", "0"], async (url) => {
      // The draft (---js, draft: true) of 5 March would be the edition of the 6th.
      expect((await fetch(morning(url, "2026-03-06"))).status).toBe(204);
      // The fourth post (---js, not a draft) of 6 March is the edition of the 7th, and the serial's third.
      expect(await (await fetch(morning(url, "2026-03-07"))).text()).toMatch(/<h1[^>]*>A possum<\/h1>/);
      expect(await (await fetch(`${url}/serial/edition/?delivery_count=2`)).text()).toMatch(/A possum/);
      expect((await fetch(`${url}/serial/edition/?delivery_count=3`)).status).toBe(204);
    });
  },
  SLOW,
);

it(
  "prints the image beside a post: processed for the paper, at an absolute URL the site serves",
  async () => {
    await serving(["serve", "--port", "0"], async (url) => {
      const html = await (await fetch(morning(url, "2026-03-07"))).text();
      const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "";
      // Both ways a post shows an image (Markdown, and an <img> of its own) are the one processed file.
      const sources = [...main.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]!);
      expect(sources).toHaveLength(2);
      expect(new Set(sources).size).toBe(1);
      expect(sources[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/paper\/img\/[\w-]+\.png$/);
      // Not the blog's transform's <picture> of AVIF and WebP at relative URLs, which the printer cannot use.
      expect(main).not.toMatch(/<picture|<source|eleventy:/);
      const image = await fetch(`${url}${new URL(sources[0]!).pathname}`);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
    });
  },
  SLOW,
);

it(
  "previews the editions of the site built last (--no-build), as the printer prints them",
  async () => {
    const output = await littlepress("preview", "--no-build", "paper");
    expect(output).toMatch(/^paper +2026-03-07 +\d+ px/m);
    expect(output).toMatch(/3 editions in [\d.]+ s, written to preview\/<slug>\//);
    expect(existsSync(path.join(blog, "preview/paper/2026-03-07.png"))).toBe(true);
  },
  SLOW,
);

it(
  "runs under littlepress start, builds it by its own config (no draft), and a saved post is the next edition",
  async () => {
    await serving(["start"], async (url, log) => {
      const edition = `${url}/serial/edition/?delivery_count=0`;
      expect(await (await fetch(edition)).text()).toMatch(/The first post/);
      // start runs Eleventy as a build: the draft is neither a page nor an edition.
      expect((await fetch(`${url}/blog/thirdpost/`)).status).toBe(404);
      expect((await fetch(`${url}/serial/edition/?delivery_count=3`)).status).toBe(204);
      writeFileSync(
        path.join(blog, "content/blog/firstpost.md"),
        "---\ntitle: First light\ndate: 2026-03-02\ntags: posts\n---\nRewritten at dawn.\n",
      );
      const deadline = Date.now() + 30_000;
      let text = "";
      while (Date.now() < deadline && !text.includes("Rewritten at dawn")) {
        await new Promise((r) => setTimeout(r, 250));
        text = await (await fetch(edition)).text();
      }
      expect(text).toMatch(/Rewritten at dawn/);
      expect(log()).not.toMatch(/configuration file was specified but not found|still serving the last good build/);
    });
  },
  SLOW,
);

it(
  "a build that fails names the post and its image, keeps the last good site, and leaves no _site.next behind",
  async () => {
    const lost = path.join(blog, "content/blog/lost.md");
    writeFileSync(lost, "---\ntitle: Lost\ndate: 2026-03-08\n---\n![Gone](nowhere.png)\n");
    try {
      const { code, output } = await attempt(blog, "build");
      expect(code).toBe(1);
      expect(output).toMatch(
        /content\/blog\/lost\.md: <img src="nowhere\.png">\n {4}problem: the image cannot be read/,
      );
      expect(builtFolders()).toEqual(["_site", "_site_data"]);
      expect(readFileSync(site("index.html"), "utf8")).toMatch(/My own home/);
    } finally {
      rmSync(lost, { force: true });
    }
  },
  SLOW,
);

it(
  "finding nothing to check is no success: verify says what it looked for and what to do, and exits 1",
  async () => {
    // A folder of publications that has none.
    mkdirSync(path.join(blog, "drafts"), { recursive: true });
    const none = await attempt(blog, "verify", "--content", "drafts");
    expect(none.code).toBe(1);
    expect(none.output).toMatch(
      /^verify: nothing to verify: no publications in drafts\/ .*\n {2}fix: add a publication/m,
    );
    // A folder with neither publications nor an Eleventy config: verify and start say so, and stop.
    const empty = mkdtempSync(path.join(tmpdir(), "littlepress-nothing-"));
    try {
      for (const command of [["verify"], ["start", "--port", "0"]]) {
        const { code, output } = await attempt(empty, ...command);
        expect(code, output).toBe(1);
        expect(output).toContain(`found no publications in ${empty}: no content/<slug>/publication.json`);
        expect(output).toMatch(/\n {2}fix: .*--content <dir>/);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  },
  SLOW,
);

it(
  "builds with Eleventy's own command too: the functions' data beside the site, none of it in the site",
  async () => {
    rmSync(path.join(blog, "_site"), { recursive: true, force: true });
    rmSync(path.join(blog, "_site_data"), { recursive: true, force: true });
    const output = await timed("npx @11ty/eleventy", () => inFolder(blog, "npx", ["--no-install", "@11ty/eleventy"]));
    expect(output).toMatch(/Wrote \d+ files/);
    expect(builtFolders()).toEqual(["_site", "_site_data"]);
    expect(existsSync(site("_littlepress"))).toBe(false);
    expect(existsSync(path.join(blog, "_site_data/site.json"))).toBe(true);
    expect(existsSync(path.join(blog, "_site_data/paper/index.json"))).toBe(true);
    await serving(["serve", "--port", "0"], async (url) => {
      const third = await fetch(morning(url, "2026-03-03"));
      expect(third.status).toBe(200);
      expect(await third.text()).toMatch(/<h1[^>]*>First light<\/h1>/);
    });
  },
  SLOW,
);

it(
  "under Eleventy's own --serve, a saved post rebuilds the functions' data",
  async () => {
    const index = path.join(blog, "_site_data/serial/index.json");
    const port = String(await freePort(0));
    const server = await started("npx", ["--no-install", "@11ty/eleventy", "--serve", "--port", port], {
      cwd: blog,
      ready: /Watching/,
    });
    try {
      const before = readFileSync(index, "utf8");
      // Eleventy prints "Watching…" before its watcher has finished scanning the folder, and a save in
      // that moment can be missed (seen in CI, under load): the save is made again every 3 s, as an
      // author saves again, until a rebuild is seen.
      const post = path.join(blog, "content/blog/firstpost.md");
      const saved = "---\ntitle: First light\ndate: 2026-03-02\ntags: posts\n---\nSaved under Eleventy's own server.\n";
      // The data folder is swapped in whole: between its renames the index is briefly not there.
      const rebuilt = () => existsSync(index) && readFileSync(index, "utf8") !== before;
      let saves = 0;
      let lastSave = 0;
      await waitFor(
        "the functions' data was not rebuilt",
        () => {
          if (rebuilt()) return true;
          if (saves < 10 && Date.now() > lastSave + 3000) {
            writeFileSync(post, saved + "\n".repeat(saves++));
            lastSave = Date.now();
          }
          return false;
        },
        server.log,
      );
      expect(existsSync(site("_littlepress"))).toBe(false);
    } finally {
      await server.stop();
    }
    await serving(["serve", "--port", "0"], async (url) => {
      const first = await fetch(`${url}/serial/edition/?delivery_count=0`);
      expect(await first.text()).toMatch(/Saved under Eleventy's own server/);
    });
  },
  SLOW,
);
