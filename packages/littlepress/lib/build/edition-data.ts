// Data computed for each edition. A data file's value is the same for every
// page; a value that depends on the edition (today's sunrise in the
// subscriber's city) is a function: the kit calls it once per edition and
// variant with what that edition sees, its front matter and `config`, and
// the edition's Liquid sees the answer under the function's name. (Liquid
// itself cannot call a function with arguments.)
import { chainMessages, ContentError } from "../model/content-error.ts";

/**
 * The author's data with each function replaced by its answer for this
 * edition; `own` is the edition's front matter and `config`.
 */
export async function dataForEdition(
  author: Record<string, unknown>,
  own: Record<string, unknown>,
  source: string,
): Promise<Record<string, unknown>> {
  const scope: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(author)) {
    // The edition's front matter wins over data files, as in Eleventy: no need to compute what it hides.
    if (typeof value !== "function" || name in own) {
      scope[name] = value;
      continue;
    }
    try {
      scope[name] = await (value as (edition: Record<string, unknown>) => unknown)({ ...own });
    } catch (error) {
      const why = chainMessages(error, 4).join(": ");
      const problem = `the data file's function \`${name}\` failed for this edition: ${why}`;
      const fix =
        `correct \`${name}\` in the data file that exports it; it is called with this edition's ` +
        'front matter and `config` (docs/data-and-recurring-editions.md: "Data computed per edition")';
      throw new ContentError([{ file: source, field: `{{ ${name} }}`, problem, fix }]);
    }
  }
  return scope;
}
