// The end notice: when a subscription ends because its publication answered
// 410 (the series is over), the spec has the subscriber told so, and told that
// subscribing again starts from edition 0. On sirius that telling is one short
// printed slip: the publication's name, that it has ended, and its subscribe
// page's address. This file is the slip's page and the rules of its one
// delivery; lib/platform/delivering/end-notices.ts sends it.
//
// The notice lives on the subscription itself (Subscription.endNotice), written
// in the same store write that ends it: a subscription never ends without its
// notice being owed (or its absence said), whatever crashes after. Sending it
// is claimed, settled and retried like a delivery (delivery-record.ts), with the
// subscription's own conditional replace as the claim.
import { escapeHtml } from "./html-escape.ts";
import { jobNext, tryState, type PrintResult } from "./print-job.ts";

/**
 * Where a subscription's end notice stands:
 * - "due": owed (the series is over), not tried yet;
 * - "sending": a run has claimed it and is at work (or crashed: it is taken over once stale);
 * - "printed": the printer took the slip;
 * - "offline", "failed": the printer was offline (504), or the print key or the publication
 *   could not be reached; tried again by a later run, backing off as deliveries do;
 * - "unknown": the slip was sent and no answer came: it may have printed, so it is not sent again;
 * - "off": not printed: the publication's publication.json says `"end_notice": false`;
 * - "no-printer": not printed: the print key no longer exists (the print-key service said
 *   404), so there is no printer to print it on;
 * - "gave-up": not printed: MAX_ATTEMPTS tries failed.
 */
export type EndNoticeState =
  "due" | "sending" | "printed" | "offline" | "failed" | "unknown" | "off" | "no-printer" | "gave-up";

export interface EndNotice {
  state: EndNoticeState;
  /** When it last changed (ISO 8601); for "sending", when it was claimed. */
  at: string;
  /** Tries so far (claims made). */
  attempts: number;
  /** What happened, in words, for the desk and the log. */
  detail: string;
}

/** The notice a subscription ended by a 410 owes: one slip, not tried yet. */
export function owedNotice(at: Date): EndNotice {
  return { state: "due", at: at.toISOString(), attempts: 0, detail: "owed: the series is over (410)" };
}

/** The notice of a subscription ended because its print key no longer exists: none can be printed. */
export function noPrinterNotice(at: Date): EndNotice {
  return {
    state: "no-printer",
    at: at.toISOString(),
    attempts: 0,
    detail: "no end slip: the print key no longer exists (404), so there is no printer to print it on",
  };
}

/**
 * The notice a delivery that ended its subscription leaves: owed after a 410,
 * none possible after an unknown print key; undefined for a delivery that ended nothing.
 */
export function noticeAfter(record: { state: string }, at: Date): EndNotice | undefined {
  if (record.state === "ended") return owedNotice(at);
  if (record.state === "unknown-key") return noPrinterNotice(at);
  return undefined;
}

/**
 * What a run does with a notice at `at`: "claim" it (owed, a retry whose delay
 * is over, or a crashed run's stale claim), "give-up" (its tries are spent),
 * or "leave" it (settled, or not yet).
 */
export function noticeNext(notice: EndNotice | null | undefined, at: Date): "claim" | "give-up" | "leave" {
  if (!notice) return "leave"; // ended before notices were kept, or not by the run
  return jobNext(notice, at, "due");
}

/** The notice after its tries ran out. */
export function gaveUpNotice(notice: EndNotice, at: Date): EndNotice {
  const detail = `not printed: ${notice.attempts} tries failed (the last: ${notice.detail})`;
  return { ...notice, state: "gave-up", at: at.toISOString(), detail };
}

/** The notice of a publication that turned the slip off. */
export function offNotice(notice: EndNotice, at: Date): EndNotice {
  const detail = 'no end slip: the publication turns it off ("end_notice": false)';
  return { ...notice, state: "off", at: at.toISOString(), detail };
}

/** The claimed notice after the print key answered the slip's POST (or could not be asked). */
export function settleNotice(claimed: EndNotice, print: PrintResult, at: Date): EndNotice {
  const settled = (state: EndNoticeState, detail: string): EndNotice => ({
    ...claimed,
    state,
    at: at.toISOString(),
    detail,
  });
  const { state, detail } = tryState(print);
  if (state === "printed") return settled(state, "the end slip was sent to the printer");
  if (state === "unknown-key")
    return settled("no-printer", "no end slip: the print key is unknown (404), so there is no printer to print it on");
  if (state === "unknown") return settled(state, detail);
  return settled(state, `${detail}; tried again by a later run`);
}

/**
 * The slip: a short page in the shape sirius prints (its own page wraps it, so
 * the style is inline and the text no smaller than 20 px), saying that
 * `name` has ended and where to subscribe again. Both are escaped. Its <body>
 * sets no margin: pasted into sirius's body, its attributes go onto that body,
 * and a margin there would cancel sirius's 80 px of paper after the last line
 * (it did: the last line printed 4 px from the tear).
 */
export function endNoticePage(name: string, subscribeUrl: string): string {
  const n = escapeHtml(name);
  const url = escapeHtml(subscribeUrl);
  return (
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>${n} has ended</title></head>\n` +
    `<body style="background:#fff;color:#000;font-family:Helvetica,Arial,sans-serif;` +
    `font-size:24px;line-height:1.3">\n` +
    `<h1 style="font-size:32px;margin:0 0 12px">${n}</h1>\n` +
    `<p style="margin:0 0 12px">This subscription has ended: the series is over, and nothing more will print.</p>\n` +
    `<p style="margin:0 0 4px">To subscribe again, from the first edition:</p>\n` +
    `<p style="margin:0;font-size:20px;overflow-wrap:anywhere">${url}</p>\n` +
    `</body></html>\n`
  );
}
