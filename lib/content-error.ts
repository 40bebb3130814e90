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
  const lines = problems.map((p) => {
    const where = p.field ? `${p.file}: ${p.field}` : p.file;
    return `  ${where}\n    problem: ${p.problem}\n    fix: ${p.fix}`;
  });
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return `littlepress found ${count} in your content:\n${lines.join("\n")}`;
}

/** Finds a ContentError anywhere in an error's cause chain (Eleventy wraps errors thrown in hooks). */
export function findContentError(error: unknown): ContentError | undefined {
  for (let e = error, depth = 0; e && depth < 10; depth++) {
    if (e instanceof ContentError) return e;
    if (typeof e !== "object") return undefined;
    const next = e as { originalError?: unknown; cause?: unknown };
    e = next.originalError ?? next.cause;
  }
  return undefined;
}
