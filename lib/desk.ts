import type { SpecField } from "./config-fields.ts";
import { specField } from "./config-fields.ts";
import { renderDescription } from "./description.ts";
import type { EditionKey, EditionsBy } from "./edition-key.ts";
import type { PublicationSource } from "./site.ts";

/** What the desk (the site's own pages at / and /<slug>/) shows about a publication. */
export interface DeskPublication {
  slug: string;
  name: string;
  /** Rendered with only the tags the platform allows. */
  descriptionHtml: string;
  delivered_on: string;
  /** Whether this publication also answers at the site root. */
  isRoot: boolean;
  schedule: {
    by: EditionsBy;
    /** "one edition per delivery, by delivery_count", for people. */
    summary: string;
    count: number;
    first: EditionKey;
    last: EditionKey;
    ends: boolean;
  };
  fields: SpecField[];
}

const BY_TEXT: Record<EditionsBy, string> = {
  delivery_count: "one edition per delivery, counted from the subscriber's first",
  local_date: "one edition per day, by the printer's local date",
  utc_date: "one edition per day, by the UTC date",
  utc_hour: "one edition per hour, by the UTC date and hour",
};

export function deskPublication(pub: PublicationSource, root: string | undefined): DeskPublication {
  const keys = pub.editions.list.map((e) => e.key);
  return {
    slug: pub.slug,
    name: pub.name,
    descriptionHtml: renderDescription(pub.description),
    delivered_on: pub.delivered_on,
    isRoot: pub.slug === root,
    schedule: { by: pub.editions.by, summary: BY_TEXT[pub.editions.by], count: keys.length, first: keys[0] ?? "", last: keys.at(-1) ?? "", ends: pub.editions.ends },
    fields: pub.fields.map(specField),
  };
}
