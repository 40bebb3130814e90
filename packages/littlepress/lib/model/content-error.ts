import { plural } from "./words.ts";

/**
 * A problem in an author's content, reported the way an author can act on it:
 * which file, which field, what is wrong and what to do about it.
 */
export interface ContentProblem {
  /** Path of the file, relative to the project (for example `content/tales/publication.json`). */
  file: string;
  /** The field in that file, dotted (`editions.by`, `config.fields[1].options`), or "" for the whole file. */
  field: string;
  problem: string;
  fix: string;
}

/** The same problem reported twice (one per variant, one per ajv branch) is listed once. */
export function uniqueProblems(problems: ContentProblem[]): ContentProblem[] {
  return [...new Map(problems.map((p) => [`${p.file}\u0000${p.field}\u0000${p.problem}`, p])).values()];
}

/** Thrown by the build when content is broken; carries every problem found, not just the first. */
export class ContentError extends Error {
  readonly problems: ContentProblem[];
  constructor(problems: ContentProblem[]) {
    super(formatProblems(problems));
    this.name = "ContentError";
    this.problems = problems;
  }
}

export function formatProblems(problems: ContentProblem[]): string {
  return `littlepress found ${plural(problems.length, "problem")} in your content:\n${list(problems)}`;
}

/** Things that build but will not print well; `--strict` turns them into problems. */
export function formatWarnings(warnings: ContentProblem[]): string {
  return (
    `littlepress: ${plural(warnings.length, "warning")} ` +
    `(npm run build -- --strict makes them fail the build):\n${list(warnings)}`
  );
}

function list(problems: ContentProblem[]): string {
  return problems
    .map((p) => `  ${p.field ? `${p.file}: ${p.field}` : p.file}\n    problem: ${p.problem}\n    fix: ${p.fix}`)
    .join("\n");
}

/** Finds a ContentError anywhere in an error's cause chain (Eleventy wraps errors thrown in hooks). */
export function findContentError(error: unknown): ContentError | undefined {
  return errorChain(error).find((e): e is ContentError => e instanceof ContentError);
}

/** An error and the ones it wraps (Eleventy's `originalError`, or `cause`), outermost first, at most `limit`. */
export function errorChain(error: unknown, limit = 10): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < limit;) {
    chain.push(e);
    if (typeof e !== "object") break;
    const next = e as { originalError?: unknown; cause?: unknown };
    e = next.originalError ?? next.cause;
  }
  return chain;
}

/** The messages along an error's chain (errorChain), outermost first. */
export function chainMessages(error: unknown, limit?: number): string[] {
  return errorChain(error, limit).flatMap((e) => {
    const message = (e as { message?: unknown }).message;
    return typeof message === "string" && message ? [message] : [];
  });
}
