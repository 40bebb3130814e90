// A gap in a finite serial's numbers (parts 0, 1, 3): delivery 2 gets no edition (204, "no edition for 2"),
// and the subscriber's printer prints nothing that day, without a word to the author. Almost always a part
// renumbered by mistake. Only a finite serial (`editions.ends`) is held to it: an open one may skip on purpose
// (docs/writing-publications.md: "What a request gets"). A warning: `npm start` prints it, verify fails on it.
import type { ContentProblem } from "../model/content-error.ts";
import type { PublicationSource } from "./site.ts";

/** One warning per gap, named at the edition that follows it: the missing numbers and the fix. */
export function serialGaps(pub: PublicationSource): ContentProblem[] {
  if (pub.editions.by !== "delivery_count" || !pub.editions.ends) return [];
  const warnings: ContentProblem[] = [];
  let expected = 0;
  for (const edition of pub.editions.list) {
    const n = Number(edition.key);
    if (n > expected) warnings.push(gap(edition.origin ?? edition.file, expected, n));
    expected = n + 1;
  }
  return warnings;
}

function gap(file: string, from: number, to: number): ContentProblem {
  const last = to - 1;
  const [missing, deliveries] =
    from === last
      ? [`${from}`, `delivery ${from} gets`]
      : from + 1 === last
        ? [`${from} or ${last}`, `deliveries ${from} and ${last} each get`]
        : [`${from} to ${last}`, `deliveries ${from} to ${last} each get`];
  return {
    file,
    field: "number",
    problem:
      `the serial has no edition numbered ${missing}: ${deliveries} nothing ` +
      `(204, "no edition for ${from}"), and the serial goes on at ${to}`,
    fix:
      `number the editions 0, 1, 2, … without a gap: ` +
      `renumber this one ${from}, or add an edition numbered ${from}`,
  };
}
