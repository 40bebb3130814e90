// npm run sirius: a local stand-in for sirius (nordprojects/sirius), the
// print-key service Little Printers are served by today, so that an author can
// subscribe and deliver end to end without a printer. It answers print keys
// as sirius/web/print_key_api.py does, and instead of sending a print to a
// printer writes it as the 1-bit PNG the printer would print: sirius's page,
// 384 px wide in sirius's own browser, PhantomJS 2.1.1 with sirius's fonts,
// cut at 10,000 px, dithered as PIL does (the preview's pipeline:
// preview/phantom.ts, preview/print-image.ts). A
// print's images load as on sirius, from public addresses, and from the
// author's own local site (--site, npm start's address by default), whose
// images a local build links at a loopback address; no other private address.
//
// It answers as sirius does (platform.md, "How sirius renders and answers"):
// only once the page is rendered, one print at a time (sirius runs one
// gunicorn worker), so every print waits for those before it and answers
// slow down as more come at once; a client that hangs up does not stop the
// render, which is written all the same. A print that cannot be rendered is
// still answered 200 (sirius's PhantomJS prints what it got): the terminal
// says why it has no image.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, open, readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { printKeyOriginsFrom } from "../lib/model/print-key.ts";
import { PRINTER_NAME_LENGTH, printerName, shownLine } from "../lib/model/printer-name.ts";
import { escapeHtml } from "../lib/model/html-escape.ts";
import { charsetOf, isUtf8 } from "../lib/model/charset.ts";
import { answerUsage, listenPort, parseToolArgs, processOutput, runTool, stopOnSignals, type Output } from "./cli.ts";
import { firstLine } from "./preview/errors.ts";
import { printImage } from "./preview/print-image.ts";
import { MAX_HEIGHT, RenderError } from "./preview/render.ts";
import { PHANTOM_TIMEOUT_MS, PhantomRenderer } from "./preview/phantom.ts";

export const DEFAULT_PORT = 9100;
export const DEFAULT_OUT = ".littlepress/prints";
/**
 * Where a print's images may load from at a private address: `npm start`'s own
 * address, which a local build's images link to. Real sirius loads a deployed
 * site's images from the internet; the stand-in, on this machine, loads the
 * local site's too, and no other private address unless --site names it.
 */
export const DEFAULT_SITES: readonly string[] = ["http://127.0.0.1:8080"];
/** The largest body taken; an edition is a few kilobytes, an image a few hundred. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** How many prints may wait for the browser; past that a print is answered 503 (busy) and not taken. */
export const MAX_WAITING = 200;
/** The default printer, kept in the --out folder so that its key is the same from one run to the next. */
export const DEFAULT_PRINTER_FILE = "printer.json";
const DEFAULT_PRINTER_NAME = "Kitchen";
/** The print keys the kit takes (lib/model/print-key.ts parsePrintKeyUrl), and not too long to read. */
const KEY = /^[A-Za-z0-9_-]{1,64}$/;

export const USAGE = `Usage: npm run sirius [-- options]

A local stand-in for sirius, the print-key service of Little Printers, on
http://127.0.0.1:${DEFAULT_PORT}/. It answers print keys as sirius does, and writes
each print as the 1-bit PNG a Little Printer would print (sirius's page, 384 px
wide, cut at 10,000 px, dithered), with one line a print in the terminal. As
sirius does, it answers a print only once it has rendered it, one print at a
time, in PhantomJS 2.1.1 (sirius's browser, from node_modules): prints sent
together are answered one after another. SIGTERM or Ctrl+C stops it.

List it in content/site.json's print_key_origins as
{"origin": "http://127.0.0.1:${DEFAULT_PORT}", "private": true}, subscribe with
the print key it shows, then run npm run deliver.

  GET  /printkey/<key>   {"name", "owner", "status"} (Accept: application/json)
  POST /printkey/<key>?from=<sender>
                         text/html, other text/* (printed as text), image/*,
                         or application/json with "html" or "text": 200
                         {"status": "sent"}; 504 {"status": "failed-offline"}
                         for an offline printer; 404 for an unknown key; 415
                         for another type; 413 past ${MAX_BODY_BYTES / 1024 / 1024} MiB

Options:
  --host <address>      listen on this address (default 127.0.0.1)
  --port <n>            listen on this port (default ${DEFAULT_PORT}; 0 picks a free one)
  --out <dir>           write the prints here (default ${DEFAULT_OUT}/)
  --printer <key>=<name>
                        a printer with this print key (letters, digits, _ and -);
                        repeat for more. Default: one printer, "${DEFAULT_PRINTER_NAME}", whose
                        key is made once and kept in <out>/${DEFAULT_PRINTER_FILE}
  --offline <key>       this printer is offline: its prints answer 504 (repeatable)
  --site <origin>       a site of yours whose images a print may load even at a
                        private address (repeatable; default ${DEFAULT_SITES.join(", ")},
                        npm start's); other private addresses are never asked
  -h, --help            show this text

Example:
  npm run sirius -- --printer 7Hk2pQx9=Kitchen --printer Zq81mWc3=Office --offline Zq81mWc3`;

const OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  out: { type: "string" },
  printer: { type: "string", multiple: true },
  offline: { type: "string", multiple: true },
  site: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

export interface LocalPrinter {
  key: string;
  name: string;
  online: boolean;
}

export interface SiriusOptions {
  /** Where the prints are written (made when missing). */
  out: string;
  port?: number;
  host?: string;
  /** Default: one printer, "Kitchen", its key kept in <out>/printer.json. */
  printers?: LocalPrinter[];
  /** Where each line goes (a print, a refusal), without its newline. */
  log?: (line: string) => void;
  /** How long a page may take to load, and then to be captured. */
  timeoutMs?: number;
  /** Origins of the user's own sites, whose images load even at a private address (default: DEFAULT_SITES). */
  sites?: readonly string[];
  /** The clock of sirius's header line (default: the time a print arrives); a bench fixes it to compare prints. */
  now?: () => Date;
}

export interface LocalSirius {
  /** http://<host>:<port>, as a print key starts. */
  url: string;
  printers: LocalPrinter[];
  keyUrl(key: string): string;
  /** Resolves once every print accepted so far is written or given up. */
  idle(): Promise<void>;
  /** Stops taking requests, gives up the prints not yet begun, and stops the renderer. */
  close(): Promise<void>;
}

/** A print accepted, waiting for its image. */
interface Job {
  printer: LocalPrinter;
  from: string;
  html: string;
  at: Date;
  notes: string[];
  /** Called once its image is written or could not be (true), or once it is dropped, never begun (false). */
  done: (taken: boolean) => void;
}

