// A plain Eleventy blog (its own config, posts/, layouts and home page) adds the
// littlepress plugin for its posts: built by the real `npm run build` in the
// blog's folder (no --content: the blog's own config), served by the kit's
// server, asked as the platform asks, and checked by the conformance checker.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import { runCheck } from "../../scripts/check/run-check.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { BUILD_TESTS_MS, buildProject, PLUGIN, writeProject } from "../helpers/blog-project.ts";

const ROOT = path.join(".test-work", `blog-posts-${process.pid}`);

const POSTS = {
  "posts/first-light.md": `---
title: First light
date: 2026-03-02
tags: posts
layout: layouts/post.njk
---
The first post, on a **Monday**.
`,
  // Eleventy's own reading: a time with an offset; the day is the one written (the 4th).
  "posts/second-thoughts.md": `---
title: Second thoughts
date: 2026-03-04T08:30:00+01:00
tags: posts
layout: layouts/post.njk
---
The second post, in the morning.
`,
  // News: marked push, it is printed at once to every subscriber, besides its morning.
  "posts/third-time.md": `---
title: Third time
date: 2026-03-04T18:00
push: true
tags: posts
layout: layouts/post.njk
---
The third post, the same evening.
`,
  // Drafts are not printed (nor, in eleventy-base-blog, published).
  "posts/draft.md": `---
title: Not yet
date: 2026-03-06
draft: true
tags: posts
---
Unfinished.
`,
};

const CONFIG = (posts: string) => `import littlepress from ${JSON.stringify(PLUGIN)};

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(littlepress, {
    posts: ${posts},
  });
  return { dir: { input: ".", includes: "_includes" } };
}
`;

const PUBLICATIONS = `[
      { slug: "paper", folder: "posts", by: "date", name: "The Paper",
        description: "Each new post, <em>the morning after</em>.", owner_email: "me@example.com" },
      { slug: "serial", folder: "posts", by: "serial", name: "The Serial",
        description: "The posts in order, one a day.", owner_email: "me@example.com" },
    ]`;

const BLOG = {
  "eleventy.config.js": CONFIG(PUBLICATIONS),
  "index.njk": `---
title: My blog
---
<!doctype html><title>My own home</title>
<ul>{% for post in collections.posts %}<li>{{ post.data.title }}</li>{% endfor %}</ul>
`,
  "_includes/layouts/post.njk":
    '<!doctype html><title>{{ title }}</title><article class="web-post">{{ content | safe }}</article>\n',
  ...POSTS,
};

const writeBlog = (name: string, files: Record<string, string>) => writeProject(path.join(ROOT, name), files);

afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

