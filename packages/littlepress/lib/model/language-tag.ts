// A page's language (`lang` in an edition's front matter or data row) is written into `<html lang>`, where
// a browser, a screen reader and the kit's own day names (day-facts.ts) read it as a BCP 47 tag: `en`,
// `fr`, `pt-BR`. `english` is no tag; it was written as it stood, and the page had no language a reader knows.

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Whether `tag` is a BCP 47 language tag whose language is a known two-letter one, or any three-letter one. */
export function isLanguageTag(tag: string): boolean {
  try {
    Intl.getCanonicalLocales(tag);
  } catch {
    return false; // not a tag at all: `en_US`, `english language`
  }
  const language = tag.split("-")[0]!.toLowerCase();
  // Five to eight letters are reserved in BCP 47 (`english` is well formed, but names no language).
  if (language.length === 3) return /^[a-z]{3}$/.test(language);
  return language.length === 2 && namesOf().some(([code]) => code === language);
}

let names: [code: string, name: string][] | undefined;
/** Each known two-letter language with its names, in English and in itself ("de": "german", "deutsch"). */
function namesOf(): [string, string][] {
  if (names) return names;
  names = [];
  for (const a of LETTERS)
    for (const b of LETTERS) {
      const code = a + b;
      const english = new Intl.DisplayNames(["en"], { type: "language" }).of(code);
      if (!english || english === code) continue;
      names.push([code, english.toLowerCase()]);
      const own = new Intl.DisplayNames([code], { type: "language" }).of(code);
      if (own && own !== code) names.push([code, own.toLowerCase()]);
    }
  return names;
}

/** The tag meant by what was written: `en` for `english` or `English`, `pt-BR` for `pt_BR`; undefined if unknown. */
export function suggestedTag(written: string): string | undefined {
  const dashed = written.trim().replaceAll("_", "-");
  if (dashed !== written && isLanguageTag(dashed)) return dashed;
  const name = written.trim().toLowerCase();
  return namesOf().find(([, n]) => n === name)?.[0];
}
