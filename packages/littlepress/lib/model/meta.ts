import { specField, type SpecField } from "./config-fields.ts";
import { isDated } from "./edition-key.ts";
import type { Publication } from "./publication.ts";

/** meta.json as the spec defines it: these fields and no others. */
export interface MetaJson {
  owner_email: string;
  publication_api_version: string;
  name: string;
  description: string;
  delivered_on: string;
  send_timezone_info: boolean;
  send_delivery_count: boolean;
  external_configuration: boolean;
  config?: { fields: SpecField[] };
}

export function metaJson(p: Publication): MetaJson {
  const meta: MetaJson = {
    owner_email: p.owner_email,
    publication_api_version: p.publication_api_version,
    name: p.name,
    description: p.description,
    delivered_on: p.delivered_on,
    send_timezone_info: isDated(p.editions.by),
    send_delivery_count: p.editions.by === "delivery_count",
    external_configuration: p.external_configuration,
  };
  if (p.fields.length) meta.config = { fields: p.fields.map(specField) };
  return meta;
}