describe("a blog's posts as publications", { timeout: BUILD_TESTS_MS }, () => {
  let server: LocalServer | undefined;
  let dir = "";
  beforeAll(async () => {
    dir = writeBlog("blog", BLOG);
    const built = await buildProject(dir);
    expect(built, built.output).toMatchObject({ code: 0 });
    server = await startServer({ port: 0, siteDir: path.join(dir, "_site") });
  }, BUILD_TESTS_MS);
  afterAll(() => server?.close());
  const get = async (pathAndQuery: string) => {
    const res = await fetch(server!.url + pathAndQuery, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, etag: res.headers.get("etag"), text: await res.text() };
  };
  const on = (date: string) => `/paper/edition/?local_delivery_time=${encodeURIComponent(`${date}T06:00:00-08:00`)}`;

  it("leaves the blog its own home page and its posts as its own pages", async () => {
    const home = await get("/");
    expect(home.text).toContain("<title>My own home</title>");
    expect(home.text).toContain("<li>First light</li><li>Second thoughts</li><li>Third time</li>");
    const post = readFileSync(path.join(dir, "_site/posts/first-light/index.html"), "utf8");
    expect(post).toContain('<article class="web-post"><p>The first post, on a <strong>Monday</strong>.</p>');
  });

  it("serves meta.json from the plugin's options", async () => {
    expect(JSON.parse((await get("/paper/meta.json")).text)).toEqual({
      owner_email: "me@example.com",
      publication_api_version: "1.0",
      name: "The Paper",
      description: "Each new post, <em>the morning after</em>.",
      delivered_on: "The morning after each new post",
      send_timezone_info: true,
      send_delivery_count: false,
      external_configuration: false,
    });
    const serial = JSON.parse((await get("/serial/meta.json")).text) as Record<string, unknown>;
    expect(serial).toMatchObject({ send_delivery_count: true, delivered_on: "One post per delivery, in order" });
  });

  it("by date: a post is the edition of the next morning, in the print layout; a day without one is 204", async () => {
    const tuesday = await get(on("2026-03-03"));
    expect(tuesday.status).toBe(200);
    expect(tuesday.etag).toMatch(/^"2026-03-03-[0-9a-f]+"$/);
    expect(tuesday.text).toContain('<main class="paper">\n<h1>First light</h1>');
    expect(tuesday.text).toContain("<p>The first post, on a <strong>Monday</strong>.</p>");
    expect(tuesday.text).toContain("width: 384px"); // the kit's print.css, not the blog's web layout
    expect(tuesday.text).not.toContain("web-post");
    expect((await get(on("2026-03-02"))).status).toBe(204); // the post's own day
    expect((await get(on("2026-03-04"))).status).toBe(204);
  });

  it("by date: two posts on one day are one edition, in date order", async () => {
    const thursday = await get(on("2026-03-05"));
    expect(thursday.status).toBe(200);
    const second = thursday.text.indexOf("<h1>Second thoughts</h1>\n<p>The second post, in the morning.</p>");
    const third = thursday.text.indexOf("<h1>Third time</h1>\n<p>The third post, the same evening.</p>");
    expect(second).toBeGreaterThan(0);
    expect(third).toBeGreaterThan(second);
  });

  it("by date: past the last post (a draft is no post) is 204, and the subscription stays", async () => {
    expect((await get(on("2026-03-07"))).status).toBe(204);
    expect((await get(on("2027-01-01"))).status).toBe(204);
  });

  it("as a serial: delivery_count 0, 1, 2 are the posts in order; past the last, 204 until the next post", async () => {
    const titles = [];
    for (const n of [0, 1, 2]) {
      const edition = await get(`/serial/edition/?delivery_count=${n}`);
      expect(edition.status).toBe(200);
      expect(edition.etag).toMatch(new RegExp(`^"${n}-[0-9a-f]+"$`));
      titles.push(/<h1>([^<]*)<\/h1>/.exec(edition.text)?.[1]);
    }
    expect(titles).toEqual(["First light", "Second thoughts", "Third time"]);
    expect((await get("/serial/edition/?delivery_count=3")).status).toBe(204);
  });

  it("a post's push: true marks its edition push, in the index the push run reads", () => {
    const index = (slug: string) =>
      JSON.parse(readFileSync(path.join(siteDataDir(path.join(dir, "_site")), slug, "index.json"), "utf8")) as {
        push?: { editions: string[] };
      };
    expect(index("paper").push?.editions).toEqual(["2026-03-05"]); // the day's edition, both posts
    expect(index("serial").push?.editions).toEqual(["2"]);
  });

  it("passes the conformance checker, by date and as a serial", async () => {
    for (const slug of ["paper", "serial"]) {
      const report = await runCheck({
        base: `${server!.url}/${slug}/`,
        start: "2026-03-02",
        days: 5,
        hour: 6,
        zones: ["UTC"],
        timeoutMs: 5000,
        config: {},
        strict: false,
      });
      expect(
        report.checks.filter((c) => c.status === "fail" || c.status === "warn"),
        slug,
      ).toEqual([]);
      expect(report.ok).toBe(true);
    }
  });
});

