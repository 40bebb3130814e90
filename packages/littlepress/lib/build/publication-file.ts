// Reads content/<slug>/publication.json from disk; the checks themselves are
// the model's (lib/model/publication.ts), so they run the same on any JSON.
import iconv from "iconv-lite";
import { checkPublication, checkSlug, type CheckedPublication } from "../model/publication.ts";
import { parseJson } from "./json-file.ts";
import { readText } from "./text-file.ts";

const MISSING_FIX =
  "create it with name, description, owner_email, delivered_on and editions " +
  '(docs/writing-publications.md: "publication.json")';

/** Reads and checks one publication.json; returns the publication or every problem found. */
export function readPublication(slug: string, file: string): CheckedPublication {
  const problem = (field: string, problem: string, fix: string) => ({ problems: [{ file, field, problem, fix }] });
  const slugProblems = checkSlug(slug, file);
  if (slugProblems.length) return { problems: slugProblems };
  let read: ReturnType<typeof readText>;
  try {
    read = readText(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ENOENT") return problem("", "is missing", MISSING_FIX);
    return problem("", `cannot be read: ${err.message}`, "make it a readable file of JSON");
  }
  if ("problem" in read) return { problems: [read.problem] };
  const parsed = parseJson(file, read.text);
  if ("problem" in parsed) return { problems: [parsed.problem] };
  return checkPublication(slug, parsed.value, file, iconv);
}
