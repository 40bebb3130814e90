// A blog's post rendered for print as the site renders its Markdown (post-rendering.ts), and its template
// errors said at the post's own line in Nunjucks's words (template-errors.ts), from errors Nunjucks itself throws.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { EditionData } from "../../lib/build/edition-pages.ts";
import { postProblem, postRendering } from "../../lib/build/post-rendering.ts";
import { templateError } from "../../lib/build/template-errors.ts";

/** Eleventy's own Nunjucks (a dependency of Eleventy's), rendering a post's body as renderTemplate does. */
const nunjucks = createRequire(import.meta.resolve("@11ty/eleventy"))("nunjucks") as {
  Environment: new () => { renderString(text: string, data: object): string };
};
const thrownBy = (body: string): unknown => {
  try {
    new nunjucks.Environment().renderString(body, {});
  } catch (error) {
    return error;
  }
  throw new Error("rendered without an error");
};

/** A post whose body starts at line 5 of its file (four lines of front matter). */
const post = { source: "src/blog/post.md", bodyLine: 5 } as EditionData;

describe("a post's Nunjucks error, at the post's line", () => {
  it("a tag that does not parse: Nunjucks counts its lines from 1", () => {
    const { problem } = templateError(thrownBy("one\ntwo\n{% if %}"), post);
    expect(problem).toBe("line 7, column 7: unexpected token: %}");
  });

  it("a call that fails as the post runs: Nunjucks counts its lines from 0", () => {
    const { problem } = templateError(thrownBy("Latest:\n{% for p in posts.slice(-2) %}{{ p }}{% endfor %}"), post);
    expect(problem).toBe('line 6, column 23: Unable to call `posts["slice"]`, which is undefined or falsey');
  });

  it("said for a post: in Nunjucks, with how to leave the post out of print", () => {
    const said = postProblem(templateError(thrownBy("{% if %}"), post), "njk,md");
    expect(said.fix).toMatch(
      /^correct the Nunjucks there \(posts are rendered as the site renders its Markdown: njk,md\)/,
    );
    expect(said.fix).toContain("leave it out of print with `littlepress: false` in its front matter");
  });
});

describe("the languages a post is rendered in", () => {
  /** The plugin's reading of a site whose merged config says `markdownTemplateEngine: engine`. */
  const site = (engine: unknown) => {
    let listener: ((config: unknown) => void) | undefined;
    const rendering = postRendering({ on: (_: string, l: (config: unknown) => void) => (listener = l) } as never);
    listener?.({ getConfig: () => ({ markdownTemplateEngine: engine }) });
    return rendering;
  };

  it("the site's markdownTemplateEngine, then Markdown; none (false) is Markdown alone", () => {
    expect(site("njk").languages({})).toBe("njk,md");
    expect(site("liquid").languages({})).toBe("liquid,md");
    expect(site(false).languages({})).toBe("md");
  });

  it("a post's own templateEngineOverride wins", () => {
    expect(site("njk").languages({ templateEngineOverride: "liquid, md" })).toBe("liquid,md");
  });

  it("names every failed post at once", () => {
    const rendering = site("njk");
    rendering.throwFailures();
    for (const file of ["a.md", "b.md"]) rendering.failed({ file, field: "template", problem: "x", fix: "y" });
    expect(() => rendering.throwFailures()).toThrow(/found 2 problems[\s\S]*a\.md[\s\S]*b\.md/);
  });
});
