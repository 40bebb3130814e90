// Reads content/<slug>/publication.json from disk; the checks themselves are
// the model's (lib/model/publication.ts), so they run the same on any JSON.
import { checkPublication, checkSlug, type CheckedPublication } from "../model/publication.ts";
import { readText } from "./text-file.ts";

const MISSING_FIX =
  'create it with name, description, owner_email, delivered_on and editions (README: "publication.json")';

/** Reads and checks one publication.json; returns the publication or every problem found. */
export function readPublication(slug: string, file: string): CheckedPublication {
  const problem = (field: string, problem: string, fix: string) => ({ problems: [{ file, field, problem, fix }] });
  const slugProblems = checkSlug(slug, file);
  if (slugProblems.length) return { problems: slugProblems };
  let raw: unknown;
  try {
    const read = readText(file);
    if ("problem" in read) return { problems: [read.problem] };
    raw = JSON.parse(read.text);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ENOENT") return problem("", "is missing", MISSING_FIX);
    return problem(
      "",
      `is not valid JSON: ${err.message}`,
      "correct the JSON syntax (a trailing comma or a missing quote, usually)",
    );
  }
  return checkPublication(slug, raw, file);
}
