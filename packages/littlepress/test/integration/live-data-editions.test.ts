// `npm start` with editions from data: a saved row or template is served at
// once, only the editions it makes change, and the result is what a clean build gives.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publicationDataDir } from "../../lib/model/site-paths.ts";
import { buildSite } from "../helpers/build-sites.ts";
import { withStart } from "../helpers/start.ts";

const server = withStart("live-data-editions", ["data/words"]);
const file = (name: string) => path.join(server.content, "words", name);
const on = (date: string) => `/words/edition/?local_delivery_time=${date}T07:00:00Z`;

async function etag(pathAndQuery: string): Promise<string | null> {
  const res = await fetch(server.url + pathAndQuery, { signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return res.headers.get("etag");
}

/** Asks until the edition's ETag is no longer `before` (bounded: a rebuild that never comes fails the test). */
async function changed(pathAndQuery: string, before: string | null): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(server.url + pathAndQuery, { signal: AbortSignal.timeout(10_000) });
    const body = await res.text();
    if (res.headers.get("etag") !== before) return body;
    if (Date.now() > deadline) throw new Error(`${pathAndQuery} never changed\n${server.log}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("npm start with a data file and a template", { timeout: 60_000 }, () => {
  it("rebuilds a saved row, and leaves the other rows' ETags alone", async () => {
    const before = { 20: await etag(on("2026-11-20")), 23: await etag(on("2026-11-23")) };
    const csv = readFileSync(file("editions.csv"), "utf8");
    writeFileSync(file("editions.csv"), csv.replace("Hiraeth,hiraeth", "Hiraeth again,hiraeth"));
    expect(await changed(on("2026-11-23"), before[23])).toContain("<h1>Hiraeth again</h1>");
    expect(await etag(on("2026-11-20"))).toBe(before[20]);
  });

  it("prints a broken save's problem once, though the editor wrote the file twice", async () => {
    const good = readFileSync(file("editions.csv"), "utf8");
    const broken = `${good}2026-11-28,"Unclosed,unclosed,A quote left open\n`;
    const from = server.log.length;
    const said = () => server.log.slice(from).split("is not valid CSV: Quote Not Closed").length - 1;
    const again = () => server.log.slice(from).split("the build still fails with the problem above").length - 1;
    try {
      // Two writes of the same bytes further apart than the watcher's settling time: two builds.
      writeFileSync(file("editions.csv"), broken);
      await new Promise((r) => setTimeout(r, 150));
      writeFileSync(file("editions.csv"), broken);
      // Bounds for a hang: in a CI run the two builds took more than 15 s.
      const deadline = Date.now() + 60_000;
      while (said() + again() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(said(), server.log.slice(from)).toBe(1);
      expect(again(), server.log.slice(from)).toBe(1);
    } finally {
      // Mended: the next test starts from a good build.
      const mended = server.log.length;
      writeFileSync(file("editions.csv"), good);
      const until = Date.now() + 60_000;
      while (!server.log.slice(mended).includes("changed: rebuilt") && Date.now() < until)
        await new Promise((r) => setTimeout(r, 25));
    }
  }, 180_000);

  it("rebuilds every row's edition when the template is saved, as a clean build would", async () => {
    const before = await etag(on("2026-11-20"));
    writeFileSync(file("edition.md"), `${readFileSync(file("edition.md"), "utf8")}\nA new closing line.\n`);
    expect(await changed(on("2026-11-20"), before)).toContain("A new closing line.");
    const clean = path.join(path.dirname(server.content), "clean");
    await buildSite(server.content, clean);
    const dir = (site: string) => publicationDataDir(site, "words");
    const files = readdirSync(dir(clean), { recursive: true }).map(String).sort();
    expect(readdirSync(dir(server.output), { recursive: true }).map(String).sort()).toEqual(files);
    for (const f of files.filter((name) => name.includes(".")))
      expect(readFileSync(path.join(dir(server.output), f)).equals(readFileSync(path.join(dir(clean), f))), f).toBe(
        true,
      );
  });
});
