// The print-key services a built site's subscribers may use.
import { DEFAULT_PRINT_KEY_ORIGINS, type PrintKeyOrigin } from "../../model/print-key.ts";
import { siteIndexOf } from "../../edge/site-index.ts";

/**
 * The print-key services a built site's subscribers may use: its
 * content/site.json's list, else the default (the public sirius, https only).
 */
export function printKeyOriginsOf(site: string): readonly PrintKeyOrigin[] {
  return siteIndexOf(site).printKeyOrigins ?? DEFAULT_PRINT_KEY_ORIGINS;
}
