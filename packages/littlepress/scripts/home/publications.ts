// Any publication on the web, by its URL: its meta.json read, its icon
// fetched, its settings checked by its own validate_config/ (the spec), all
// through the checked fetch (print-key-client.ts's askPrintKey): only origins
// on the household's allow-list, no redirect followed, replies capped in size
// and time, a private address only for an origin the owner listed as on the
// home network. The owner adds a publication's origin by pasting its URL.
import type { SpecField } from "../../lib/model/config-fields.ts";
import { renderDescription } from "../../lib/model/description.ts";
import { shownText } from "../../lib/model/printer-name.ts";
import {
  EDITION_MAX_BYTES,
  PUBLICATION_NAME_LENGTH,
  PUBLICATION_TIMEOUT_MS,
} from "../../lib/platform/printers/escpos-publication.ts";
import { askPrintKey, type PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";
import { DEFAULT_PRINT_KEY_ORIGINS } from "../../lib/model/print-key.ts";
import type { Db } from "./home-db.ts";

/** What the page shows of a publication before subscribing. */
export interface PublicationCard {
  base: URL;
  name: string;
  /** meta.json's description with only the spec's tags kept, as HTML. */
  description: string;
  fields: SpecField[];
  /** icon.png as a data: URL (so the owner's browser loads nothing from the publication), if it has one. */
  icon?: string;
}

/** The household's allow-list, with sirius's own services for print keys. */
export function homePolicy(db: Db, timeoutMs = PUBLICATION_TIMEOUT_MS): PrintKeyPolicy {
  const rows = db.prepare("SELECT origin, private FROM allowed_origins").all() as { origin: string; private: number }[];
  const allowed = [...DEFAULT_PRINT_KEY_ORIGINS, ...rows.map((r) => ({ origin: r.origin, private: r.private === 1 }))];
  return { allowed, timeoutMs, maxBytes: EDITION_MAX_BYTES };
}

/** Lists `origin` (private: it may be at a home-network address); listing it again may widen it, never narrow it. */
export function allowOrigin(db: Db, origin: string, allowPrivate: boolean): void {
  db.prepare(
    `INSERT INTO allowed_origins (origin, private) VALUES (?, ?)
     ON CONFLICT (origin) DO UPDATE SET private = MAX(private, excluded.private)`,
  ).run(origin, allowPrivate ? 1 : 0);
}

async function getJson(url: URL, policy: PrintKeyPolicy): Promise<unknown> {
  const reply = await askPrintKey(url, { method: "GET", headers: { Accept: "application/json" } }, policy);
  if ("refused" in reply) throw new Error(`${url.origin} was not asked: ${reply.refused}`);
  if ("failed" in reply) throw new Error(`${url.href} ${reply.failed}`);
  if (reply.status !== 200) throw new Error(`${url.href} answered ${reply.status}, not 200: is this a publication?`);
  try {
    return JSON.parse(reply.body.toString("utf8"));
  } catch {
    throw new Error(`${url.href} is not JSON: is this a publication?`);
  }
}

/** The spec's fields of meta.json's config, those that make sense (a name, a label; options for a choice). */
function fieldsOf(meta: { config?: { fields?: unknown } }): SpecField[] {
  const raw = Array.isArray(meta.config?.fields) ? (meta.config.fields as unknown[]) : [];
  return raw.flatMap((f): SpecField[] => {
    if (typeof f !== "object" || f === null) return [];
    const { type, name, label, options } = f as Record<string, unknown>;
    if (typeof name !== "string" || !name) return [];
    const shown = typeof label === "string" ? shownText(label, 120) : name;
    const choices = Array.isArray(options)
      ? options.filter((o): o is [string, string] => Array.isArray(o) && o.length === 2).map((o) => o.map(String))
      : undefined;
    const kind = typeof type === "string" ? type : "text";
    if ((kind === "select" || kind === "radio") && choices?.length)
      return [{ type: kind, name, label: shown, options: choices as [string, string][] }];
    return [{ type: "text", name, label: shown }];
  });
}

/** Reads a publication's card; an error names what went wrong. */
export async function readCard(base: URL, policy: PrintKeyPolicy): Promise<PublicationCard | { error: string }> {
  let meta: Record<string, unknown>;
  try {
    const got = await getJson(new URL("meta.json", base), policy);
    if (typeof got !== "object" || got === null || typeof (got as { name?: unknown }).name !== "string")
      return { error: `${base.href}meta.json has no name: is this a publication?` };
    meta = got as Record<string, unknown>;
  } catch (error) {
    return { error: (error as Error).message };
  }
  const description = typeof meta.description === "string" ? renderDescription(meta.description) : "";
  const icon = await iconOf(base, policy);
  return {
    base,
    name: shownText(meta.name as string, PUBLICATION_NAME_LENGTH),
    description,
    fields: fieldsOf(meta),
    ...(icon ? { icon } : {}),
  };
}

async function iconOf(base: URL, policy: PrintKeyPolicy): Promise<string | undefined> {
  const reply = await askPrintKey(
    new URL("icon.png", base),
    { method: "GET", headers: { Accept: "image/png" } },
    {
      ...policy,
      maxBytes: 64 * 1024,
    },
  );
  if (!("status" in reply) || reply.status !== 200) return undefined;
  // Only a PNG is shown (its signature checked): nothing else the publication sends reaches the page.
  if (!reply.body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return undefined;
  return `data:image/png;base64,${reply.body.toString("base64")}`;
}

/** The publication's own verdict on the settings (validate_config/, form-encoded `config`), or why there is none. */
export async function validateSettings(
  base: URL,
  fields: SpecField[],
  settings: Record<string, string>,
  policy: PrintKeyPolicy,
): Promise<{ valid: true } | { valid: false; errors: string[] } | { error: string }> {
  if (!fields.length) return { valid: true }; // validate_config is only for publications with settings (spec)
  const url = new URL("validate_config/", base);
  const body = new TextEncoder().encode(new URLSearchParams({ config: JSON.stringify(settings) }).toString());
  const headers = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
  const reply = await askPrintKey(url, { method: "POST", headers, body }, policy);
  if (!("status" in reply))
    return { error: `validate_config/ could not be asked: ${"refused" in reply ? reply.refused : reply.failed}` };
  try {
    const answer = JSON.parse(reply.body.toString("utf8")) as { valid?: unknown; errors?: unknown };
    if (answer.valid === true) return { valid: true };
    if (answer.valid === false && Array.isArray(answer.errors))
      return { valid: false, errors: answer.errors.map((e) => shownText(String(e), 300)) };
  } catch {
    // Not JSON: said below, as any other answer that is not a verdict.
  }
  return { error: `validate_config/ answered ${reply.status} with no verdict ({"valid": …})` };
}

/**
 * Each error beside the field it names (by its label, or else its name, as the platform's publications wrote
 * them); the rest above the form. The spec leaves the matching to the platform.
 */
export function errorsByField(
  fields: SpecField[],
  errors: string[],
): { byField: Map<string, string[]>; rest: string[] } {
  const byField = new Map<string, string[]>();
  const rest: string[] = [];
  for (const error of errors) {
    const text = error.toLowerCase();
    const field =
      fields.find((f) => f.label && text.includes(f.label.toLowerCase())) ??
      fields.find((f) => text.includes(f.name.toLowerCase()));
    if (field) byField.set(field.name, [...(byField.get(field.name) ?? []), error]);
    else rest.push(error);
  }
  return { byField, rest };
}
