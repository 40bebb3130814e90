// An edition's `lang` (its front matter, or its data row) becomes the page's `<html lang>`: one that is no
// BCP 47 tag (`english`) is refused by name, with the tag meant (language-tag.ts), rather than printed as is.
import type { ContentProblem } from "../model/content-error.ts";
import { isLanguageTag, suggestedTag } from "../model/language-tag.ts";
import { lineOf } from "./front-matter-slips.ts";
import type { EditionsRead } from "./edition-checks.ts";

/** One problem per file and value: each `lang` of the publication's editions that is no language tag. */
export function langProblems(pub: EditionsRead): ContentProblem[] {
  const said = new Map<string, ContentProblem>();
  for (const edition of pub.editions.list)
    for (const part of edition.parts ?? [edition]) {
      const lang = part.data.lang;
      // Left empty (`lang:`), it is English, as when left out.
      if (lang === undefined || lang === null || lang === "" || (typeof lang === "string" && isLanguageTag(lang)))
        continue;
      const file = "origin" in part && part.origin ? part.origin.replace(/ row \d+.*$/, "") : part.file;
      const id = `${file}\u0000${JSON.stringify(lang)}`;
      if (!said.has(id)) said.set(id, langProblem(file, lang));
    }
  return [...said.values()];
}

function langProblem(file: string, lang: unknown): ContentProblem {
  const line = lineOf(file, "lang");
  const meant = typeof lang === "string" ? suggestedTag(lang) : undefined;
  return {
    file,
    field: "lang",
    problem:
      `${JSON.stringify(lang)}${line ? ` (line ${line})` : ""} is not a language tag, ` +
      "and the page's <html lang> would say it as it is",
    fix:
      (meant ? `write lang: ${meant}` : "write a BCP 47 language tag") +
      ' (such as "en", "fr" or "pt-BR"), or leave lang out for English',
  };
}
