// PhantomJS's only way out. PhantomJS cannot be handed an answer from here,
// as Chromium's routes can, so its page script sends every http(s) request of
// a page to this server instead (phantom-script.ts), as
// http://127.0.0.1:<port>/<render's token>?u=<the URL>, and PhantomJS is
// started with this server as its HTTP proxy too: whatever the script does not
// see (a WebSocket, which QtWebKit opens as a tunnel through the proxy) reaches
// here and is closed. A URL is answered only as the render's AssetLoader
// allows (assets.ts): the status, its type and its body, never a Location, so
// a redirect leads nowhere; with the page's policy, so that a document loaded
// here (an SVG, say) opens no connection either. Everything else is refused and
// written down.
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { getMimeType } from "hono/utils/mime";
import type { AssetLoader } from "./assets.ts";
import { PAGE_POLICY } from "./phantom-policy.ts";

/** One render's side of the gate: what it may load, and what it was refused. */
interface Admission {
  loader: AssetLoader;
  blocked: string[];
}

export class PhantomGate {
  private readonly admissions = new Map<string, Admission>();

  private constructor(
    private readonly server: Server,
    /** http://127.0.0.1:<port>: PhantomJS's proxy. */
    readonly address: string,
  ) {}

  static async open(): Promise<PhantomGate> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const gate = new PhantomGate(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      gate.answer(req, res).catch(() => res.destroy());
    });
    // A tunnel (a WebSocket, an https:// the script did not see) or an upgrade: closed, and written down.
    const refuse = (req: IncomingMessage, socket: Duplex) => {
      gate.stray(req.url ?? "");
      socket.destroy();
    };
    server.on("connect", refuse);
    server.on("upgrade", refuse);
    return gate;
  }

  /** Lets one render through as `loader` allows; returns the prefix its requests go to, and a way to close it. */
  admit(loader: AssetLoader): { prefix: string; blocked: string[]; close: () => void } {
    const token = randomBytes(12).toString("hex");
    const admission = { loader, blocked: [] };
    this.admissions.set(token, admission);
    return {
      prefix: `${this.address}/${token}?u=`,
      blocked: admission.blocked,
      close: () => this.admissions.delete(token),
    };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Through the proxy the path is a whole URL; straight to the server, a path alone.
    const asked = new URL(req.url ?? "/", this.address);
    const admission = asked.origin === this.address ? this.admissions.get(asked.pathname.slice(1)) : undefined;
    const target = asked.searchParams.get("u");
    if (!admission || target === null || req.method !== "GET") {
      this.stray(target ?? req.url ?? "");
      return void res.writeHead(403, { Connection: "close" }).end();
    }
    const reply = await admission.loader.get(target, req.headers.accept);
    if (!reply) {
      admission.blocked.push(target);
      return void res.writeHead(403).end();
    }
    res.setHeader("Content-Security-Policy", PAGE_POLICY);
    if ("path" in reply) {
      res.writeHead(200, { "Content-Type": getMimeType(reply.path) ?? "application/octet-stream" });
      return void createReadStream(reply.path)
        .on("error", () => res.destroy())
        .pipe(res);
    }
    res.writeHead(reply.status, reply.headers).end(reply.body);
  }

  /** A request that named no render, or went round the script: every render that is on now hears of it. */
  private stray(url: string): void {
    for (const admission of this.admissions.values()) admission.blocked.push(url.slice(0, 2000));
  }
}
