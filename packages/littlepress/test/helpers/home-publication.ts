// A publication on loopback, made by no kit, for the home print server's
// tests: meta.json with two settings, icon.png, sample/, edition/ answering as
// the test says (200 with an ETag, 204, 410), and validate_config/ that
// rejects an empty name, naming the field by its label as publications did.
// It keeps every request it was sent. Bound to 127.0.0.1 on a free port.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface EditionAnswer {
  status: 200 | 204 | 410;
  etag?: string;
  html?: string;
}

export interface HomePublication {
  /** The base URL, ending in /. */
  url: string;
  origin: string;
  /** What edition/ answers next (a function of the request's query). */
  edition: (query: URLSearchParams) => EditionAnswer;
  /** Every request, as "METHOD /path?query". */
  requests: string[];
  /** The config each validate_config/ POST carried. */
  validated: string[];
  close(): Promise<void>;
}

export const ICON = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==",
  "base64",
);

const META = {
  name: "The Daily Hello",
  description: "Says <strong>hello</strong><script>alert(1)</script> every morning.",
  owner_email: "o@example.org",
  publication_api_version: "1.0",
  send_timezone_info: true,
  send_delivery_count: true,
  config: {
    fields: [
      { type: "text", name: "name", label: "Your name" },
      {
        type: "select",
        name: "lang",
        label: "Language",
        options: [
          ["English", "en"],
          ["Deutsch", "de"],
        ],
      },
    ],
  },
};

export async function startHomePublication(): Promise<HomePublication> {
  const pub: HomePublication = {
    url: "",
    origin: "",
    requests: [],
    validated: [],
    edition: (q) => ({ status: 200, etag: `"e${q.get("delivery_count")}"`, html: helloPage(q) }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => void answer(pub, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  pub.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pub.url = `${pub.origin}/hello/`;
  return pub;
}

const helloPage = (q: URLSearchParams) =>
  `<!doctype html><meta charset="utf-8"><body style="margin:0"><h1 style="font-size:40px">Hello ${(
    q.get("name") ?? "you"
  ).replace(/[<&]/g, "")}</h1><p style="font-size:24px">edition ${q.get("delivery_count")}</p></body>`;

async function answer(pub: HomePublication, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", pub.origin);
  pub.requests.push(`${req.method} ${url.pathname}${url.search}`);
  let body = "";
  for await (const chunk of req) body += String(chunk);
  if (url.pathname === "/hello/meta.json") return send(res, 200, "application/json", JSON.stringify(META));
  if (url.pathname === "/hello/icon.png") return send(res, 200, "image/png", ICON);
  if (url.pathname === "/hello/sample/") return send(res, 200, "text/html; charset=utf-8", helloPage(url.searchParams));
  if (url.pathname === "/hello/validate_config/" && req.method === "POST") {
    const config = new URLSearchParams(body).get("config") ?? "{}";
    pub.validated.push(config);
    const { name } = JSON.parse(config) as { name?: string };
    const verdict = name ? { valid: true } : { valid: false, errors: ["Your name: write the name to greet."] };
    return send(res, 200, "application/json", JSON.stringify(verdict));
  }
  if (url.pathname === "/hello/edition/") {
    const e = pub.edition(url.searchParams);
    res.writeHead(e.status, e.etag ? { ETag: e.etag, "Content-Type": "text/html; charset=utf-8" } : {});
    return void res.end(e.status === 200 ? e.html : undefined);
  }
  send(res, 404, "text/plain", "not here");
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { "Content-Type": type });
  res.end(body);
}
