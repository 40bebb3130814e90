// The print-key services a built site's subscribers may use.
import { DEFAULT_PRINT_KEY_ORIGINS, type PrintKeyOrigin } from "../../model/print-key.ts";
import { siteFor, type ServeContext } from "../../edge/site-folder.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import type { PrintKeyPolicy } from "./print-key-client.ts";

/**
 * The print-key services a built site's subscribers may use: its
 * content/site.json's list, else the default (the public sirius, https only).
 */
export function printKeyOriginsOf(site: string): readonly PrintKeyOrigin[] {
  return siteIndexOf(site).printKeyOrigins ?? DEFAULT_PRINT_KEY_ORIGINS;
}

/**
 * The policy a function sends print keys under: the services the local server
 * was told (tests), else the built site's list. The subscribe page, the
 * scheduled run, the delivery batches and the deploy's pushes all send under it.
 */
export function printKeysFor(context: ServeContext | undefined): PrintKeyPolicy {
  return { allowed: context?.littlepressPrintKeys ?? printKeyOriginsOf(siteFor(context)) };
}
