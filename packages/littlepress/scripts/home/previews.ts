// What an edition will look like on the paper, as the preview shows it: the
// next delivery's edition/ (its delivery_count and local_delivery_time, the
// subscription's settings), or a publication's sample/, asked through the
// checked fetch and rendered as the printer prints it (within the renders'
// turns on the server's Chromium, renders.ts), as a 1-bit PNG. Nothing is printed, and nothing is
// claimed or counted.
import iconv from "iconv-lite";
import { addDays } from "../../lib/model/dates.ts";
import { charsetOf, decodeHtml } from "../../lib/model/charset.ts";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { todayIn } from "../../lib/model/time-zones.ts";
import { askPrintKey } from "../../lib/platform/printers/print-key-client.ts";
import { RenderError } from "../preview/render.ts";
import { askEdition } from "./deliveries.ts";
import type { SubscriptionRow } from "./home-jobs.ts";
import type { HomeContext } from "./home-send.ts";
import { rendered } from "./renders.ts";

/** A picture, or why there is none, in words. */
export type Preview = { png: Buffer; said: string } | { said: string };

/** The next delivery's edition as it would print at `width` dots, asked at `at`. */
export async function nextEdition(ctx: HomeContext, row: SubscriptionRow, width: number, at: Date): Promise<Preview> {
  let date = todayIn(row.zone, at);
  if (localDeliveryTime(date, row.hour, row.zone).ms <= at.getTime()) date = addDays(date, 1);
  const time = localDeliveryTime(date, row.hour, row.zone);
  const asked = await askEdition(ctx, row, { localDeliveryTime: time.text, deliveryCount: row.delivery_count });
  const said = `the delivery of ${date} (delivery_count ${row.delivery_count}, local_delivery_time ${time.text})`;
  const { status, etag, error } = asked.answer;
  if (status === 204) return { said: `${said}: 204, nothing would print` };
  if (status === 410) return { said: `${said}: 410, the series is over` };
  if (status !== 200) return { said: `${said}: ${error ?? `edition/ answered ${status}`}` };
  if (etag && etag === row.last_etag) return { said: `${said}: the same ETag as the last one, so nothing would print` };
  const header = { at: new Date(time.ms), from: asked.name, timeZone: row.zone };
  return picture(ctx, asked.html ?? "", row.publication, width, header, said);
}

/** A publication's sample/ as it would print at 384 dots. */
export async function sample(ctx: HomeContext, base: URL, name: string): Promise<Preview> {
  const url = new URL("sample/", base);
  const reply = await askPrintKey(url, { method: "GET", headers: { Accept: "text/html" } }, ctx.policy());
  if (!("status" in reply)) return { said: `sample/ ${"refused" in reply ? reply.refused : reply.failed}` };
  if (reply.status !== 200) return { said: `it has no sample (sample/ answered ${reply.status})` };
  const html = decodeHtml(new Uint8Array(reply.body), charsetOf(reply.contentType), iconv);
  return picture(ctx, html, base.href, 384, { at: new Date(), from: name }, "its sample");
}

async function picture(
  ctx: HomeContext,
  html: string,
  origin: string,
  width: number,
  header: { at: Date; from: string; timeZone?: string },
  said: string,
): Promise<Preview> {
  const page = { bytes: new TextEncoder().encode(html), type: "text/html; charset=utf-8", from: header.from, origin };
  try {
    return { png: (await rendered(ctx, width, page, header)).picture, said };
  } catch (error) {
    if (error instanceof RenderError) return { said: `${said}: the page ${error.message}` };
    throw error;
  }
}
