// What is wrong across a publication's editions once all are read: a `lang` that is no language tag, and a
// comparison with a value none of a setting's options has. Checked where the publications are read, beside
// each file's own problems, so that one build names them all (issue 52: a stray file hid them till fixed).
import type { ContentProblem } from "../model/content-error.ts";
import { langProblems } from "./edition-lang.ts";
import { optionComparisons } from "./option-comparisons.ts";
import type { PublicationSource } from "./site.ts";

/** A publication's settings and editions, read: all these checks need, from content/ or from posts. */
export type EditionsRead = Pick<PublicationSource, "fields" | "editions">;

export function editionChecks(pub: EditionsRead): ContentProblem[] {
  return [...langProblems(pub), ...optionComparisons(pub)];
}