export async function startSirius(options: SiriusOptions): Promise<LocalSirius> {
  const { out, host = "127.0.0.1", timeoutMs = PHANTOM_TIMEOUT_MS, sites = DEFAULT_SITES } = options;
  const now = options.now ?? (() => new Date());
  const say = options.log ?? ((line: string) => console.log(line));
  // A line names what publications and print-key holders chose (a name, a "from", a page's error): made inert.
  const log = (line: string) => say(shownLine(line));
  await mkdir(out, { recursive: true });
  const printers = options.printers ?? [await defaultPrinter(out)];
  const byKey = new Map(printers.map((p) => [p.key, p]));

  // The renderer starts on the first print and serves every later one (one PhantomJS a print, as sirius runs it).
  let renderer: Promise<PhantomRenderer> | undefined;
  const ready = () => {
    renderer ??= PhantomRenderer.open({ timeoutMs }).catch((error: unknown) => {
      renderer = undefined; // tried again on the next print
      throw error;
    });
    return renderer;
  };

  const queue: Job[] = [];
  let working: Promise<void> | undefined;
  let stopping = false;
  const printOne = async (job: Job) => {
    const head = `${clock(job.at)}  ${job.printer.name}  from ${JSON.stringify(job.from)}`;
    try {
      const header = { at: job.at, from: job.from, fromAsSent: true };
      const render = await (await ready()).renderHtml(job.html, header, { ownSites: sites });
      const png = await printImage(render.png);
      const file = await writeUnique(out, fileStem(job.at, job.from), png);
      const cut = render.heightPx > MAX_HEIGHT ? ` (cut at ${MAX_HEIGHT})` : "";
      log(`${head}  ${render.heightPx} px${cut}  ${shownPath(file)}`);
      if (render.relative.length)
        job.notes.push(
          `relative URLs load nothing on the printer (it opens the page from a file): ${list(render.relative)}`,
        );
      if (render.blocked.length) job.notes.push(`not loaded: ${list(render.blocked)}`);
      if (render.wider) job.notes.push("wider than the paper: the printer prints its left 384 px");
    } catch (error) {
      const why = error instanceof RenderError ? `the page ${error.message}` : firstLine(error);
      log(`${head}  not rendered: ${why}`);
    }
    for (const note of job.notes) log(`          ${note}`);
    job.done(true);
  };
  const work = async () => {
    while (queue.length) await printOne(queue.shift()!);
  };
  /** Queues a print: resolves once it is rendered (true), or dropped (false); undefined when too many wait already. */
  const enqueue = (job: Omit<Job, "done">): Promise<boolean> | undefined => {
    if (queue.length >= MAX_WAITING) {
      log(
        `${clock(job.at)}  ${job.printer.name}  from ${JSON.stringify(job.from)}  not taken: ` +
          `${MAX_WAITING} prints are waiting already (answered 503)`,
      );
      return undefined;
    }
    const rendered = new Promise<boolean>((done) => queue.push({ ...job, done }));
    working ??= work().finally(() => (working = undefined));
    return rendered;
  };

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      log(`${clock(new Date())}  internal error: ${firstLine(error)}`);
      if (!res.headersSent) json(res, 500, { error: "Internal Server Error" }, true);
      else res.destroy();
    });
  });

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const at = now();
    const url = new URL(req.url ?? "/", "http://sirius.invalid");
    const m = /^\/printkey\/([^/]+)$/.exec(url.pathname);
    const key = m ? safeDecode(m[1]!) : undefined;
    const printer = key === undefined ? undefined : byKey.get(key);
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (!printer || (req.method !== "GET" && req.method !== "POST")) {
      // The body is not read: the connection ends after the answer.
      if (m && !printer) log(`${clock(at)}  ${req.method ?? "?"} of an unknown print key: answered 404`);
      return json(res, printer ? 405 : 404, { error: printer ? "Method Not Allowed" : "Not Found" }, hasBody);
    }
    if (req.method === "GET") {
      const info = { name: printer.name, owner: "local", status: printer.online ? "online" : "offline" };
      if (quality(req.headers.accept, "text/html") > quality(req.headers.accept, "application/json")) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ...(hasBody ? { Connection: "close" } : {}) });
        return void res.end(printerPage(info));
      }
      log(`${clock(at)}  ${printer.name}  gave its name (the key was checked, as a subscribe page does)`);
      return json(res, 200, info, hasBody);
    }

    // sirius names a print sent without `from` by the start of its key.
    const from = printerName(url.searchParams.get("from") || `Key ${key!.slice(0, 4)}`);
    const head = `${clock(at)}  ${printer.name}  from ${JSON.stringify(from)}`;
    const body = await readCapped(req, MAX_BODY_BYTES);
    if (body === "gone") return;
    if (body === "too-large") {
      log(`${head}  refused: the body is over ${MAX_BODY_BYTES / 1024 / 1024} MiB (413)`);
      return json(res, 413, { error: "Payload Too Large" }, true);
    }
    const contentType = req.headers["content-type"] ?? "";
    const page = printable(contentType, body);
    if ("status" in page) {
      log(`${head}  refused: ${page.why} (${page.status})`);
      return json(res, page.status, page.answer);
    }
    if (!printer.online) {
      log(`${head}  offline: answered 504, nothing printed`);
      return json(res, 504, { status: "failed-offline" });
    }
    if (stopping) return json(res, 503, { error: "Service Unavailable" });
    const notes: string[] = [];
    const charset = charsetOf(contentType);
    if (page.text && charset && !isUtf8(charset))
      notes.push(`sirius reads every body as UTF-8: this one says charset=${charset}, and may print wrong`);
    const rendered = enqueue({ printer, from, html: page.html, at, notes });
    if (!rendered) return json(res, 503, { error: "Service Unavailable" });
    // Answered once rendered, as sirius answers; a client that left meanwhile finds the print made all the same.
    const taken = await rendered;
    if (!res.destroyed) json(res, taken ? 200 : 503, taken ? { status: "sent" } : { error: "Service Unavailable" });
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const url = `http://${urlHost(host, server.address() as AddressInfo)}`;

  const idle = async () => {
    // A print accepted while the last one rendered makes a new round of work.
    for (let round = working; round; round = working) await round;
  };
  return {
    url,
    printers,
    keyUrl: (k) => `${url}/printkey/${k}`,
    idle,
    close: async () => {
      stopping = true;
      const dropped = queue.splice(0);
      for (const job of dropped) {
        log(`${clock(job.at)}  ${job.printer.name}  from ${JSON.stringify(job.from)}  not rendered: stopped`);
        job.done(false);
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), 2_000);
      await closed;
      clearTimeout(cut);
      await idle();
      const started = renderer;
      renderer = undefined;
      await (await started?.catch(() => undefined))?.close();
    },
  };
}

