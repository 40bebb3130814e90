// A blog's post read as the blog's own Eleventy reads it (lib/build/blog-posts.ts):
// its front matter in whichever language Eleventy reads (YAML, `---js`, `---json`,
// or one the site added), and whether one of the site's preprocessors leaves the
// post out of the site (eleventy-base-blog's drafts, in a build). A post Eleventy
// does not publish is never an edition.
import { splitFrontMatter, type FrontMatterError, type FrontMatterSplit } from "./front-matter.ts";

/** What the plugin takes from the site's Eleventy config to read its posts. */
export interface PostReading {
  /**
   * eleventyConfig.frontMatterParsingOptions: the engines by language (`javascript`
   * is Eleventy's own, which runs the code), and the site's default language.
   */
  frontMatter?: { engines?: Record<string, unknown>; language?: string };
  /** eleventyConfig.preprocessors: each may return false for a template, which Eleventy then leaves out. */
  preprocessors?: Record<string, { filter?: unknown; callback?: unknown }>;
}

/** The parts of the Eleventy config the plugin reads posts with (its frontMatterParsingOptions and preprocessors). */
export function postReading(eleventyConfig: object): PostReading {
  const config = eleventyConfig as {
    frontMatterParsingOptions?: PostReading["frontMatter"];
    preprocessors?: PostReading["preprocessors"];
  };
  return {
    ...(config.frontMatterParsingOptions && { frontMatter: config.frontMatterParsingOptions }),
    ...(config.preprocessors && { preprocessors: config.preprocessors }),
  };
}

// `---` and a language (`---js`, `---json`), as gray-matter (Eleventy's reader) reads the first line.
const FRONT_MATTER = /^---[ \t]*([A-Za-z][\w-]*)?[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;
const YAML = /^ya?ml$/i;

/**
 * A post's front matter and body. YAML is read by littlepress's own reader
 * (front-matter.ts: a date stays the text written, so an impossible one is
 * said); any other language by the site's Eleventy engine for it, as Eleventy
 * reads the post (`---js` runs the code and takes the names it declares).
 */
export async function readFrontMatter(
  text: string,
  file: string,
  options: PostReading["frontMatter"] = {},
): Promise<FrontMatterSplit | FrontMatterError> {
  const clean = text.replace(/^\uFEFF/, "");
  const m = FRONT_MATTER.exec(clean);
  const language = m?.[1] ?? options.language ?? "yaml";
  if (!m || YAML.test(language)) return splitFrontMatter(m?.[1] ? clean.replace(/^---[^\r\n]*/, "---") : clean);
  const body = clean.slice(m[0].length);
  const bodyLine = m[0].split("\n").length;
  const named = languageName(language);
  const engine = options.engines?.[language] ?? options.engines?.[named] ?? DEFAULT_ENGINES[named];
  const parse = typeof engine === "function" ? engine : (engine as { parse?: unknown } | undefined)?.parse;
  if (typeof parse !== "function")
    return {
      error: `the front matter is in \`${language}\`, which this site's Eleventy does not read`,
      fix: "write it in YAML (`---`), JavaScript (`---js`) or JSON (`---json`)",
    };
  const fix = `correct the ${LANGUAGE_NAMES[named] ?? language} between the two --- lines`;
  let data: unknown;
  try {
    // As gray-matter calls an engine: its options, the engines (Eleventy's `js` falls back to another), the file.
    const engines = { ...DEFAULT_ENGINES, ...options.engines };
    data = await (parse as (code: string, context: object) => unknown)(m[2] ?? "", {
      ...options,
      engines,
      filePath: `./${file}`,
    });
  } catch (e) {
    return { error: `the front matter (${language}) fails: ${firstLine(e)}`, fix };
  }
  if (data === null || data === undefined) return { data: {}, body, bodyLine };
  if (typeof data !== "object" || Array.isArray(data))
    return { error: `the front matter (${language}) is not a set of names and values`, fix };
  return { data: data as Record<string, unknown>, body, bodyLine };
}

/** gray-matter's own engines besides YAML, which Eleventy keeps unless the site replaces them. */
const DEFAULT_ENGINES: Record<string, unknown> = { json: (code: string) => JSON.parse(code) as unknown };
const LANGUAGE_NAMES: Record<string, string> = { javascript: "JavaScript", json: "JSON" };

/** gray-matter's aliases: `js` is `javascript`. */
function languageName(language: string): string {
  const lower = language.toLowerCase();
  return lower === "js" ? "javascript" : lower;
}

/**
 * The name of the site's preprocessor that leaves the post out (returns false
 * for it, as eleventy-base-blog's drafts preprocessor does in a build), or
 * undefined when Eleventy publishes it. Each is given the post's front matter
 * and its body, as Eleventy gives them (with the rest of the page's data, which
 * the plugin does not have yet: one that fails without it is left to Eleventy,
 * which runs it again on the whole page).
 */
export async function leftOutBy(
  file: string,
  data: Record<string, unknown>,
  body: string,
  preprocessors: PostReading["preprocessors"] = {},
): Promise<string | undefined> {
  const inputPath = `./${file}`;
  for (const [name, { filter, callback }] of Object.entries(preprocessors)) {
    if (typeof callback !== "function" || !appliesTo(filter, file)) continue;
    const run = callback as (this: { inputPath: string }, data: object, content: string) => unknown;
    try {
      if ((await run.call({ inputPath }, { ...data, page: { inputPath } }, body)) === false) return name;
    } catch {
      // Run here on the front matter alone, a preprocessor may throw where Eleventy's own run of it, on the
      // whole page, does not: the post is kept here, and Eleventy's run reports any error of its own.
      continue;
    }
  }
  return undefined;
}

/** Whether a preprocessor's extensions ("*", "md", ".md,.njk", or a list) include the post's, as Eleventy reads. */
function appliesTo(filter: unknown, file: string): boolean {
  const list = Array.isArray(filter) ? filter : typeof filter === "string" ? filter.split(",") : [];
  return list.some((ext) => {
    const e = String(ext).trim();
    return e === "*" || file.endsWith(e.startsWith(".") ? e : `.${e}`);
  });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
