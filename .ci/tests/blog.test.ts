// Any Eleventy site can add a publication (issue 27): a plain blog, not the
// starter (its own config, posts/, layouts and home page, no netlify.toml and
// no functions/), installs the packed tarball beside Eleventy, adds the plugin
// in a few lines, and its posts become publications, by date and as a serial:
// built, verified (the checker and the print preview), served, and checked.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { inFolder, installTarball, outsideFolder } from "./packed.ts";

const SLOW = 300_000;

const post = (title: string, date: string, body: string) =>
  `---\ntitle: ${title}\ndate: ${date}\ntags: posts\nlayout: layouts/post.njk\n---\n${body}\n`;

const BLOG: Record<string, string> = {
  "package.json": JSON.stringify({ name: "my-blog", private: true, type: "module" }, null, 2),
  "eleventy.config.js": `import littlepress from "littlepress";

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(littlepress, {
    posts: [
      { slug: "paper", folder: "posts", by: "date", name: "The Paper",
        description: "Each new post, the morning after.", owner_email: "me@example.com" },
      { slug: "serial", folder: "posts", by: "serial", name: "The Serial",
        description: "The posts in order, one a day.", owner_email: "me@example.com" },
    ],
  });
  return { dir: { input: ".", includes: "_includes" } };
}
`,
  "index.njk":
    "<!doctype html><title>My own home</title>\n{% for p in collections.posts %}<p>{{ p.data.title }}</p>{% endfor %}\n",
  "_includes/layouts/post.njk": "<!doctype html><title>{{ title }}</title><article>{{ content | safe }}</article>\n",
  "posts/first-light.md": post("First light", "2026-03-02", "The first post, on a **Monday**."),
  "posts/second-thoughts.md": post("Second thoughts", "2026-03-04T08:30:00+01:00", "The second post."),
};

let blog: string;

beforeAll(async () => {
  blog = outsideFolder("blog");
  for (const [file, text] of Object.entries(BLOG)) {
    mkdirSync(path.dirname(path.join(blog, file)), { recursive: true });
    writeFileSync(path.join(blog, file), text);
  }
  await installTarball(blog, inject("littlepressTarball"));
}, SLOW);

afterAll(() => rmSync(blog, { recursive: true, force: true }));

const littlepress = (...args: string[]) => inFolder(blog, "npx", ["--no-install", "littlepress", ...args]);

/** Runs `littlepress <args>` (a server) in the blog until `use` is done with the address it serves on. */
async function serving(args: string[], use: (url: string) => Promise<void>): Promise<void> {
  const child = spawn("npx", ["--no-install", "littlepress", ...args], {
    cwd: blog,
    env: { ...process.env, PORT: "0" },
    detached: true,
  });
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`littlepress ${args[0]} did not serve:\n${log}`)), 60_000);
      child.once("exit", (code) => reject(new Error(`littlepress ${args[0]} exited (${code}):\n${log}`)));
      child.stdout.on("data", () => {
        const found = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log)?.[1];
        if (!found) return;
        clearTimeout(timer);
        resolve(found);
      });
    });
    await use(url);
  } finally {
    // npx runs the server in a child of its own: the whole group is stopped (unless it stopped already).
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGINT");
      await exited;
    }
  }
}

it(
  "builds by its own config, keeping its home page and its posts' pages",
  async () => {
    expect(await littlepress("build")).toMatch(/littlepress: built _site\/ in/);
  },
  SLOW,
);

it(
  "verifies both publications: the conformance checker and the print preview",
  async () => {
    const output = await littlepress("verify");
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
      const day = (date: string) => `${url}/paper/edition/?local_delivery_time=${date}T06:00:00-08:00`;
      const third = await fetch(day("2026-03-03"));
      expect(third.status).toBe(200);
      expect(third.headers.get("etag")).toMatch(/^"/);
      expect(await third.text()).toMatch(/The first post, on a <strong>Monday<\/strong>/);
      expect((await fetch(day("2026-03-04"))).status).toBe(204);
      const serial = await fetch(`${url}/serial/edition/?delivery_count=1`);
      expect(await serial.text()).toMatch(/The second post/);
      expect((await fetch(`${url}/serial/edition/?delivery_count=2`)).status).toBe(204);

      const checked = await littlepress("check", `${url}/paper/`, "--start", "2026-03-02", "--days", "5");
      expect(checked).toMatch(/OK: \d+ passed, 0 warnings, 0 failed/);
    });
  },
  SLOW,
);

it(
  "runs under littlepress start, and a saved post is the next edition",
  async () => {
    await serving(["start"], async (url) => {
      const edition = `${url}/serial/edition/?delivery_count=0`;
      expect(await (await fetch(edition)).text()).toMatch(/The first post/);
      writeFileSync(path.join(blog, "posts/first-light.md"), post("First light", "2026-03-02", "Rewritten at dawn."));
      const deadline = Date.now() + 30_000;
      let text = "";
      while (Date.now() < deadline && !text.includes("Rewritten at dawn")) {
        await new Promise((r) => setTimeout(r, 250));
        text = await (await fetch(edition)).text();
      }
      expect(text).toMatch(/Rewritten at dawn/);
    });
  },
  SLOW,
);
