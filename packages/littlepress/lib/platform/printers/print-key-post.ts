// The one way a page reaches a subscriber's printer: POSTed to its print key,
// opened with the deploy's sealing key, through the print-key client (its
// allow-list and limits), and the print key's answer read as sirius gives it.
// Deliveries, end slips and push editions all print through here, each as a
// print job (lib/platform/printing/print-job.ts), which bounds the POST by the
// run's time left: sirius answers only once it has rendered the page.
import { DELIVERY_TIMEOUT_MS } from "../../model/run-budget.ts";
import { openPrintKey } from "../../model/print-key.ts";
import { printUrl } from "../../model/print-url.ts";
import type { PrintResult } from "../../model/print-job.ts";
import type { Subscription } from "../../model/subscription.ts";
import { askPrintKey, type PrintKeyPolicy } from "./print-key-client.ts";
import { utf8Page } from "./utf8-page.ts";

/** What POSTing to a print key needs: the deploy's sealing key, which opens it, and the print-key policy. */
export interface PrintKeyAccess {
  sealKey: Buffer;
  printKeys: PrintKeyPolicy;
}

/**
 * The print service a subscription's print key is at (its origin), whose
 * in-flight limit its pages wait for; "" when the key cannot be opened (its
 * POST fails at once, and says why).
 */
export function printService(sub: Pick<Subscription, "printKey">, sealKey: Buffer): string {
  try {
    return openPrintKey(sub.printKey, sealKey).origin;
  } catch {
    return "";
  }
}

/**
 * POSTs a page (an edition, an end slip, a push edition) to the print key, as
 * sirius takes it, from the publication `from`, through the print-key client.
 */
export async function postToPrinter(
  o: PrintKeyAccess & { timeoutMs?: number },
  sub: Pick<Subscription, "printKey">,
  page: { bytes: ArrayBuffer | Uint8Array; type: string },
  from: string,
): Promise<PrintResult> {
  let key: URL;
  try {
    key = openPrintKey(sub.printKey, o.sealKey);
  } catch {
    // The decipher's error names no cause a person can act on; this does, and never shows the key.
    return { error: "the print key cannot be opened with this deploy's key (LITTLEPRESS_SEAL_KEY changed?)" };
  }
  const sent = await utf8Page(page); // sirius reads every body as UTF-8
  const reply = await askPrintKey(
    printUrl(key, from),
    { method: "POST", headers: { "Content-Type": sent.type }, body: new Uint8Array(sent.bytes) },
    // Within the bound the print job gives it (the run's time left), which its time budget counts on.
    { ...o.printKeys, timeoutMs: Math.min(o.printKeys.timeoutMs ?? Infinity, o.timeoutMs ?? DELIVERY_TIMEOUT_MS) },
  );
  // The reasons name no URL: a print key is a secret.
  if ("refused" in reply) return { error: `the print key was not sent to: ${reply.refused}` };
  // Sent whole and never answered: sirius may be rendering it still (it goes on when a client hangs up).
  if ("failed" in reply && reply.unanswered)
    return { unknown: `sent, then the print key ${reply.failed} before it answered in full` };
  if ("failed" in reply) return { error: `the print key ${reply.failed}` };
  if (reply.status === 200) return "sent";
  if (reply.status === 504) return "offline";
  if (reply.status === 404) return "unknown-key";
  return { error: `the print key answered ${reply.status}` };
}
