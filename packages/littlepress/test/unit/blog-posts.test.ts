// Posts as editions (lib/build/blog-posts.ts): how a post's date is read, how
// posts are keyed by date and as a serial, what a mistake in the options or a
// post says, and how a post is read as the site's Eleventy reads it
// (lib/build/post-reading.ts: JavaScript and JSON front matter, preprocessors).
import path from "node:path";
import Eleventy, { type EleventyConfig } from "@11ty/eleventy";
import { afterAll, describe, expect, it } from "vitest";
import { postsPublications } from "../../lib/build/blog-posts.ts";
import { dateEditions, postDate, readPosts, serialEditions, type Post } from "../../lib/build/post-editions.ts";
import type { ContentProblem } from "../../lib/model/content-error.ts";
import { postReading, type PostReading } from "../../lib/build/post-reading.ts";
import { contentFolders } from "../helpers/content-folder.ts";

const folders = contentFolders("blog-posts-");
afterAll(folders.remove);

const post = (file: string, date: string, title = file): Post => {
  const read = postDate(date, file);
  if ("problem" in read) throw new Error(read.problem);
  return { file, ...read, data: { title, date }, body: `${title}\n`, bodyLine: 5 };
};

describe("a post's date", () => {
  it("is the calendar day written, whatever the time and offset", () => {
    expect(postDate("2026-03-04", "a.md")).toEqual({ day: "2026-03-04", instant: Date.parse("2026-03-04T00:00Z") });
    expect(postDate("2026-03-04T23:30:00-08:00", "a.md")).toEqual({
      day: "2026-03-04",
      instant: Date.parse("2026-03-05T07:30Z"),
    });
    // A time without an offset is UTC, as Eleventy reads it.
    expect(postDate("2026-03-04T18:00", "a.md")).toMatchObject({ instant: Date.parse("2026-03-04T18:00Z") });
    expect(postDate("2026-03-04T08:30:00+0100", "a.md")).toMatchObject({ instant: Date.parse("2026-03-04T07:30Z") });
  });

  it("is a Date's day in UTC, and its instant, when JavaScript front matter gives one", () => {
    expect(postDate(new Date("2026-03-04T23:30:00Z"), "a.md")).toEqual({
      day: "2026-03-04",
      instant: Date.parse("2026-03-04T23:30:00Z"),
    });
    expect(postDate(new Date("not a date"), "a.md")).toMatchObject({
      problem: expect.stringContaining("Invalid Date"),
    });
  });

  it("comes from the file name when the front matter has none, as Eleventy's does", () => {
    expect(postDate(undefined, "2026-03-04-hello.md")).toMatchObject({ day: "2026-03-04" });
  });

  it("says what is wrong and how to write it", () => {
    expect(postDate(undefined, "hello.md")).toMatchObject({ problem: expect.stringContaining("has no `date`") });
    expect(postDate("2026-02-30", "a.md")).toEqual({
      problem: "`date` 2026-02-30 is not a real calendar date",
      fix: "correct the date",
    });
    expect(postDate("March 4th", "a.md")).toMatchObject({
      problem: '`date` must look like 2026-11-22, got "March 4th"',
      fix: expect.stringContaining("`date: 2026-11-22`"),
    });
    expect(postDate("2026-03-04T25:00", "a.md")).toMatchObject({ problem: expect.stringContaining("time of day") });
    expect(postDate("Last Modified", "a.md")).toMatchObject({
      problem: expect.stringContaining("changes with the file"),
    });
    expect(postDate(20260304, "a.md")).toMatchObject({ problem: expect.stringContaining("got 20260304") });
  });
});

