// A print key checked before a subscription is made: its GET asked as sirius
// answers it (the printer's name, online or offline), and, when the site's own
// list refused it, the line that tells the site's owner how to allow it.
import { isAddressLiteral, isPublicAddress } from "../../model/addresses.ts";
import { allowedPrintKeyOrigin, type PrintKeyOrigin } from "../../model/print-key.ts";
import { printerName, UNNAMED_PRINTER } from "../../model/printer-name.ts";
import { askPrintKey, type PrintKeyPolicy } from "../printers/print-key-client.ts";

/** The printer a print key names, and whether it is offline just now (a subscription to it is still made). */
export interface KeyPrinter {
  name: string;
  offline: boolean;
}

/**
 * The print key's GET, as sirius answers it: the printer, or what to tell
 * the subscriber. Every key the site will not or cannot ask (not on the
 * allow-list, a private address, no answer, not a print key's answer) gets the
 * same message, so the page tells nothing about hosts or ports; only a listed
 * service's own 404 is told apart.
 */
export async function checkPrintKey(key: URL, printKeys: PrintKeyPolicy): Promise<KeyPrinter | { error: string }> {
  const reply = await askPrintKey(key, { method: "GET", headers: { Accept: "application/json" } }, printKeys);
  if ("status" in reply && reply.status === 404)
    return { error: `Print key: ${key.host} does not know this key; copy it again from your printer's page.` };
  const printer = "status" in reply ? printerFrom(reply.status, reply.body) : undefined;
  if (printer) return printer;
  if ("refused" in reply) console.warn(ownersFix(key, printKeys.allowed));
  const services = printKeys.allowed.map((entry) => new URL(entry.origin).host).join(", ");
  return {
    error:
      `Print key: this site cannot print to that key. It takes print keys from ${services || "no service yet"}, ` +
      "answering as a print key does (GET with Accept: application/json gives the printer's name as JSON); " +
      "copy yours again from your printer's page, or try again later.",
  };
}

/**
 * The server's log line for the site's owner when a key was refused by the
 * site's own list: the subscriber's page says only that the site cannot print
 * there (it tells nothing about hosts), so the owner learns here which origin
 * to list, and how. The origin only: the key's path is its secret.
 */
export function ownersFix(key: URL, allowed: readonly PrintKeyOrigin[]): string {
  const origin = key.origin;
  const privateEntry = `{"origin": "${origin}", "private": true}`;
  if (allowedPrintKeyOrigin(key, allowed))
    return (
      `subscribe: refused a print key on ${origin}: it is at a private address, and its entry in ` +
      `content/site.json's "print_key_origins" does not allow one; ` +
      `if that service is yours, write the entry as ${privateEntry}.`
    );
  // A list replaces the default one, so the owner is told what it holds now, to keep.
  const listed = allowed.map((entry) => entry.origin).join(", ") || "none";
  const literal = isAddressLiteral(key.hostname) && !isPublicAddress(key.hostname);
  const entry = literal ? privateEntry : `"${origin}"`;
  const orPrivate = literal ? "" : ` (or ${privateEntry} if it is on your own network)`;
  return (
    `subscribe: refused a print key on ${origin}: content/site.json's "print_key_origins" (now: ${listed}) ` +
    `does not list it; to take keys from that service, add ${entry} to that list${orPrivate}.`
  );
}

/**
 * The printer in a print key's JSON reply; undefined when the reply is not
 * such JSON. sirius answers 200 {"name", "owner", "status": "online" |
 * "offline"}; a 504 {"status": "failed-offline"} (what it answers a print to an
 * offline printer) also says the key is known and its printer offline, but not
 * its name. Offline is no reason to refuse: later deliveries print once the
 * printer is back.
 */
function printerFrom(status: number, body: Buffer): KeyPrinter | undefined {
  let answer: { name?: unknown; status?: unknown } | null;
  try {
    answer = JSON.parse(body.toString("utf8")) as typeof answer;
  } catch {
    // Not JSON: the caller tells the subscriber it is not a print key's answer (never what it held).
    return undefined;
  }
  if (typeof answer !== "object" || answer === null) return undefined;
  if (status === 504 && answer.status === "failed-offline") return { name: UNNAMED_PRINTER, offline: true };
  return status === 200 ? { name: printerName(answer.name), offline: answer.status === "offline" } : undefined;
}
