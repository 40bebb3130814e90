// A stand-in for Netlify Blobs' edge API, for the state store's contract tests.
//
// Why not Netlify's own local server (`BlobsServer` from @netlify/blobs/server,
// the same code in 10.7.13 and in the newest, 11.1.1, which needs Node 22)?
// It does not keep the promises the kit relies on: a read answers no ETag (so
// there is no version to replace from), a conditional write checks and then
// writes in two separate steps (two writers can both pass the check), and its
// ETag is a hash of the file's modification time (two writes within one
// millisecond get the same ETag). test/unit/state-store.test.ts shows each.
//
// What this stand-in does instead is what Netlify's documentation promises
// (the @netlify/blobs README and the types' doc comments of `set`/`setJSON`):
// - every read answers the entry's ETag, which changes with every write;
// - `onlyIfNew` (`If-None-Match: *`) writes only if the key holds nothing,
//   else answers 412, which the client reports as `modified: false`;
// - `onlyIfMatch` (`If-Match: <etag>`) writes only if the key exists and its
//   current ETag is that one, else 412;
// - a conditional write is atomic: the check and the write are one step
//   (here: no await between them, in one process);
// - `list` with a prefix answers the keys that start with it; with
//   `directories=true`, the keys directly under the prefix and the folders
//   one level under it, each named by its whole prefix.
// It speaks the client's edge protocol (`/<site>/<store>/<key>`, a bearer
// token), binds 127.0.0.1 only, and keeps everything in memory.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface BlobsStandIn {
  url: string;
  siteID: string;
  token: string;
  stop(): Promise<void>;
}

export async function startBlobsStandIn(siteID = "test-site", token = "test-token"): Promise<BlobsStandIn> {
  // store name -> key -> entry
  type Entry = { body: Buffer; etag: string };
  const stores = new Map<string, Map<string, Entry>>();
  let writes = 0;
  const storeOf = (name: string) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new Map<string, Entry>()));
    return s;
  };
  const body = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const parts = url.pathname.split("/").slice(1).map(decodeURIComponent);
      if (req.headers.authorization !== `Bearer ${token}` || parts[0] !== siteID || !parts[1]) {
        res.writeHead(parts[0] === siteID ? 400 : 401).end();
        return;
      }
      const store = storeOf(parts[1]);
      const key = parts.slice(2).join("/");
      if (!key) {
        if (req.method !== "GET") return void res.writeHead(405).end();
        const prefix = url.searchParams.get("prefix") ?? "";
        const directories = url.searchParams.get("directories") === "true";
        const blobs: { key: string; etag: string }[] = [];
        const folders = new Set<string>();
        for (const [k, entry] of store) {
          if (!k.startsWith(prefix)) continue;
          const slash = k.indexOf("/", prefix.length);
          if (directories && slash >= 0) folders.add(k.slice(0, slash));
          else blobs.push({ key: k, etag: entry.etag });
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ blobs, directories: [...folders] }));
        return;
      }
      if (req.method === "GET" || req.method === "HEAD") {
        const entry = store.get(key);
        if (!entry) return void res.writeHead(404).end();
        res.writeHead(200, { etag: entry.etag });
        res.end(req.method === "GET" ? entry.body : undefined);
        return;
      }
      if (req.method === "DELETE") {
        store.delete(key);
        res.writeHead(204).end();
        return;
      }
      if (req.method !== "PUT") return void res.writeHead(405).end();
      const bytes = await body(req);
      // The check and the write, in one step: nothing else runs between them.
      const current = store.get(key);
      const ifMatch = req.headers["if-match"];
      if (req.headers["if-none-match"] === "*" && current) return void res.writeHead(412).end();
      if (ifMatch !== undefined && (!current || current.etag !== ifMatch)) return void res.writeHead(412).end();
      const etag = `"w${++writes}"`;
      store.set(key, { body: bytes, etag });
      res.writeHead(200, { etag }).end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.requestTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    siteID,
    token,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