describe("keying posts", () => {
  it("by date: the edition of the day after; a day's posts are one edition, in order", () => {
    const posts = [
      post("posts/a.md", "2026-03-02"),
      post("posts/b.md", "2026-03-04T08:00"),
      post("posts/c.md", "2026-03-04T18:00"),
    ];
    const editions = dateEditions(posts);
    expect(editions.map((e) => e.key)).toEqual(["2026-03-03", "2026-03-05"]);
    expect(editions[0]).toMatchObject({ file: "posts/a.md", body: "posts/a.md\n", bodyLine: 5 });
    expect(editions[0]!.parts).toBeUndefined();
    expect(editions[1]!.parts?.map((p) => [p.file, p.title])).toEqual([
      ["posts/b.md", "posts/b.md"],
      ["posts/c.md", "posts/c.md"],
    ]);
    // The last day of a month and of a year roll over.
    expect(dateEditions([post("x.md", "2026-12-31")]).map((e) => e.key)).toEqual(["2027-01-01"]);
  });

  it("as a serial: 0, 1, 2 in the order given", () => {
    const editions = serialEditions([post("a.md", "2026-03-02"), post("b.md", "2026-03-04")]);
    expect(editions.map((e) => [e.key, e.file])).toEqual([
      ["0", "a.md"],
      ["1", "b.md"],
    ]);
  });

  it("reads a folder in date order, then by file name, and leaves drafts out", async () => {
    const dir = folders.content({
      "posts/z.md": "---\ndate: 2026-03-01\n---\nZ\n",
      "posts/b.md": "---\ndate: 2026-03-02\n---\nB\n",
      "posts/a.md": "---\ndate: 2026-03-02\n---\nA\n",
      "posts/2026/nested.md": "---\ndate: 2026-02-01\n---\nN\n",
      "posts/draft.md": "---\ndate: 2026-01-01\ndraft: true\n---\nD\n",
      "posts/notes.txt": "not a post",
    });
    const problems: ContentProblem[] = [];
    const [pub] = await postsPublications(
      [{ slug: "s", folder: `${dir}/posts`, by: "serial", name: "S", description: "d", owner_email: "a@b.cd" }],
      "eleventy.config.js",
      problems,
    );
    expect(problems).toEqual([]);
    const names = pub!.publication.editions.list.map((e) => e.file.split("/").slice(-2).join("/"));
    expect(names).toEqual(["2026/nested.md", "posts/z.md", "posts/a.md", "posts/b.md"]);
    expect(pub!.publication.editions).toMatchObject({ by: "delivery_count", ends: false });
  });
});

describe("push posts", () => {
  const options = (folder: string, by: "date" | "serial") => [
    { slug: "p", folder, by, name: "P", description: "d", owner_email: "a@b.cd" },
  ];
  const dir = folders.content({
    "posts/a.md": "---\ndate: 2026-03-02\n---\nA\n",
    "posts/b.md": "---\ndate: 2026-03-04T08:00\npush: true\n---\nB\n",
    "posts/c.md": "---\ndate: 2026-03-04T18:00\npush: false\n---\nC\n",
    "posts/d.md": "---\ndate: 2026-03-05\n---\nD\n",
  });

  it("push: true marks the post's edition push, by date (with the day's other posts) and as a serial", async () => {
    for (const [by, marked] of [
      ["date", ["2026-03-05"]],
      ["serial", ["1"]],
    ] as const) {
      const problems: ContentProblem[] = [];
      const [pub] = await postsPublications(options(`${dir}/posts`, by), "eleventy.config.js", problems);
      expect(problems).toEqual([]);
      const list = pub!.publication.editions.list;
      expect(list.filter((e) => e.push).map((e) => e.key)).toEqual(marked);
      expect(list.filter((e) => !e.push).every((e) => e.push === undefined)).toBe(true);
    }
  });

  it("a push that is neither true nor false fails with the post, the field and the fix", async () => {
    const broken = folders.content({
      "posts/a.md": "---\ndate: 2026-03-02\npush: soon\n---\nA\n",
      "posts/b.md": "---\ndate: 2026-03-02T18:00\npush: [true]\n---\nB\n",
    });
    for (const by of ["date", "serial"] as const) {
      const problems: ContentProblem[] = [];
      expect(await postsPublications(options(`${broken}/posts`, by), "eleventy.config.js", problems)).toEqual([]);
      expect(problems.map((p) => [p.file.split("/").slice(-2).join("/"), p.field, p.problem, p.fix])).toEqual([
        [
          "posts/a.md",
          "push",
          'push is "soon", which is neither true nor false',
          "write push: true to print this edition at once to every subscriber (or leave it out)",
        ],
        ["posts/b.md", "push", "push is [true], which is neither true nor false", expect.any(String)],
      ]);
    }
  });
});

