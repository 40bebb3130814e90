// A real Eleventy 3 site as it is (test/fixtures/eleventy-site: a popular starter's shape, with src/ in,
// dist/ out, layouts in src/_layouts, Markdown through Nunjucks, eleventy-img's transform failing on
// error, its own CSS bundle and steps that write into dist/), with the littlepress plugin added as
// docs/eleventy-plugin.md shows. Built in copies of its own by the commands its author runs:
// `npx @11ty/eleventy` and `npx littlepress build`, then served by the kit's server.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TESTS_MS } from "../helpers/blog-project.ts";
import { readNetlifyConfig, STARTER_NETLIFY_CONFIG } from "../../lib/server/netlify-config.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { spawnStart } from "../../scripts/start.ts";
import { distNetlifyToml, npx, NPX_BOUND_MS, siteCopy as copyOfSite } from "../helpers/eleventy-site.ts";
import { COMPILED_START } from "../helpers/kit-script.ts";

const ROOT = path.resolve(".test-work", `eleventy-site-${process.pid}`);
const FIXTURE = "test/fixtures/eleventy-site";

afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

/** A copy of the site, installed, with `files` written over it. */
const siteCopy = (name: string, files: Record<string, string> = {}) => copyOfSite(ROOT, name, files);

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8");
const builds = (dir: string) => readdirSync(dir).filter((f) => /^(?:dist|_site)/.test(f));

/** The Nunjucks posts, by the morning after each, and what each prints. */
const PRINTED: [string, string][] = [
  ["2026-03-03", "Good morning, from a variable set in Nunjucks."],
  ["2026-03-04", "<p>pear</p>"],
  ["2026-03-06", "Three and four make 7."],
  ["2026-03-07", "<em>Note:</em> a macro of Nunjucks"],
  ["2026-03-08", "A dry day, said with <code>not</code>."],
  ["2026-03-09", '<p class="signature">— Your Name Here</p>'],
  ["2026-03-13", "The twelfth post: &quot;The last word&quot;."],
];

/** What both commands make of the site, asked through the kit's server. */
function printsTheSite(command: string, built: () => { dir: string; server: LocalServer }) {
  const edition = async (date: string) => {
    const query = `local_delivery_time=${encodeURIComponent(`${date}T06:00:00-08:00`)}`;
    const res = await fetch(`${built().server.url}/paper/edition/?${query}`, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, text: await res.text() };
  };

  it(`${command}: writes dist/, with the functions' data beside it in dist_data/`, () => {
    expect(builds(built().dir).sort()).toEqual(["dist", "dist_data"]);
    expect(existsSync(path.join(built().dir, "dist_data/paper/index.json"))).toBe(true);
  });

  it(`${command}: keeps the files the site's own steps write into dist/`, () => {
    const { dir } = built();
    expect(read(dir, "dist/badges/new.svg")).toContain("<text");
    expect(read(dir, "dist/sw.js")).toContain("addEventListener");
    expect(read(dir, "dist/humans.txt")).toBe("Written by hand.\n");
  });

  it(`${command}: prints the posts in Nunjucks, as the site renders them, in the kit's print layout`, async () => {
    for (const [date, text] of PRINTED) {
      const { status, text: html } = await edition(date);
      expect(status, date).toBe(200);
      expect(html, date).toContain(text);
      expect(html).toContain('<main class="paper">');
    }
  });

  it(`${command}: leaves out the post marked littlepress: false, which stays the site's page`, async () => {
    expect((await edition("2026-03-11")).status).toBe(204);
    expect(read(built().dir, "dist/blog/badge/index.html")).toContain('<img src="/badges/new.svg" alt="new">');
  });

  it(`${command}: the desk's icon passes eleventy-img's transform, which still makes the site's pictures`, () => {
    const desk = read(built().dir, "dist/paper/index.html");
    expect(desk).toMatch(/<img class="pub-icon" src="\/paper\/icon\.png"/);
    expect(desk).not.toContain("eleventy:ignore");
    expect(existsSync(path.join(built().dir, "dist/paper/icon.png"))).toBe(true);
    expect(read(built().dir, "dist/index.html")).toMatch(/<picture><source type="image\/avif"/);
  });
}

describe("an Eleventy 3 site as it is, built by npx @11ty/eleventy", () => {
  let dir = "";
  let server: LocalServer | undefined;
  beforeAll(async () => {
    dir = siteCopy("eleventy");
    const built = await npx(dir, "@11ty/eleventy");
    expect(built, built.output).toMatchObject({ code: 0 });
    server = await startServer({ port: 0, siteDir: path.join(dir, "dist") });
  }, NPX_BOUND_MS + 10_000);
  afterAll(() => server?.close());
  printsTheSite("npx @11ty/eleventy", () => ({ dir, server: server! }));
});

