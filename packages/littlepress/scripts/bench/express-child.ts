// The per-request renderer the kit is measured against: an edition server in
// the style of the older Little Printer kits, Express 4 with EJS views, which
// reads the request, finds the edition's Markdown and renders it, then the
// page template, for every request. Express renders EJS as those kits ran it,
// outside NODE_ENV=production: the view is compiled per request. It answers
// the benchmark's /edition/ mix with the same statuses as the kit (204 on a
// day without edition, 410 past the serial's end). Prints its URL, serves
// until killed. Usage: node --import tsx scripts/bench/express-child.ts <facts.json>
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import MarkdownIt from "markdown-it";

/** What the renderer knows of the synthetic site (scripts/bench/generate.ts). */
export interface ExpressFacts {
  content: string;
  serial: { slug: string; count: number };
  daily: { slug: string; dates: string[] };
  choices: { slug: string; count: number };
  css: string;
}

interface Req {
  params: Record<string, string>;
  query: Record<string, string | undefined>;
}
interface Res {
  status(code: number): Res;
  end(): void;
  render(view: string, data: object): void;
}
interface App {
  set(name: string, value: unknown): void;
  get(route: string, handler: (req: Req, res: Res) => void): void;
  listen(port: number, host: string, done: () => void): { address(): { port: number } | string | null };
}

const VIEW = `<!doctype html>
<html lang="<%= lang %>">
<head><meta charset="utf-8"><title><%= title %></title><style><%- css %></style></head>
<body><h1><%= title %></h1>
<%- body %>
</body>
</html>
`;

const factsFile = process.argv[2];
if (!factsFile) throw new Error("usage: express-child.ts <facts.json>");
const facts = JSON.parse(readFileSync(factsFile, "utf8")) as ExpressFacts;
const views = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-views-"));
process.once("exit", () => rmSync(views, { recursive: true, force: true }));
writeFileSync(path.join(views, "edition.ejs"), VIEW);
const md = new MarkdownIt({ html: true });
const dates = new Set(facts.daily.dates);
// The sources are held in memory as those kits held their data; the rendering is per request.
const sources = new Map<string, { title: string; text: string }>();

function source(slug: string, name: string) {
  const id = `${slug}/${name}`;
  let s = sources.get(id);
  if (!s) {
    const raw = readFileSync(path.join(facts.content, slug, "editions", `${name}.md`), "utf8");
    const [, front = "", text = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(raw) ?? [];
    s = { title: /title: "(.*)"/.exec(front)?.[1] ?? name, text };
    sources.set(id, s);
  }
  return s;
}

const escape = (t: string) =>
  t.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The Liquid branch for `lang` of a choices edition, with the name put in (what the kit prebuilds). */
function choose(text: string, lang: string, name: string): string {
  const branches = text.split(/\{%-? (?:if|elsif|else|endif)[^%]*%\}/);
  const at = lang === "fr" ? 1 : lang === "es" ? 2 : 3;
  return (branches[at] ?? "").replaceAll("{{ config.name }}", escape(name));
}

const name = "express";
const express = ((await import(name)) as { default: () => App }).default;
const app = express();
app.set("views", views);
app.set("view engine", "ejs");
app.get("/:slug/edition/", (req, res) => {
  const { slug } = req.params;
  const q = req.query;
  const render = (s: { title: string; text: string }, text = s.text, lang = "en") =>
    res.render("edition", { title: s.title, body: md.render(text), css: facts.css, lang });
  if (slug === facts.serial.slug) {
    const n = Number(q.delivery_count);
    if (!Number.isInteger(n) || n < 0) return res.status(204).end();
    if (n >= facts.serial.count) return res.status(410).end();
    return render(source(slug, String(n)));
  }
  if (slug === facts.daily.slug) {
    const date = (q.local_delivery_time ?? "").slice(0, 10);
    return dates.has(date) ? render(source(slug, date)) : res.status(204).end();
  }
  if (slug === facts.choices.slug) {
    const n = Number(q.delivery_count);
    if (!Number.isInteger(n) || n < 0 || n >= facts.choices.count) return res.status(204).end();
    const lang = q.lang ?? "en";
    const s = source(slug, String(n));
    return render(s, choose(s.text, lang, q.name ?? "friend"), lang);
  }
  res.status(204).end();
});
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`BENCH_URL http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => process.exit(0));