describe("mistakes", () => {
  const good = { slug: "paper", folder: "", by: "date", name: "P", description: "d", owner_email: "a@b.cd" };
  const check = async (list: unknown) => {
    const problems: ContentProblem[] = [];
    await postsPublications(list, "eleventy.config.js", problems);
    return problems;
  };
  const dir = folders.content({ "posts/a.md": "---\ndate: 2026-03-02\n---\nA\n" });
  const folder = `${dir}/posts`;

  it("an unknown `by`, a missing folder, a slug that is no URL: the option, the field and the fix", async () => {
    expect(await check([{ ...good, folder, by: "weekly" }])).toEqual([
      {
        file: "eleventy.config.js",
        field: "littlepress option posts[0].by",
        problem: 'must be "date" or "serial", got "weekly"',
        fix: expect.stringContaining('by: "date"'),
      },
    ]);
    expect(await check([{ ...good, folder: "no-such-folder" }])).toEqual([
      {
        file: "eleventy.config.js",
        field: "littlepress option posts[0].folder",
        problem: expect.stringMatching(/^no-such-folder is not a folder \(it does not exist, looked for from /),
        fix: expect.stringContaining("relative to the project"),
      },
    ]);
    expect((await check([{ ...good, folder, slug: "The Paper" }]))[0]).toMatchObject({
      field: "littlepress option posts[0].slug",
      problem: '"The Paper" cannot be used in a URL',
    });
    expect((await check({ slug: "paper" }))[0]).toMatchObject({
      field: "littlepress option posts",
      problem: expect.stringContaining("a list"),
    });
  });

  it("publication.json's own checks, named by the option", async () => {
    const problems = await check([
      { ...good, folder, owner_email: "nobody", name: undefined, ends: "yes", colour: "red" },
    ]);
    const fields = problems.map((p) => p.field).sort();
    expect(fields).toEqual([
      "littlepress option posts[0].colour",
      "littlepress option posts[0].ends",
      "littlepress option posts[0].name",
      "littlepress option posts[0].owner_email",
    ]);
    expect(problems.every((p) => p.file === "eleventy.config.js" && p.fix)).toBe(true);
  });

  it("a post's mistakes name the post", async () => {
    const broken = folders.content({
      "posts/ok.md": "---\ndate: 2026-03-02\n---\nA\n",
      "posts/bad.md": "---\ntitle: [unclosed\n---\nB\n",
      "posts/undated.md": "---\ntitle: No date\n---\nC\n",
    });
    const problems: ContentProblem[] = [];
    await readPosts(`${broken}/posts`, problems);
    expect(problems.map((p) => [p.file.split("/").slice(-2).join("/"), p.field])).toEqual([
      ["posts/bad.md", "front matter"],
      ["posts/undated.md", "date"],
    ]);
  });

  it("two publications of one slug, a sample that is not an edition, an icon that is not there", async () => {
    expect(
      await check([
        { ...good, folder },
        { ...good, folder, by: "serial" },
      ]),
    ).toEqual([
      expect.objectContaining({
        field: "littlepress option posts[1].slug",
        problem: '"paper" is also the slug of posts[0]',
      }),
    ]);
    expect(await check([{ ...good, folder, sample: "2026-03-02" }])).toEqual([
      expect.objectContaining({
        field: "littlepress option posts[0].sample",
        problem: 'there is no edition "2026-03-02"',
      }),
    ]);
    expect((await check([{ ...good, folder, icon: "nowhere.png" }]))[0]).toMatchObject({
      field: "littlepress option posts[0].icon",
    });
  });
});

/**
 * How a real Eleventy config reads posts (its own front matter engines, `---js` among
 * them, and its preprocessors), after `setup` has configured it as a site would.
 */
async function eleventyReading(setup: (eleventyConfig: EleventyConfig) => void = () => {}): Promise<PostReading> {
  const dir = folders.content({ "eleventy.config.js": "export default function () {}\n" });
  let config: EleventyConfig | undefined;
  const eleventy = new Eleventy(dir, path.join(dir, "_site"), {
    quietMode: true,
    configPath: path.join(dir, "eleventy.config.js"),
    config: (eleventyConfig) => {
      setup(eleventyConfig);
      config = eleventyConfig;
    },
  });
  await (eleventy as unknown as { init(): Promise<void> }).init();
  return postReading(config!);
}

/** eleventyConfig.addPreprocessor, which the kit's types of Eleventy leave out. */
type Preprocessor = (data: never, content: string) => unknown;
const addPreprocessor = (config: EleventyConfig, name: string, extensions: string, callback: Preprocessor) =>
  (config as unknown as { addPreprocessor(n: string, e: string, c: Preprocessor): void }).addPreprocessor(
    name,
    extensions,
    callback,
  );

describe("posts as the site's Eleventy reads them", () => {
  const names = (posts: Post[]) => posts.map((p) => p.file.split("/").at(-1));

  it("reads JavaScript and JSON front matter with Eleventy's own engines, YAML with littlepress's", async () => {
    const dir = folders.content({
      "posts/a.md": '---js\nconst title = "A";\nconst date = "2026-03-02";\nconst tags = ["posts"];\n---\nA\n',
      "posts/b.md": '---json\n{ "title": "B", "date": "2026-03-03T10:00" }\n---\nB\n',
      "posts/c.md": '---javascript\nconst date = new Date("2026-03-04T12:00:00Z");\n---\nC\n',
      "posts/d.md": '---js\n{ title: "D", date: "2026-03-05" }\n---\nD\n',
      "posts/e.md": "---yaml\ntitle: E\ndate: 2026-03-06\n---\nE\n",
    });
    const problems: ContentProblem[] = [];
    const posts = await readPosts(`${dir}/posts`, problems, await eleventyReading());
    expect(problems).toEqual([]);
    expect(posts.map((p) => [names([p])[0], p.day, p.data.title, p.body, p.bodyLine])).toEqual([
      ["a.md", "2026-03-02", "A", "A\n", 6],
      ["b.md", "2026-03-03", "B", "B\n", 4],
      ["c.md", "2026-03-04", undefined, "C\n", 4],
      ["d.md", "2026-03-05", "D", "D\n", 4],
      ["e.md", "2026-03-06", "E", "E\n", 5],
    ]);
    expect(posts[0]!.data.tags).toEqual(["posts"]);
  });

  it("leaves out a draft in JavaScript front matter, and a post one of the site's preprocessors drops", async () => {
    const dir = folders.content({
      "posts/kept.md": "---\ndate: 2026-03-02\n---\nKept\n",
      // eleventy-base-blog's fifth post.
      "posts/draft.md": '---js\nconst title = "Draft";\nconst date = "2026-03-03";\nconst draft = true;\n---\nD\n',
      "posts/unlisted.md": "---\ndate: 2026-03-04\nunlisted: true\n---\nU\n",
      "posts/maybe.md": '---\ndate: 2026-03-05\ndraft: "yes"\n---\nM\n',
    });
    const reading = await eleventyReading((config) => {
      // eleventy-base-blog's drafts preprocessor: a draft is no page of a build.
      addPreprocessor(config, "drafts", "*", (data: { draft?: unknown }) => {
        if (data.draft && process.env.ELEVENTY_RUN_MODE === "build") return false;
      });
      addPreprocessor(config, "unlisted", "md", (data: { unlisted?: boolean }) => (data.unlisted ? false : undefined));
      addPreprocessor(config, "templates-only", "njk,liquid", () => false);
      // One that needs the page's whole data fails on the front matter alone: Eleventy runs it again on the page.
      addPreprocessor(config, "needs-collections", ".md", (data: { collections: { all: unknown[] } }) =>
        data.collections.all.length ? undefined : false,
      );
    });
    const problems: ContentProblem[] = [];
    const posts = await readPosts(`${dir}/posts`, problems, reading);
    expect(problems).toEqual([]);
    expect(names(posts)).toEqual(["kept.md"]);
    // Without the site's preprocessors, `draft: true` alone is left out (in any language).
    const own = await readPosts(`${dir}/posts`, [], { frontMatter: reading.frontMatter! });
    expect(names(own).sort()).toEqual(["kept.md", "maybe.md", "unlisted.md"]);
  });

  it("says what is wrong in front matter of another language, naming the post", async () => {
    const dir = folders.content({
      "posts/syntax.md": "---js\nconst date = ;\n---\nS\n",
      "posts/toml.md": '---toml\ndate = "2026-03-02"\n---\nT\n',
      "posts/list.md": '---json\n["2026-03-02"]\n---\nL\n',
      "posts/impossible.md": '---js\nconst date = "2026-02-30";\n---\nI\n',
    });
    const problems: ContentProblem[] = [];
    await readPosts(`${dir}/posts`, problems, await eleventyReading());
    const said = problems.map((p) => [p.file.split("/").at(-1), p.field, p.problem, p.fix]);
    expect(said).toEqual([
      ["impossible.md", "date", "`date` 2026-02-30 is not a real calendar date", "correct the date"],
      [
        "list.md",
        "front matter",
        "the front matter (json) is not a set of names and values",
        "correct the JSON between the two --- lines",
      ],
      [
        "syntax.md",
        "front matter",
        expect.stringMatching(/^the front matter \(js\) fails: .*Unexpected token/),
        "correct the JavaScript between the two --- lines",
      ],
      [
        "toml.md",
        "front matter",
        "the front matter is in `toml`, which this site's Eleventy does not read",
        "write it in YAML (`---`), JavaScript (`---js`) or JSON (`---json`)",
      ],
    ]);
  });
});