it(
  "with eleventy-img's failOnError off, the desk still shows the publication's own icon",
  async () => {
    const dir = siteCopy("fail-on-error-off");
    const config = read(dir, "eleventy.config.js").replace('formats: ["avif", "auto"],', "$& failOnError: false,");
    writeFileSync(path.join(dir, "eleventy.config.js"), config);
    const built = await npx(dir, "@11ty/eleventy");
    expect(built, built.output).toMatchObject({ code: 0 });
    const desk = read(dir, "dist/paper/index.html");
    expect([...desk.matchAll(/<img [^>]*>/g)].map((m) => m[0])).toEqual([
      expect.stringMatching(/^<img class="pub-icon" src="\/paper\/icon\.png" [^>]*>$/),
    ]);
    expect(desk).not.toMatch(/<picture|eleventy:ignore/);
  },
  NPX_BOUND_MS + 10_000,
);

describe("the same site built by npx littlepress build", { timeout: BUILD_TESTS_MS }, () => {
  let dir = "";
  let server: LocalServer | undefined;
  let said = "";
  beforeAll(async () => {
    dir = siteCopy("littlepress");
    // Twice: the second build's swap replaces the first's site, whose own files the site writes again.
    for (const turn of [1, 2]) {
      const built = await npx(dir, "littlepress", "build");
      expect(built, built.output).toMatchObject({ code: 0 });
      said = built.output;
      if (turn === 1) writeFileSync(path.join(dir, "dist/stale.txt"), "from the first build");
    }
    server = await startServer({ port: 0, siteDir: path.join(dir, "dist") });
  }, NPX_BOUND_MS + 10_000);
  afterAll(() => server?.close());
  printsTheSite("littlepress build", () => ({ dir, server: server! }));

  it("replaces the whole site: a file of the last one that this build did not write is gone", () => {
    expect(existsSync(path.join(dir, "dist/stale.txt"))).toBe(false);
  });

  it("as the docs advise for Netlify, publishes the folder its config builds, with its functions' data", async () => {
    // docs/eleventy-plugin.md, "Deploying a blog to Netlify": the package's netlify.toml, for dist/.
    const site = siteCopy("netlify", { "netlify.toml": distNetlifyToml() });
    const netlify = readNetlifyConfig(path.join(site, "netlify.toml"));
    const built = await npx(site, "littlepress", "build");
    expect(built, built.output).toMatchObject({ code: 0 });
    expect(read(site, path.join(netlify.publish, "paper/meta.json"))).toContain("The Paper");
    expect(read(site, path.join(netlify.publish, "sw.js"))).toContain("addEventListener");
    for (const files of Object.values(netlify.includedFiles).flat())
      expect(existsSync(path.join(site, files.replace(/\/(?:\*\*|\*\/index\.json)$/, ""))), files).toBe(true);
    // The starter's as it is would publish _site/ and give the functions _site_data/: the build says so, and fails.
    writeFileSync(path.join(site, "netlify.toml"), read(".", STARTER_NETLIFY_CONFIG));
    const { code, output } = await npx(site, "littlepress", "build");
    expect(code).toBe(1);
    expect(output).toContain("littlepress: built dist/, but netlify.toml would not deploy it as built");
    expect(output).toContain(
      'netlify.toml: build.publish\n    problem: is "_site", but the site is built into dist/: Netlify would publish',
    );
    expect(output).toMatch(/functions\.edition\.included_files.*\n.*names another folder than dist_data\//);
    // A build told where to go (--output) is not the deployed one: netlify.toml is not held to it.
    const elsewhere = await npx(site, "littlepress", "build", "--output", "look");
    expect(elsewhere, elsewhere.output).toMatchObject({ code: 0 });
    expect(elsewhere.output).not.toContain("netlify.toml");
  });

  it("is served from dist/, where its config builds, by littlepress serve and littlepress start", async () => {
    const bin = { file: path.resolve(COMPILED_START.file), cwd: dir };
    // serve: the last build, here; start: its own first build, in a copy of its own.
    for (const [tool, cwd] of [
      ["serve", dir],
      ["start", siteCopy("start")],
    ] as const) {
      const started = await spawnStart({ tool, bin: { ...bin, cwd }, timeoutMs: 100_000 });
      try {
        expect(started.log, tool).toMatch(/serving dist\/ and the functions on /);
        const [date, text] = PRINTED[0]!;
        const query = `local_delivery_time=${encodeURIComponent(`${date}T06:00:00-08:00`)}`;
        const res = await fetch(`${started.url}/paper/edition/?${query}`, { signal: AbortSignal.timeout(10_000) });
        expect(res.status, tool).toBe(200);
        expect(await res.text(), tool).toContain(text);
      } finally {
        await started.stop();
      }
      expect(builds(cwd).sort(), tool).toEqual(["dist", "dist_data"]);
    }
  }, 240_000);

  it("says where it built, as the site's config says", () => {
    expect(said).toContain("littlepress: built dist/ in ");
    expect(said).toContain("(dist_data/, beside the site, not published)");
  });
});

describe("the site's mistakes and Eleventy's, under npx littlepress build", { timeout: BUILD_TESTS_MS }, () => {
  // A post that lists the latest posts: the web page has them, a printed edition has no collections.
  const latest = (title: string, date: string) =>
    `---\ntitle: ${title}\ndate: ${date}\n---\nLatest:\n` +
    "{% for p in collections.posts.slice(-2) %}{{ p.data.title }}{% endfor %}\n";

  it("names every post that fails in print in one build, how to leave it out, and keeps the last site", async () => {
    const dir = siteCopy("failing");
    expect((await npx(dir, "littlepress", "build")).code).toBe(0);
    writeFileSync(path.join(dir, "src/blog/latest-one.md"), latest("Latest one", "2026-03-20"));
    writeFileSync(path.join(dir, "src/blog/latest-two.md"), latest("Latest two", "2026-03-21"));
    const { code, output } = await npx(dir, "littlepress", "build");
    expect(code).toBe(1);
    for (const post of ["src/blog/latest-one.md", "src/blog/latest-two.md"]) {
      expect(output).toContain(
        `${post}: template\n    problem: line 6, column 35: Unable to call \`collections["posts"]["slice"]\``,
      );
    }
    expect(output).toContain("fix: correct the Nunjucks there (posts are rendered as the site renders its Markdown");
    expect(output).toContain("leave it out of print with `littlepress: false` in its front matter");
    expect(builds(dir).sort()).toEqual(["dist", "dist_data"]);
    expect(existsSync(path.join(dir, "dist/blog/latest-one"))).toBe(false);
  });

  it("names a post's {{ … }} that prints nothing, with the name meant, while the site's layouts may", async () => {
    const post = (title: string, date: string, body: string) => `---\ntitle: ${title}\ndate: ${date}\n---\n${body}\n`;
    const layout = read(FIXTURE, "src/_layouts/post.njk").replace("<h1>", "{{ subtitle }}<h1>");
    const dir = siteCopy("undefined", {
      "src/blog/typo.md": post("A typo", "2026-03-20", 'Hello,\n{{ titel }}: {{ nothing | default("none") }}.'),
      "src/blog/key.md": post(
        "A key",
        "2026-03-21",
        "{% if gone %}{{ gone }}{% endif %}By {{ metadata.auhtor.name }}.",
      ),
      // The site's own layout prints a variable no page sets: Eleventy's undefined-is-empty, as the site meant.
      "src/_layouts/post.njk": layout,
    });
    const { code, output } = await npx(dir, "littlepress", "build");
    expect(code).toBe(1);
    expect(output).toContain(
      "src/blog/typo.md: {{ titel }}\n    problem: prints nothing (line 6, column 1): `titel` is not defined: not in " +
        "the front matter or a data file; did you mean `title`?\n    fix: correct the name,",
    );
    expect(output).toContain(
      "src/blog/key.md: {{ metadata.auhtor.name }}\n    problem: prints nothing (line 5, column 38): " +
        "`metadata.auhtor.name` has no value; did you mean `metadata.author`?",
    );
    expect(output).toContain("leave it out of print with `littlepress: false`");
    // Corrected, it builds: the guarded {{ gone }}, the default and the layout's {{ subtitle }} print nothing.
    writeFileSync(path.join(dir, "src/blog/typo.md"), post("A typo", "2026-03-20", "Hello,\n{{ title }}."));
    writeFileSync(
      path.join(dir, "src/blog/key.md"),
      post("A key", "2026-03-21", "{% if gone %}{{ gone }}{% endif %}."),
    );
    const fixed = await npx(dir, "littlepress", "build");
    expect(fixed, fixed.output).toMatchObject({ code: 0 });
    expect(read(dir, "dist/blog/typo/index.html")).toContain("<h1>A typo</h1>");
  });

  it("shows Eleventy's own message when the site fails, and never blames a file in node_modules", async () => {
    const dir = siteCopy("eleventy-fails");
    const config = read(dir, "eleventy.config.js").replace(
      "const dir = path.join(",
      'if (label === "new") throw new Error("no badge called " + label);\n    const dir = path.join(',
    );
    writeFileSync(path.join(dir, "eleventy.config.js"), config);
    const { code, output } = await npx(dir, "littlepress", "build");
    expect(code).toBe(1);
    expect(output).toContain("The build failed:");
    expect(output).toContain("./src/blog/badge.md");
    expect(output).toContain("no badge called new");
    expect(output).not.toMatch(/node_modules\/\S+: line/);
    expect(output).not.toContain("Live data");
  });

  it("prints with the site's own edition.njk when its layouts folder has one", async () => {
    const dir = siteCopy("own-layout", {
      "src/_layouts/edition.njk": '<!doctype html><div class="own-print">{{ content | safe }}</div>\n',
    });
    const built = await npx(dir, "littlepress", "build");
    expect(built, built.output).toMatchObject({ code: 0 });
    const server = await startServer({ port: 0, siteDir: path.join(dir, "dist") });
    try {
      const res = await fetch(`${server.url}/paper/edition/?delivery_count=0&local_delivery_time=2026-03-02T06:00:00Z`);
      expect(await res.text()).toContain('<div class="own-print"><p>The first post, in plain <strong>Markdown');
    } finally {
      await server.close();
    }
  });
});
