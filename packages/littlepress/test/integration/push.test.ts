// Push editions (lib/model/push.ts): an edition marked push prints once to
// every subscription live when it was published, with each subscriber's
// settings, whatever runs overlap or crash. Real builds of a small site, real
// push runs with the clock in the tests' hands, a fake sirius taking the
// prints, the state in a file store in a temporary folder.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import deploySucceeded from "../../functions/deploy-succeeded-background.mts";
import type { LocalSite, ServeContext } from "../../lib/edge/site-folder.ts";
import type { PushEntry, PushRecord } from "../../lib/model/push.ts";
import type { PublicationIndex } from "../../lib/model/shard.ts";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { runPushes, type PushRunOptions } from "../../lib/platform/pushing/push-run.ts";
import { SEAL_KEY_VARIABLE, stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";
import { pushedKey, pushKey, subscriptionKey } from "../../lib/platform/stores/store-keys.ts";
import { startServer } from "../../lib/server/server.ts";
import { main as pushCli, pushReportText } from "../../scripts/push.ts";
import { buildSite } from "../helpers/build-sites.ts";
import { contentFolders, md, problemsOf, pub } from "../helpers/content-folder.ts";
import { tempLocalState } from "../helpers/local-state.ts";
import { deliveryFixture, subscribeOn } from "../helpers/delivery-fixture.ts";
import { startPrintKeys } from "../helpers/print-keys.ts";

const sealKey = randomBytes(32);
const folders = contentFolders("push-");
const built = path.join(folders.root, "site");
const fixture = deliveryFixture("push");
const { sirius } = fixture;
let store: StateStore;
const freshStore = () => (store = fixture.freshStore());
let builtAt: number;
let content: string;

const NEWS = {
  ...pub("delivery_count"),
  name: "News",
  config: {
    fields: [
      {
        type: "select",
        name: "lang",
        label: "Language",
        options: [
          ["English", "en"],
          ["Français", "fr"],
        ],
        default: "en",
      },
      { type: "text", name: "name", label: "Your name", required: false, default: "friend", max_length: 20 },
    ],
  },
};
const PUSHED = '{% if config.lang == "fr" %}Flash{% else %}Breaking{% endif %} news for {{ config.name }}.';

beforeAll(async () => {
  content = folders.content({
    "news/publication.json": NEWS,
    "news/editions/0.md": md("number: 0", "Plain news."),
    "news/editions/1.md": md("number: 1\npush: true", PUSHED),
    "bulletins/publication.json": { ...pub("local_date"), name: "Bulletins" },
    "bulletins/edition.md": "# {{ title }}\n",
    "bulletins/editions.csv":
      "date,title,push\n2026-11-20,Quiet day,\n2026-11-21,Storm warning,yes\n2026-11-22,Calm again,no\n",
    "site.json": { print_key_origins: [{ origin: sirius.url, private: true }] },
  });
  builtAt = Date.now();
  await buildSite(content, built);
}, 120_000);
afterAll(() => folders.remove());

const BEFORE = new Date("2026-03-26T00:00:00Z");
/** A printer on the fake sirius and a subscription to `slug` on it, made at `at`, with `settings`. */
const subscribe = (slug: string, settings: [string, string][] = [], at = BEFORE, on = store, seal: Buffer = sealKey) =>
  subscribeOn({ sirius, store: on, sealKey: seal }, { slug, zone: "UTC", hour: 6, settings, at });
async function end(id: string) {
  const stored = (await store.get<Subscription>(subscriptionKey(id)))!;
  const ended = { at: BEFORE.toISOString(), reason: "the series is over (410)" };
  await store.replace(subscriptionKey(id), { ...stored.value, ended }, stored.version);
}

const AT = Date.now() + 60_000;
const run = (at = AT, over: Partial<PushRunOptions> = {}) =>
  runPushes({ store, site: built, sealKey, printKeys: sirius.policy, at: new Date(at), ...over });
const posts = () => sirius.requests.filter((r) => r.startsWith("POST "));
const pushed = async (id: string, edition: string) => (await store.get<PushRecord>(pushedKey(id, edition)))?.value;

describe("the build", () => {
  it("records the push editions, front matter and data row, in each publication's index with its time", () => {
    const index = (slug: string) =>
      JSON.parse(readFileSync(path.join(siteDataDir(built), slug, "index.json"), "utf8")) as PublicationIndex;
    expect(index("news").push?.editions).toEqual(["1"]);
    expect(index("bulletins").push?.editions).toEqual(["2026-11-21"]);
    const time = Date.parse(index("news").push!.built);
    expect(time).toBeGreaterThanOrEqual(builtAt - 1000);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  it("marks them on the desk's publication page", () => {
    const page = (slug: string) => readFileSync(path.join(built, slug, "index.html"), "utf8");
    expect(page("news")).toMatch(/<span class="tag tag-push">push<\/span> no\. 1:/);
    expect(page("bulletins")).toMatch(/<span class="tag tag-push">push<\/span> Sat 21 Nov 2026:/);
    // and how to print one by hand
    expect(page("news")).toContain("<code>npm run push -- news 1</code>");
    expect(page("bulletins")).toContain("<code>npm run push -- bulletins 2026-11-21</code>");
  });

  it("refuses push in a data template's front matter, and a push that is neither true nor false", () => {
    const problems = problemsOf(
      folders.content({
        "a/publication.json": pub("local_date"),
        "a/edition.md": md("push: true", "# {{ title }}"),
        "a/editions.csv": "date,title\n2026-11-20,One\n",
        "b/publication.json": pub("delivery_count"),
        "b/editions/0.md": md("number: 0\npush: soon"),
      }),
    );
    expect(problems.map((p) => [p.file.split("/").slice(-2).join("/"), p.field, p.problem])).toEqual([
      ["a/edition.md", "push", "push would mark every edition"],
      ["editions/0.md", "push", 'push is "soon", which is neither true nor false'],
    ]);
  });
});

describe("a push", () => {
  it("prints once to each live subscriber with their own settings, and not to ended ones", async () => {
    freshStore();
    const en = await subscribe("news", [
      ["lang", "en"],
      ["name", "Ada"],
    ]);
    const fr = await subscribe("news", [
      ["lang", "fr"],
      ["name", "Zoé"],
    ]);
    const ended = await subscribe("news", [
      ["lang", "en"],
      ["name", "Gone"],
    ]);
    await end(ended.id);
    const storm = await subscribe("bulletins");
    const report = await run();
    expect(report.lines.map((l) => [l.slug, l.edition, l.subscription, l.outcome]).sort()).toEqual(
      [
        ["bulletins", "2026-11-21", storm.id, "printed"],
        ["news", "1", en.id, "printed"],
        ["news", "1", fr.id, "printed"],
      ].sort(),
    );
    const byKey = new Map(sirius.prints.map((p) => [p.key, p]));
    expect(sirius.prints).toHaveLength(3);
    expect(byKey.get(en.key)!.body).toContain("Breaking news for Ada.");
    expect(byKey.get(fr.key)!.body).toContain("Flash news for Zoé.");
    expect(byKey.get(en.key)!.from).toBe("News");
    expect(byKey.get(storm.key)!.body).toContain("Storm warning");
    expect(byKey.get(storm.key)!.from).toBe("Bulletins");
    expect(byKey.has(ended.key)).toBe(false);
    expect(sirius.prints.some((p) => p.body.includes("Quiet day") || p.body.includes("Calm again"))).toBe(false);
    expect(await pushed(en.id, "1")).toMatchObject({ state: "printed", attempts: 1 });
    expect(await pushed(ended.id, "1")).toBeUndefined();
    // Nothing of the subscription's daily deliveries moved.
    expect((await store.get<Subscription>(subscriptionKey(en.id)))!.value).toMatchObject({
      deliveryCount: 0,
      lastEtag: null,
    });
  });

  it("prints nothing more when run again, and marks the push done", async () => {
    freshStore();
    await subscribe("news");
    await subscribe("bulletins");
    await run();
    expect(sirius.prints).toHaveLength(2);
    const again = await run(AT + 20 * 60_000);
    expect(again.lines).toEqual([]);
    expect(again.pushes.map((p) => p.done)).toEqual([true, true]);
    await run(AT + 24 * 3600_000);
    expect(sirius.prints).toHaveLength(2);
    expect(posts()).toHaveLength(2);
    expect((await store.get<PushEntry>(pushKey("news", "1")))?.value.done).toBeDefined();
  });

  it("does not print to a subscription made after the push was published", async () => {
    freshStore();
    const early = await subscribe("news");
    const late = await subscribe("news", [], new Date(Date.now() + 30_000));
    const report = await run();
    expect(sirius.prints.map((p) => p.key)).toEqual([early.key]);
    expect(await pushed(late.id, "1")).toBeUndefined();
    // and the report says why it got nothing
    expect(report.pushes.find((p) => p.slug === "news")).toMatchObject({ later: 1 });
    const head = pushReportText(report, false)
      .split("\n")
      .find((l) => l.startsWith("push: news 1 "));
    expect(head).toMatch(/: 1 copy worked on, every subscriber's copy settled; 1 subscription made after it was /);
    expect(head).toContain("published does not get it (news is for those subscribed when it came out)");
  });

  it("keeps the time of the first build it was seen in: a rebuild does not move it", async () => {
    freshStore();
    await store.create(pushKey("news", "1"), { slug: "news", edition: "1", published: BEFORE.toISOString() });
    const older = await subscribe("news", [], new Date(BEFORE.getTime() - 1000));
    await subscribe("news", [], new Date(BEFORE.getTime() + 1000));
    const report = await run();
    expect(report.pushes.find((p) => p.slug === "news")?.published).toBe(BEFORE.toISOString());
    expect(sirius.prints.map((p) => p.key)).toEqual([older.key]);
  });

  it("retries an offline printer on a later run, and prints it once", async () => {
    freshStore();
    const { key, id } = await subscribe("news");
    sirius.printers.get(key)!.online = false;
    expect((await run()).lines.map((l) => l.outcome)).toEqual(["offline"]);
    expect((await run(AT + 60_000)).lines).toEqual([]); // its wait is not over
    sirius.printers.get(key)!.online = true;
    expect((await run(AT + 16 * 60_000)).lines.map((l) => l.outcome)).toEqual(["printed"]);
    expect((await run(AT + 60 * 60_000)).lines).toEqual([]);
    expect(sirius.prints).toHaveLength(1);
    expect(await pushed(id, "1")).toMatchObject({ state: "printed", attempts: 2 });
  });

  it("never sends again a copy it sent with no answer: unknown, and counted so", async () => {
    freshStore();
    const { key, id } = await subscribe("news");
    sirius.printers.get(key)!.hangUp = true;
    const report = await run();
    expect(report.lines.map((l) => l.outcome)).toEqual(["unknown"]);
    expect(report.unknown).toBe(1);
    for (const minutes of [16, 31, 61, 121]) expect((await run(AT + minutes * 60_000)).lines).toEqual([]);
    expect(sirius.prints).toHaveLength(1);
    expect(await pushed(id, "1")).toMatchObject({ state: "unknown", attempts: 1 });
  });

  it("prints once per subscriber when two runs overlap", async () => {
    freshStore();
    const subs = [];
    for (let i = 0; i < 12; i++) subs.push(await subscribe("news", [["name", `N${i}`]]));
    const [a, b] = await Promise.all([run(), run(AT + 1000)]);
    expect([...a.lines, ...b.lines].filter((l) => l.outcome === "printed")).toHaveLength(12);
    expect(sirius.prints).toHaveLength(12);
    expect(new Set(sirius.prints.map((p) => p.key))).toEqual(new Set(subs.map((s) => s.key)));
    await Promise.all([run(AT + 20 * 60_000), run(AT + 20 * 60_000)]);
    expect(sirius.prints).toHaveLength(12);
  });

  it("resumes a run killed between subscribers once its claims are stale, printing the rest exactly once", async () => {
    freshStore();
    const subs = [];
    for (let i = 0; i < 4; i++) subs.push(await subscribe("news", [["name", `N${i}`]]));
    // One printer takes the POST and never answers: the child run waits there, one copy at a time, and is killed.
    const stuck = subs[2]!;
    sirius.printers.get(stuck.key)!.hold = true;
    const child = spawn(process.execPath, [
      "--import",
      "tsx",
      "test/helpers/push-child.ts",
      fixture.folder!,
      built,
      sealKey.toString("base64"),
      new Date(AT).toISOString(),
      sirius.url,
    ]);
    try {
      const deadline = Date.now() + 20_000;
      while (!sirius.requests.includes(`POST /printkey/${stuck.key}`) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(sirius.requests).toContain(`POST /printkey/${stuck.key}`);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = sirius.prints.map((p) => p.key);
    expect(before).not.toContain(stuck.key);
    expect(before.length).toBeLessThan(4);
    expect(await pushed(stuck.id, "1")).toMatchObject({ state: "sending", attempts: 1 });
    sirius.printers.get(stuck.key)!.hold = false;
    // A minute later its claim still holds: a run prints the ones not reached, and leaves it.
    await run(AT + 60_000);
    expect(sirius.prints.map((p) => p.key).sort()).toEqual(
      subs
        .filter((s) => s !== stuck)
        .map((s) => s.key)
        .sort(),
    );
    // Once stale, the next run takes it over and prints it.
    const resumed = await run(AT + 15 * 60_000);
    expect(resumed.lines.map((l) => [l.subscription, l.outcome])).toEqual([[stuck.id, "printed"]]);
    expect(sirius.prints.map((p) => p.key).sort()).toEqual(subs.map((s) => s.key).sort());
    expect(await pushed(stuck.id, "1")).toMatchObject({ state: "printed", attempts: 2 });
    await run(AT + 30 * 60_000);
    expect(sirius.prints).toHaveLength(4);
  });
});

describe("npm run push", () => {
  const local = tempLocalState("push-cli");
  let state: StateSetup;
  beforeAll(() => {
    state = stateSetup(local) as StateSetup;
  });
  afterAll(() => local.remove());
  const cli = async (...args: string[]) => {
    let stdout = "";
    let stderr = "";
    const out = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
    const code = await pushCli(
      [...args, "--state", local.folder, "--key-file", local.keyFile, "--site", built],
      out,
      {},
    );
    return { code, stdout, stderr };
  };

  it("answers an unknown slug or edition in one clear line, exit 2", async () => {
    fixture.folder = mkdtempSync(path.join(tmpdir(), "littlepress-push-")); // removed after the test
    for (const [args, said] of [
      [["nope", "1"], 'push: "nope" has no push edition "1": the push editions are bulletins 2026-11-21, news 1\n'],
      [["news", "0"], 'push: "news" has no push edition "0": its push editions are 1\n'],
      [["news"], "push: give a publication's slug and a push edition, like npm run push -- good-morning 2026-11-25\n"],
    ] as const) {
      const answer = await cli(...args);
      expect(answer).toEqual({ code: 2, stdout: "", stderr: said });
    }
    expect(posts()).toEqual([]);
  });

  it("prints the data row's push to the local subscribers, once", async () => {
    fixture.folder = mkdtempSync(path.join(tmpdir(), "littlepress-push-"));
    const { key, id } = await subscribe("bulletins", [], BEFORE, state.store, state.sealKey);
    const first = await cli("bulletins", "2026-11-21");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `  bulletins 2026-11-21  ${id} (Printer ${key.slice(0, 4)}): printed (sent to the printer)\n`,
    );
    expect(sirius.prints.map((p) => [p.key, p.from])).toEqual([[key, "Bulletins"]]);
    expect(sirius.prints[0]!.body).toContain("Storm warning");
    const again = await cli("bulletins", "2026-11-21");
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^push: bulletins 2026-11-21 \(published [^)]+\): 0 copies worked on/);
    expect(sirius.prints).toHaveLength(1);
  });
});

describe("a deploy's push run (functions/deploy-succeeded-background.mts)", () => {
  // As Netlify runs it: the deployed function's handler, a Request and a context (the live production deploy's),
  // its store a file store here.
  const context = (over: Partial<ServeContext> = {}, local: LocalSite = {}): ServeContext => ({
    deploy: { context: "production", published: true },
    littlepress: { site: built, state: fixture.folder, printKeys: sirius.allowed, ...local },
    ...over,
  });
  const invoke = (init: RequestInit = { method: "POST" }, over: Partial<ServeContext> = {}, local: LocalSite = {}) =>
    deploySucceeded(new Request("https://example.netlify.app/.netlify/functions/deploy-succeeded-background", init), {
      ...context(over, local),
    });
  let logged: MockInstance<typeof console.log>;
  let errors: MockInstance<typeof console.error>;
  beforeEach(() => {
    vi.stubEnv(SEAL_KEY_VARIABLE, sealKey.toString("base64"));
    logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });
  const log = () => logged.mock.calls.map((c) => String(c[0]));

  it("prints each push edition of the built site once to each live subscriber, and logs each copy", async () => {
    freshStore();
    const ada = await subscribe("news", [["name", "Ada"]]);
    const gone = await subscribe("news", [["name", "Gone"]]);
    await end(gone.id);
    const storm = await subscribe("bulletins");
    const res = await invoke();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ pushes: 2, copies: 2, printed: 2, left: 0 });
    expect(sirius.prints.map((p) => p.key).sort()).toEqual([ada.key, storm.key].sort());
    expect(sirius.prints.find((p) => p.key === ada.key)!.body).toContain("Breaking news for Ada.");
    expect(log()).toEqual([
      `push: bulletins 2026-11-21 ${storm.id}: printed (sent to the printer)`,
      `push: news 1 ${ada.id}: printed (sent to the printer)`,
      "deploy-succeeded-background: 2 push editions (2 with every copy settled): 2 copies worked on, 2 printed",
    ]);
    expect(errors).not.toHaveBeenCalled();
  });

  it("prints once each when invoked twice at once, and nothing more when invoked again", async () => {
    freshStore();
    const subs = [];
    for (let i = 0; i < 6; i++) subs.push(await subscribe("news", [["name", `N${i}`]]));
    const both = await Promise.all([invoke(), invoke()]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(sirius.prints.map((p) => p.key).sort()).toEqual(subs.map((s) => s.key).sort());
    const again = await invoke();
    expect(await again.json()).toEqual({ pushes: 2, copies: 0, printed: 0, left: 0 });
    expect(sirius.prints).toHaveLength(6);
    expect(posts()).toHaveLength(6);
  });

  it("answers anything but POST 405, and runs nothing", async () => {
    freshStore();
    await subscribe("news");
    for (const method of ["GET", "HEAD", "PUT"]) {
      const res = await invoke({ method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
    }
    expect(posts()).toEqual([]);
    expect(await store.get(pushKey("news", "1"))).toBeUndefined();
  });

  it("answers 503 with what to set when the site has no LITTLEPRESS_SEAL_KEY", async () => {
    freshStore();
    await subscribe("news");
    vi.stubEnv(SEAL_KEY_VARIABLE, undefined);
    // Deployed: no local state folder, so the key must come from the site's environment.
    const res = await invoke({ method: "POST" }, {}, { state: undefined });
    expect(res.status).toBe(503);
    const said = "LITTLEPRESS_SEAL_KEY is not set: set it in the site's environment variables";
    expect(await res.json()).toEqual({ error: said });
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([`deploy-succeeded-background: ${said}`]);
    expect(posts()).toEqual([]);
  });

  it("takes nothing from the body: a URL in it is never asked, and an endless body is not read", async () => {
    freshStore();
    const elsewhere = await startPrintKeys();
    try {
      const { key } = await subscribe("news");
      // Netlify's deploy payload names the site's addresses: here they point elsewhere.
      const payload = {
        payload: { url: elsewhere.url, ssl_url: elsewhere.url, deploy_ssl_url: elsewhere.keyUrl(key) },
      };
      const res = await invoke({ method: "POST", body: JSON.stringify(payload) });
      expect(await res.json()).toMatchObject({ printed: 1 });
      // A body that never ends: the run does not wait for it.
      const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
      const again = await invoke({ method: "POST", body: endless, duplex: "half" } as RequestInit);
      expect(again.status).toBe(200);
      expect(elsewhere.requests).toEqual([]);
      expect(sirius.prints.map((p) => p.key)).toEqual([key]);
    } finally {
      await elsewhere.close();
    }
  });

  it("fetches from the site's address a push edition whose shard is published as a static file", async () => {
    // A site too large for the function bundle (a budget of a few bytes: every shard published, sealed), and the
    // function holding only its bundle, as deployed; the site itself served by the local server.
    const whole = path.join(folders.root, "remote-site");
    const bundled = path.join(folders.root, "remote-bundled");
    await buildSite(content, whole, { bundleBudget: 10 });
    cpSync(siteDataDir(whole), siteDataDir(bundled), { recursive: true });
    const index = JSON.parse(
      readFileSync(path.join(siteDataDir(bundled), "news", "index.json"), "utf8"),
    ) as PublicationIndex;
    expect(index.shards.every((r) => r.remote)).toBe(true);
    const server = await startServer({ port: 0, siteDir: whole, functionSite: bundled });
    try {
      freshStore();
      const ada = await subscribe("news", [["name", "Ada"]]);
      const res = await invoke({ method: "POST" }, {}, { site: bundled, origin: server.url });
      expect(await res.json()).toMatchObject({ printed: 1 });
      expect(sirius.prints.map((p) => [p.key, p.body.includes("Breaking news for Ada.")])).toEqual([[ada.key, true]]);
    } finally {
      await server.close();
    }
  }, 120_000);

  // Only a deploy known to be the live production one pushes: anything else, or nothing said, prints nothing, stamps
  // nothing, and says why in the log (the scheduled run prints what the live deploy has, within 15 minutes).
  const refusals: [string, Partial<ServeContext>, string][] = [
    ["no deploy information", { deploy: undefined }, "no deploy information"],
    [
      "a production deploy that does not say whether it is published",
      { deploy: { context: "production" } },
      "the production deploy does not say whether it is published",
    ],
    [
      "an old production deploy reached by its permalink (or one not yet marked published)",
      { deploy: { context: "production", published: false } },
      "the production deploy is not the published one",
    ],
    [
      "a deploy preview",
      { deploy: { context: "deploy-preview", published: false } },
      'the deploy is a "deploy-preview" one, not production',
    ],
    [
      "a branch deploy, even one said to be published",
      { deploy: { context: "branch-deploy", published: true } },
      'the deploy is a "branch-deploy" one, not production',
    ],
    ["a deploy with no context", { deploy: { published: true } }, "the deploy has no context"],
  ];
  it.each(refusals)("prints nothing for %s, and logs why", async (_, over, reason) => {
    freshStore();
    await subscribe("news");
    const res = await invoke({ method: "POST" }, over);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ pushed: false, reason });
    expect(log()).toEqual([
      `deploy-succeeded-background: ${reason}: nothing to push (the scheduled run prints what the live deploy has)`,
    ]);
    expect(posts()).toEqual([]);
    expect(sirius.prints).toEqual([]);
    expect(await store.get(pushKey("news", "1"))).toBeUndefined();
  });
});
