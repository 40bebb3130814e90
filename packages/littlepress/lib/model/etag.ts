import { hash } from "node:crypto";
import type { EditionKey } from "./edition-key.ts";
import type { VariantId } from "./variants.ts";

// An ETag starts with the edition's key, so two days or two counts never share
// one even when their content is identical (spec rules 5 and 6), and ends with
// a hash of what the subscriber gets, so an edited edition gets a new one. The
// publication's folder name is left out: renaming it must not reprint anything.

// JSON keeps the parts apart whatever characters they hold. crypto.hash (Node
// 20.12) hashes in one call: half the time of createHash for the few hundred
// bytes an ETag of a page with text slots hashes on every request.
const digest = (parts: string[]) => hash("sha256", JSON.stringify(parts), "hex").slice(0, 16);

export const contentHash = (html: string) => hash("sha256", html, "hex");

/** The ETag of one prebuilt edition copy (quoted, as HTTP wants it). */
export function editionEtag(key: EditionKey, variant: VariantId, content: string): string {
  return `"${key}-${digest([key, variant, content])}"`;
}

/** The ETag of an edition whose slots are filled with one subscriber's text values. */
export function filledEtag(key: EditionKey, prebuilt: string, textValues: Iterable<[string, string]>): string {
  return `"${key}-${digest([prebuilt, ...[...textValues].flat()])}"`;
}