describe("a blog's mistakes fail the build by name", { timeout: BUILD_TESTS_MS }, () => {
  it("a post with an impossible date: the post, the field and the fix, and the last good site stays", async () => {
    const dir = writeBlog("broken", {
      "eleventy.config.js": CONFIG(PUBLICATIONS),
      "posts/ok.md": "---\ntitle: Fine\ndate: 2026-03-02\n---\nFine.\n",
    });
    expect((await buildProject(dir)).code).toBe(0);
    writeFileSync(path.join(dir, "posts/bad.md"), "---\ntitle: Bad\ndate: 2026-02-30\n---\nBad.\n");
    const { code, output } = await buildProject(dir);
    expect(code).toBe(1);
    expect(output).toContain("littlepress found 1 problem in your content:");
    expect(output).toContain("posts/bad.md: date\n    problem: `date` 2026-02-30 is not a real calendar date");
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
    expect(readFileSync(path.join(dir, "_site/paper/meta.json"), "utf8")).toContain("The Paper");
  });

  it("a push neither true nor false, and a lang that is no tag: both named in one build, with fixes", async () => {
    const dir = writeBlog("push", {
      "eleventy.config.js": CONFIG(PUBLICATIONS),
      "posts/ok.md": "---\ntitle: Fine\ndate: 2026-03-02\nlang: english\n---\nFine.\n",
      "posts/soon.md": "---\ntitle: Soon\ndate: 2026-03-03\npush: soon\n---\nSoon.\n",
    });
    const { code, output } = await buildProject(dir);
    expect(code).toBe(1);
    expect(output).toContain("littlepress found 2 problems in your content:");
    expect(output).toContain(
      'posts/soon.md: push\n    problem: push is "soon", which is neither true nor false\n' +
        "    fix: write push: true to print this edition at once to every subscriber (or leave it out)",
    );
    expect(output).toContain('posts/ok.md: lang\n    problem: "english" (line 4) is not a language tag');
    expect(output).toContain("fix: write lang: en");
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("an unknown `by` and a missing folder name the config file's option", async () => {
    const dir = writeBlog("options", {
      "eleventy.config.js": CONFIG(`[
      { slug: "paper", folder: "posts", by: "weekly", name: "P", description: "d", owner_email: "me@example.com" },
      { slug: "other", folder: "articles", by: "date", name: "P", description: "d", owner_email: "me@example.com" },
    ]`),
      "posts/ok.md": "---\ndate: 2026-03-02\n---\nFine.\n",
    });
    const { code, output } = await buildProject(dir);
    expect(code).toBe(1);
    expect(output).toContain(
      'eleventy.config.js: littlepress option posts[0].by\n    problem: must be "date" or "serial", got "weekly"',
    );
    expect(output).toContain(
      "eleventy.config.js: littlepress option posts[1].folder\n    problem: articles is not a folder",
    );
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("a config that does not add the plugin says so", async () => {
    const dir = writeBlog("no-plugin", {
      "eleventy.config.js": "export default function () {}\n",
      "index.md": "# Home\n",
    });
    const { code, output } = await buildProject(dir);
    expect(code).toBe(1);
    expect(output).toContain("eleventy.config.js\n    problem: does not add the littlepress plugin");
  });

  it("a config that adds the plugin from inside another plugin gets the run's settings all the same", async () => {
    // Eleventy runs a nested plugin at once, while the config runs: the run's settings reach it all the same.
    const dir = writeBlog("nested-plugin", {
      ...BLOG,
      "eleventy.config.js": CONFIG(PUBLICATIONS)
        .replace(
          "eleventyConfig.addPlugin(littlepress, {",
          "eleventyConfig.addPlugin((inner) => inner.addPlugin(littlepress, {",
        )
        .replace("  });\n  return", "  }));\n  return"),
    });
    const { code, output } = await buildProject(dir);
    expect(output).not.toContain("does not add the littlepress plugin");
    expect(code).toBe(0);
  });
});

describe(
  "a blog shaped as eleventy-base-blog: images by posts, eleventy-img's transform, drafts in JavaScript",
  { timeout: BUILD_TESTS_MS },
  () => {
    // Two posts of one day, each in a folder of its own with its own image: one edition holding both.
    const post = (title: string, date: string, body: string) => `---\ntitle: ${title}\ndate: ${date}\n---\n${body}\n`;
    const IN_CONTENT = PUBLICATIONS.replaceAll('folder: "posts"', 'folder: "content/posts"');
    const BASE_BLOG = {
      "eleventy.config.js": `import { eleventyImageTransformPlugin } from "@11ty/eleventy-img";
import littlepress from ${JSON.stringify(PLUGIN)};

export default function (eleventyConfig) {
  eleventyConfig.addPreprocessor("drafts", "*", (data) => {
    if (data.draft && process.env.ELEVENTY_RUN_MODE === "build") return false;
  });
  eleventyConfig.addPlugin(eleventyImageTransformPlugin, { formats: ["avif", "auto"], failOnError: false });
  eleventyConfig.addPlugin(littlepress, { posts: ${IN_CONTENT} });
}

export const config = { dir: { input: "content", includes: "../_includes" } };
`,
      "_includes/layouts/post.njk":
        '<!doctype html><title>{{ title }}</title><article class="web-post">{{ content | safe }}</article>\n',
      "content/posts/posts.11tydata.js": 'export default { tags: ["posts"], layout: "layouts/post.njk" };\n',
      "content/posts/morning/index.md": post("Morning", "2026-03-02T08:00", "![A wide one](wide.png)"),
      "content/posts/evening/index.md": post("Evening", "2026-03-02T20:00", '<img src="./tall.png" alt="A tall one">'),
      "content/posts/draft.md":
        '---js\nconst title = "Draft";\nconst date = "2026-03-03";\nconst draft = true;\n---\nNot yet.\n',
    };
    const postsOf = (dir: string) => path.join(dir, "content/posts");
    let server: LocalServer | undefined;
    let dir = "";
    beforeAll(async () => {
      dir = writeBlog("base-blog", BASE_BLOG);
      const grey = { r: 90, g: 90, b: 90 };
      await sharp({ create: { width: 60, height: 30, channels: 3, background: grey } })
        .png()
        .toFile(path.join(postsOf(dir), "morning/wide.png"));
      await sharp({ create: { width: 30, height: 60, channels: 3, background: grey } })
        .png()
        .toFile(path.join(postsOf(dir), "evening/tall.png"));
      const built = await buildProject(dir);
      expect(built, built.output).toMatchObject({ code: 0 });
      server = await startServer({ port: 0, siteDir: path.join(dir, "_site") });
    }, BUILD_TESTS_MS);
    afterAll(() => server?.close());
    const get = async (pathAndQuery: string) => (await fetch(server!.url + pathAndQuery)).text();

    it("prints each post's image from the post's own folder, processed for the paper, at an absolute URL", async () => {
      const html = await get(`/paper/edition/?local_delivery_time=${encodeURIComponent("2026-03-03T06:00:00-08:00")}`);
      const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
      // Built with no address, so linked at the one the request reached (edition-endpoint.ts), not at 8080.
      const at = server!.url.replace(/[.:/]/g, "\\$&");
      expect(images).toEqual([
        expect.stringMatching(new RegExp(`src="${at}/paper/img/[\\w-]+\\.png"[^>]* width="60" height="30"`)),
        expect.stringMatching(new RegExp(`src="${at}/paper/img/[\\w-]+\\.png"[^>]* width="30" height="60"`)),
      ]);
      // Not eleventy-img's <picture>, nor its mark.
      expect(html).not.toMatch(/<picture|<source|eleventy:ignore/);
      expect(readdirSync(path.join(dir, "_site/paper/img"))).toHaveLength(2);
    });

    it("leaves the blog's own pages to the blog's image transform", () => {
      const page = readFileSync(path.join(dir, "_site/posts/morning/index.html"), "utf8");
      expect(page).toMatch(/<picture><source type="image\/avif" srcset="\/posts\/morning\/[\w-]+\.avif/);
    });

    it("prints no draft (JavaScript front matter), which the blog does not publish either", async () => {
      expect(existsSync(path.join(dir, "_site/posts/draft/index.html"))).toBe(false);
      expect(await get("/serial/edition/?delivery_count=1")).toMatch(/<h1>Evening<\/h1>/);
      const after = await fetch(`${server!.url}/serial/edition/?delivery_count=2`);
      expect(after.status).toBe(204);
    });

    it("a build that fails on an image leaves nothing half made beside the site", async () => {
      const lost = path.join(postsOf(dir), "lost.md");
      writeFileSync(lost, post("Lost", "2026-03-05", "![Gone](gone.png)"));
      try {
        const { code, output } = await buildProject(dir);
        expect(code).toBe(1);
        expect(output).toContain('content/posts/lost.md: <img src="gone.png">\n    problem: the image cannot be read');
        expect(output).toContain("fix: put the image file next to the edition (a post's, next to the post)");
        expect(
          readdirSync(dir)
            .filter((f) => f.startsWith("_site"))
            .sort(),
        ).toEqual(["_site", "_site_data"]);
      } finally {
        rmSync(lost);
      }
    });
  },
);
