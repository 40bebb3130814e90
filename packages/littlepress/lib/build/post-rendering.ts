// How a blog's posts are rendered for print: as the site renders its Markdown
// (its `markdownTemplateEngine`: Liquid by Eleventy's default, Nunjucks in many
// starters; a post's own `templateEngineOverride` over it), and, when one
// fails, every failing post named in the same build with how to leave it out.
import type { EleventyConfig } from "@11ty/eleventy";
import { ContentError, type ContentProblem } from "../model/content-error.ts";
import { templateProblems } from "./template-errors.ts";

/** The front matter key that leaves a post out of every publication: `littlepress: false`. */
export const LEAVE_OUT_KEY = "littlepress";

/** What a build's posts are rendered with, and the posts that failed so far. */
export interface PostRendering {
  /** Eleventy's template languages for a post with this front matter ("njk,md", "liquid,md", "md"). */
  languages(data: Record<string, unknown>): string;
  /** Keeps an edition's problem (a post's, or any edition's template), for the build to name with the others. */
  failed(problem: ContentProblem): void;
  /** Throws every post's problem at once, if any failed. */
  throwFailures(): void;
}

/** The site's Markdown engine, read once Eleventy has merged the site's config (the plugin runs before). */
export function postRendering(eleventyConfig: EleventyConfig): PostRendering {
  let markdown: unknown = "liquid";
  const failures: ContentProblem[] = [];
  eleventyConfig.on("eleventy.config", (config: { getConfig(): { markdownTemplateEngine?: unknown } }) => {
    markdown = config.getConfig().markdownTemplateEngine;
  });
  return {
    languages(data) {
      const own = data.templateEngineOverride;
      if (typeof own === "string" && own.trim()) return own.replace(/\s/g, "");
      return typeof markdown === "string" && markdown ? `${markdown},md` : "md";
    },
    failed(problem) {
      failures.push(problem);
    },
    throwFailures() {
      if (failures.length) throw new ContentError(templateProblems(failures.splice(0)));
    },
  };
}

const LANGUAGE_NAMES: Record<string, string> = { njk: "Nunjucks", liquid: "Liquid", md: "Markdown" };

/** A post's template problem, said for a post: in the language it was rendered in, and how to leave it out. */
export function postProblem(problem: ContentProblem, languages: string): ContentProblem {
  const first = languages.split(",")[0]!;
  const language = LANGUAGE_NAMES[first] ?? first;
  const fix =
    problem.field === "template"
      ? `correct the ${language} there (posts are rendered as the site renders its Markdown: ${languages})`
      : problem.fix;
  return {
    ...problem,
    fix:
      `${fix}; or, if the post is for the web only, leave it out of print with \`${LEAVE_OUT_KEY}: false\` ` +
      'in its front matter (docs/eleventy-plugin.md: "Which posts, and their dates")',
  };
}
