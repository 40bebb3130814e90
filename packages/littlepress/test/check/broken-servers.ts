// Test helpers for the checker: a small, correct fake publication served by
// node:http on 127.0.0.1, and the means to break exactly one thing about it.
// Each test starts from goodPublication() and swaps one part, so a failing
// check can only come from that one flaw.
import { createServer, type IncomingMessage } from "node:http";
import { deflateSync } from "node:zlib";

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface FakePublication {
  meta: Record<string, unknown>;
  /** Raw meta.json text instead of JSON.stringify(meta): for broken JSON. */
  metaText?: string;
  metaContentType: string;
  /** icon.png bytes; undefined answers 404. */
  icon?: Uint8Array;
  /** The validate_config/ answer for a posted config; `contentType` tells form-encoded from multipart. */
  validate(config: Record<string, unknown>, contentType: string): unknown;
  edition(query: URLSearchParams): FakeAnswer | Promise<FakeAnswer>;
  /** What /edition (no slash) does; by default the same as /edition/. */
  noSlash?: (query: URLSearchParams) => FakeAnswer;
  /** Answers any path before the normal routes do, when it returns an answer. */
  route?: (path: string) => FakeAnswer | undefined;
}

export interface RunningFake {
  /** The publication's base URL, ending in "/pub/". */
  url: string;
  close(): Promise<void>;
}

export const FAKE_META = {
  owner_email: "owner@example.com",
  publication_api_version: "1.0",
  name: "Fake",
  description: "A <strong>fake</strong> publication",
  delivered_on: "Every day",
  send_timezone_info: true,
  send_delivery_count: true,
  external_configuration: false,
  config: {
    fields: [
      {
        type: "select",
        name: "lang",
        label: "Language",
        options: [
          ["English", "en"],
          ["French", "fr"],
        ],
      },
      { type: "text", name: "name", label: "Your name" },
    ],
  },
};

/** Validation as the spec wants it: lang among its options, name a short text, nothing else. */
export function validateFake(config: Record<string, unknown>): { valid: boolean; errors?: string[] } {
  const errors: string[] = [];
  if (config.lang !== "en" && config.lang !== "fr") errors.push("Language: choose English or French.");
  if (config.name !== undefined && (typeof config.name !== "string" || config.name.length > 20))
    errors.push("Your name: at most 20 letters.");
  for (const key of Object.keys(config)) if (key !== "lang" && key !== "name") errors.push(`Unknown setting "${key}".`);
  return errors.length ? { valid: false, errors } : { valid: true };
}

export const html = (status: number, body: string, etag: string): FakeAnswer => ({
  status,
  body,
  headers: { "Content-Type": "text/html; charset=utf-8", ETag: etag },
});
const empty = (status: number): FakeAnswer => ({ status });

/**
 * A finite serial keyed by delivery_count: parts 0 and 1 differ, 2 is a gap
 * (204), 3 to 7 print the same words, 8 on is the end (410). The ETag is the
 * count plus the local date, so same-looking days still print.
 */
export function fakeEdition(query: URLSearchParams): FakeAnswer {
  const count = Number(query.get("delivery_count") ?? 0);
  const given = query.get("local_delivery_time")?.match(/^\d{4}-\d{2}-\d{2}/)?.[0];
  const date = given ?? "2026-01-01";
  if (count === 2) return empty(204);
  if (count >= 8) return empty(410);
  const words = count < 2 ? `Part ${count} for ${escapeHtml(query.get("name") ?? "friend")}.` : "Same words.";
  return html(200, `<!doctype html><p>${words}</p>`, `"${count}-${date}"`);
}

export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function goodPublication(): FakePublication {
  return {
    meta: structuredClone(FAKE_META),
    metaContentType: "application/json",
    icon: makePng(55, 55),
    validate: validateFake,
    edition: fakeEdition,
  };
}

export async function startFake(pub: FakePublication): Promise<RunningFake> {
  const server = createServer((req, res) => {
    answer(pub, req).then(
      ({ status, headers, body }) => res.writeHead(status, headers).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/pub/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Raw = { status: number; headers?: Record<string, string>; body?: string | Uint8Array };

async function answer(pub: FakePublication, req: IncomingMessage): Promise<Raw> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const override = pub.route?.(url.pathname);
  if (override) return override;
  switch (url.pathname) {
    case "/pub/meta.json":
      return {
        status: 200,
        headers: { "Content-Type": pub.metaContentType },
        body: pub.metaText ?? JSON.stringify(pub.meta),
      };
    case "/pub/icon.png":
      return pub.icon ? { status: 200, headers: { "Content-Type": "image/png" }, body: pub.icon } : { status: 404 };
    case "/pub/edition/":
      return pub.edition(url.searchParams);
    case "/pub/edition":
      return (pub.noSlash ?? pub.edition)(url.searchParams);
    case "/pub/validate_config/":
      return {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(pub.validate(await postedConfig(req), req.headers["content-type"] ?? "")),
      };
    default:
      return { status: 404 };
  }
}

/** The `config` field of a form-encoded or multipart post, parsed as the platform's JSON. */
async function postedConfig(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = await new Request("http://x/", {
    method: "POST",
    headers: { "content-type": req.headers["content-type"] ?? "" },
    body: Buffer.concat(chunks),
  }).formData();
  const config = form.get("config");
  // a file posted as `config` is not the platform's JSON text: read as no config, like a missing field
  return JSON.parse(typeof config === "string" ? config : "{}") as Record<string, unknown>;
}

/**
 * A real, minimal black-and-white PNG of the given size (1-bit grayscale):
 * vertical stripes, 4 pixels black, 4 white, unless `fill` makes it blank.
 */
export function makePng(
  width: number,
  height: number,
  fill: "stripes" | "black" | "white" | "grey stripes" = "stripes",
): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  // Greyscale, deflate, no filter, no interlace; 1 bit a pixel (1 is white), or 8 for the greys.
  const grey = fill === "grey stripes";
  ihdr.set([grey ? 8 : 1, 0, 0, 0, 0], 8);
  const stride = 1 + (grey ? width : Math.ceil(width / 8)); // filter byte + the row's pixels
  const rows = Buffer.alloc(height * stride, { stripes: 0x0f, black: 0x00, white: 0xff, "grey stripes": 0 }[fill]);
  for (let y = 0; y < height; y++) {
    rows[y * stride] = 0; // filter type 0 on every row
    // Stripes of mid-greys, 4 pixels of 110, 4 of 160: a picture that prints only as dither patterns.
    if (grey) for (let x = 0; x < width; x++) rows[y * stride + 1 + x] = x % 8 < 4 ? 110 : 160;
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
