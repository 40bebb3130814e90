import type { ConfigField } from "../../lib/model/config-fields.ts";
import type { EditionKey, EditionsBy } from "../../lib/model/edition-key.ts";
import type { PublicationSource } from "../../lib/build/site.ts";

/** A publication as the build reads it, made by hand for unit tests: only what a test names differs. */
export function publicationSource(o: {
  slug?: string;
  by?: EditionsBy;
  keys: EditionKey[];
  fields?: ConfigField[];
  ends?: boolean;
  sample?: EditionKey;
}): PublicationSource {
  const slug = o.slug ?? "test";
  return {
    slug,
    name: "Test",
    description: "D",
    owner_email: "t@example.com",
    delivered_on: "Daily",
    publication_api_version: "1.0",
    external_configuration: false,
    charset: "utf-8",
    strict_variables: true,
    markdown: { breaks: false },
    fields: o.fields ?? [],
    editions: {
      by: o.by ?? "delivery_count",
      ends: o.ends ?? false,
      list: o.keys.map((key) => ({
        key,
        file: `content/${slug}/editions/${key}.md`,
        data: { number: Number(key) },
        body: "",
        bodyLine: 4,
      })),
    },
    sampleKey: o.sample ?? o.keys[0]!,
  };
}