/** The printer used when none is named: its key is made once and kept in the output folder. */
async function defaultPrinter(out: string): Promise<LocalPrinter> {
  const file = path.join(out, DEFAULT_PRINTER_FILE);
  if (existsSync(file)) {
    const kept = await readFile(file, "utf8")
      .then((text) => JSON.parse(text) as { key?: unknown; name?: unknown } | null)
      .catch(() => null);
    if (typeof kept?.key !== "string" || !KEY.test(kept.key))
      throw new Error(`${file} does not hold a printer's key and name; remove it to have a new key made`);
    return { key: kept.key, name: printerName(kept.name), online: true };
  }
  const printer = { key: randomBytes(6).toString("base64url"), name: DEFAULT_PRINTER_NAME, online: true };
  await writeFile(file, JSON.stringify({ key: printer.key, name: printer.name }, null, 2) + "\n");
  return printer;
}

/** What a POST's body prints, as sirius makes HTML of it; or its refusal. */
function printable(
  contentType: string,
  body: Buffer,
): { html: string; text: boolean } | { status: number; answer: object; why: string } {
  const mimetype = contentType.split(";")[0]!.trim().toLowerCase();
  // werkzeug 0.15's get_data(as_text=True): UTF-8 whatever the charset, bad bytes replaced.
  const text = () => body.toString("utf8");
  if (mimetype === "text/html") return { html: text(), text: true };
  if (mimetype.startsWith("image/")) {
    const uri = `data:${contentType};base64,${body.toString("base64")}`;
    return { html: `<img src="${escapeHtml(uri)}" style="width: 100%">`, text: false };
  }
  if (mimetype.startsWith("text/")) return { html: plainText(text()), text: true };
  if (mimetype === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(text());
    } catch {
      return { status: 400, answer: { error: "Bad Request" }, why: "the body is not valid JSON" };
    }
    const object = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
    if (typeof object.html === "string") return { html: object.html, text: false };
    if (typeof object.text === "string") return { html: plainText(object.text), text: false };
    // sirius answers this with a 200 that prints nothing (flask.abort of a JSON response).
    return {
      status: 200,
      answer: { message: 'json requests must have "html" or "text"' },
      why: 'JSON without "html" or "text", nothing printed',
    };
  }
  return {
    status: 415,
    answer: { error: "Unsupported Media Type" },
    why: `${JSON.stringify(printerName(mimetype || "no type"))} is not a type sirius prints`,
  };
}

/** sirius's html_for_plain_text. */
const plainText = (text: string) => `<div style="white-space: pre-wrap">${escapeHtml(text)}</div>`;

/** The page a browser gets for a print key (sirius shows the printer and how to print to it). */
function printerPage(info: { name: string; owner: string; status: string }): string {
  return `<!DOCTYPE html>
<html lang="en"><meta charset="utf-8"><title>${escapeHtml(info.name)}</title>
<h1>${escapeHtml(info.name)}</h1>
<p>A printer on the local stand-in for sirius (npm run sirius). POST HTML to this URL to print it.</p>
<pre>${escapeHtml(JSON.stringify(info, null, 2))}</pre>
`;
}

/**
 * How much a client's Accept header wants `type` (0 to 1), from the most
 * specific range that matches it. No header wants nothing in particular, so
 * sirius, which sends HTML only when it is preferred to JSON, sends JSON.
 */
export function quality(accept: string | undefined, type: string): number {
  const [major] = type.split("/");
  let best = { specificity: -1, q: 0 };
  for (const part of (accept ?? "").split(",")) {
    const [range = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === "*/*" ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { specificity, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 };
  }
  return best.q;
}

/**
 * The body, at most `max` bytes: a larger one (declared or sent) is not read
 * on; "gone" when the client hung up first.
 */
function readCapped(req: IncomingMessage, max: number): Promise<Buffer | "too-large" | "gone"> {
  if (Number(req.headers["content-length"] ?? 0) > max) return Promise.resolve("too-large");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Buffer | "too-large" | "gone") => {
      req.off("data", data).off("end", end).off("close", close);
      if (result === "too-large") req.pause();
      resolve(result);
    };
    const data = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) return done("too-large");
      chunks.push(chunk);
    };
    const end = () => done(Buffer.concat(chunks));
    const close = () => done(req.readableEnded ? Buffer.concat(chunks) : "gone");
    req.on("data", data).once("end", end).once("close", close);
  });
}

/** A JSON answer; `close` ends the connection after it (a body was left unread). */
function json(res: ServerResponse, status: number, value: unknown, close = false): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    ...(close ? { Connection: "close" } : {}),
  });
  res.end(body);
}

/** Writes `png` as <stem>.png, or <stem>-2.png and on when a print of the same second is there. */
async function writeUnique(dir: string, stem: string, png: Buffer): Promise<string> {
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${stem}${n === 1 ? "" : `-${n}`}.png`);
    try {
      const handle = await open(file, "wx");
      try {
        await handle.writeFile(png);
      } finally {
        await handle.close();
      }
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || n >= 1000) throw error;
    }
  }
}

/** A print's file name: when it came (this machine's time) and who sent it, 2026-11-24-070500-good-morning. */
export function fileStem(at: Date, from: string): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const day = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  const time = `${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
  const sender = from
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return `${day}-${time}-${sender || "print"}`;
}

const clock = (at: Date) => at.toTimeString().slice(0, 8);

const list = (items: string[]) =>
  items.length > 3 ? `${items.slice(0, 3).join(", ")} and ${items.length - 3} more` : items.join(", ");

/** A path as the author would type it: relative to where the command runs, when it is under it. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : path.resolve(file);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The host as a print key URL names it: every-interface addresses by the loopback one, IPv6 in brackets. */
function urlHost(host: string, address: AddressInfo): string {
  const name = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `${name.includes(":") ? `[${name}]` : name}:${address.port}`;
}

/** The printers --printer and --offline name, or what is wrong with them. */
export function printersFrom(
  specs: string[] | undefined,
  offline: string[] | undefined,
): { printers?: LocalPrinter[] } | { problem: string } {
  const printers: LocalPrinter[] = [];
  for (const spec of specs ?? []) {
    const at = spec.indexOf("=");
    const key = at < 0 ? spec : spec.slice(0, at);
    const name = at < 0 ? "" : spec.slice(at + 1).trim();
    if (!KEY.test(key))
      return {
        problem: `--printer takes <key>=<name>, the key of letters, digits, _ and - (at most 64), not "${spec}"`,
      };
    if (!name || name.length > PRINTER_NAME_LENGTH)
      return { problem: `--printer ${key}= needs a name of at most ${PRINTER_NAME_LENGTH} characters` };
    if (printers.some((p) => p.key === key)) return { problem: `--printer ${key} is given twice` };
    printers.push({ key, name: printerName(name), online: true });
  }
  for (const key of offline ?? []) {
    const printer = printers.find((p) => p.key === key);
    if (!printer) return { problem: `--offline ${key} names no printer given with --printer` };
    printer.online = false;
  }
  return printers.length ? { printers } : {};
}

export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("sirius", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { values } = parsed;
  const listen = listenPort(values.port ?? String(DEFAULT_PORT));
  const chosen = printersFrom(values.printer, values.offline);
  const usage = (problem: string) => (out.stderr(`sirius: ${problem}; see --help\n`), 2);
  if ("problem" in listen) return usage(listen.problem);
  if ("problem" in chosen) return usage(chosen.problem);
  const sites = values.site && printKeyOriginsFrom(values.site);
  if (sites?.problems.length)
    return usage(`--site takes an origin such as http://127.0.0.1:8080 (${sites.problems[0]})`);
  const dir = values.out ?? DEFAULT_OUT;
  let sirius: LocalSirius;
  try {
    sirius = await startSirius({
      out: dir,
      host: values.host ?? "127.0.0.1",
      port: listen.port,
      printers: chosen.printers,
      ...(sites && { sites: sites.origins.map((site) => site.origin) }),
      log: (line) => out.stdout(`${line}\n`),
    });
  } catch (error) {
    out.stderr(`sirius: cannot start: ${firstLine(error)}\n`);
    return 1;
  }
  out.stdout(`sirius: a local stand-in for sirius on ${sirius.url}/; prints go to ${dir}/ (Ctrl+C stops)\n`);
  for (const p of sirius.printers)
    out.stdout(
      `  printer ${JSON.stringify(p.name)}${p.online ? "" : " (offline)"}: print key ${sirius.keyUrl(p.key)}\n`,
    );
  stopOnSignals(() => sirius.close());
  return 0;
}

runTool("sirius", import.meta.url, main);
