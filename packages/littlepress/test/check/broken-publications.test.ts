// The checker against deliberately broken publications: each server is the
// correct fake with exactly one flaw, and exactly the check for that flaw
// must fail (or warn, for the flaws that are warnings).
import { type AddressInfo, createServer, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { CheckId } from "../../scripts/check/catalogue.ts";
import { formatReport, type Report } from "../../scripts/check/report.ts";
import { runCheck } from "../../scripts/check/run-check.ts";
import {
  type FakePublication,
  fakeEdition,
  goodPublication,
  html,
  makePng,
  type RunningFake,
  startFake,
  validateFake,
} from "./broken-servers.ts";

const running: RunningFake[] = [];
afterAll(() => Promise.all(running.map((s) => s.close())));

async function check(
  pub: FakePublication,
  extra: { strict?: boolean; timeoutMs?: number; base?: string } = {},
): Promise<Report> {
  const server = await startFake(pub);
  running.push(server);
  const base = extra.base ? new URL(`../${extra.base}`, server.url).href : server.url;
  return runCheck({
    base,
    start: "2026-01-09",
    days: 14,
    hour: 6,
    zones: ["Europe/London"],
    timeoutMs: extra.timeoutMs ?? 5000,
    config: {},
    strict: extra.strict ?? false,
  });
}

const withStatus = (report: Report, status: string) =>
  report.checks.filter((c) => c.status === status).map((c) => c.id);
const find = (report: Report, id: CheckId) => report.checks.find((c) => c.id === id)!;

/** The good fake with its edition answers passed through `change`. */
function editionChanged(
  change: (answer: ReturnType<typeof fakeEdition>, query: URLSearchParams) => ReturnType<typeof fakeEdition>,
): FakePublication {
  return { ...goodPublication(), edition: (q) => change(fakeEdition(q), q) };
}

describe("the correct fake publication", () => {
  it("passes every check, and exercises the day-to-day ones rather than skipping them", async () => {
    const report = await check(goodPublication());
    expect(withStatus(report, "fail")).toEqual([]);
    expect(withStatus(report, "warn")).toEqual([]);
    expect(withStatus(report, "skip")).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

interface Flaw {
  flaw: string;
  fails: CheckId;
  /** Other checks the same flaw rightly fails too. */
  alsoFails?: CheckId[];
  pub: () => FakePublication;
}

const FLAWS: Flaw[] = [
  {
    flaw: "an unquoted ETag",
    fails: "edition.etag-quoted",
    pub: () =>
      editionChanged((a) =>
        a.headers?.ETag ? { ...a, headers: { ...a.headers, ETag: a.headers.ETag.replace(/"/g, "") } } : a,
      ),
  },
  {
    flaw: "a constant ETag while the content changes every day",
    fails: "edition.etag-changes",
    pub: () => ({
      ...goodPublication(),
      edition: (q) => html(200, `<p>News for ${q.get("local_delivery_time")?.slice(0, 10)}</p>`, `"v1"`),
    }),
  },
  {
    flaw: "an ETag from the query minus the time, on a publication whose content is the same every day",
    fails: "edition.etag-daily",
    pub: () => ({
      ...goodPublication(),
      meta: { ...goodPublication().meta, send_delivery_count: false },
      edition: (q) => {
        const rest = new URLSearchParams(q);
        rest.delete("local_delivery_time");
        return html(200, "<p>Same every day.</p>", `"${Buffer.from(rest.toString()).toString("hex")}"`);
      },
    }),
  },
  {
    flaw: "a Content-Type with no charset",
    fails: "edition.charset",
    pub: () =>
      editionChanged((a) => (a.status === 200 ? { ...a, headers: { ...a.headers, "Content-Type": "text/html" } } : a)),
  },
  {
    flaw: "a 204 with a body",
    fails: "edition.no-body",
    pub: () =>
      editionChanged((a) =>
        a.status === 204
          ? { status: 204, headers: { "Content-Type": "text/plain", "Content-Length": "14" }, body: "Nothing today." }
          : a,
      ),
  },
  {
    flaw: "a 500 whenever delivery_count is present",
    fails: "edition.status",
    alsoFails: ["edition.bad-values"],
    pub: () =>
      editionChanged((a, q) =>
        q.has("delivery_count")
          ? { status: 500, headers: { "Content-Type": "text/plain" }, body: "TypeError: cannot read 'parts'" }
          : a,
      ),
  },
  {
    flaw: "a 400 for parameters it cannot read (delivery_count=abc, an impossible date)",
    fails: "edition.bad-values",
    pub: () =>
      editionChanged((a, q) => {
        const count = q.get("delivery_count");
        const time = q.get("local_delivery_time");
        const unreadable =
          (count !== null && !/^\d+$/.test(count)) || (time !== null && Number.isNaN(Date.parse(time)));
        return unreadable ? { status: 400, headers: { "Content-Type": "text/plain" }, body: "Bad Request" } : a;
      }),
  },
  {
    flaw: "a 204 with a body, only for parameters it cannot read",
    fails: "edition.no-body",
    pub: () =>
      editionChanged((a, q) =>
        /^\d*$/.test(q.get("delivery_count") ?? "")
          ? a
          : { status: 204, headers: { "Content-Length": "18" }, body: "bad delivery_count" },
      ),
  },
  {
    flaw: "a 200 with no charset, only for parameters it cannot read",
    fails: "edition.charset",
    pub: () =>
      editionChanged((a, q) =>
        a.status === 200 && !/^\d*$/.test(q.get("delivery_count") ?? "")
          ? { ...a, headers: { ...a.headers, "Content-Type": "text/html" } }
          : a,
      ),
  },
  {
    flaw: "a 500 on a missing setting (a subscriber who saved the form before the field existed)",
    fails: "edition.bad-values",
    pub: () =>
      editionChanged((a, q) => (q.has("lang") || q.size === 0 ? a : { status: 500, body: "KeyError: 'lang'" })),
  },
  {
    flaw: "a setting echoed into the page unescaped",
    fails: "edition.escapes",
    pub: () => ({
      ...goodPublication(),
      edition: (q) =>
        html(200, `<p>Hello ${q.get("name") ?? "friend"}</p>`, `"${Buffer.from(q.toString()).toString("hex")}"`),
    }),
  },
  {
    flaw: "a 304 to a request it has answered before (the platform never sends If-None-Match)",
    fails: "edition.status",
    alsoFails: ["edition.etag-stable"],
    pub: () => {
      const seen = new Set<string>();
      return editionChanged((a, q) => {
        const key = q.toString();
        if (a.status !== 200 || !seen.has(key)) return (seen.add(key), a);
        return { status: 304, headers: { ETag: a.headers?.ETag ?? "" } };
      });
    },
  },
  {
    flaw: '"valid" sent as the string "true"',
    fails: "subscribe.accepts-valid",
    pub: () => ({
      ...goodPublication(),
      validate: (c) => {
        const v = validateFake(c);
        return v.valid ? { valid: "true" } : v;
      },
    }),
  },
  {
    flaw: "errors sent as arrays rather than strings",
    fails: "subscribe.error-texts",
    pub: () => ({
      ...goodPublication(),
      validate: (c) => {
        const v = validateFake(c);
        return v.valid ? v : { valid: false, errors: v.errors?.map((e) => ["lang", e]) };
      },
    }),
  },
  {
    flaw: "a 410 for delivery_count 5 and a 200 again for 6 (content past the end)",
    fails: "edition.after-410",
    pub: () =>
      editionChanged((a, q) => {
        const count = Number(q.get("delivery_count") ?? 0);
        if (count === 5) return { status: 410 };
        return html(200, `<p>Part ${count}</p>`, `"${count}-${q.get("local_delivery_time")?.slice(0, 10)}"`);
      }),
  },
  {
    flaw: "a series that, once ended, answers 410 even to a fresh subscription",
    fails: "edition.resubscribe",
    pub: () => {
      let ended = false; // the flaw: "ended" kept for everyone, not per subscriber
      return editionChanged((a) => {
        if (a.status === 410) ended = true;
        return ended ? { status: 410 } : a;
      });
    },
  },
  {
    flaw: "an ETag that changes on every request",
    fails: "edition.etag-stable",
    pub: () => {
      let n = 0;
      return editionChanged((a) => (a.status === 200 ? { ...a, headers: { ...a.headers, ETag: `"${n++}"` } } : a));
    },
  },
  {
    flaw: "a bare edition/ that answers 204",
    fails: "edition.bare",
    pub: () => editionChanged((a, q) => ([...q.keys()].length === 0 ? { status: 204 } : a)),
  },
  {
    flaw: "a 200 with an empty body",
    fails: "edition.html-body",
    pub: () =>
      editionChanged((a, q) => (Number(q.get("delivery_count")) >= 3 && a.status === 200 ? { ...a, body: "" } : a)),
  },
  {
    flaw: "a validate_config/ that accepts anything",
    fails: "subscribe.rejects-invalid",
    pub: () => ({ ...goodPublication(), validate: () => ({ valid: true }) }),
  },
  {
    flaw: "a validate_config/ that crashes on a missing field",
    fails: "subscribe.empty-config",
    pub: () => ({
      ...goodPublication(),
      validate: (c) => {
        if (!("lang" in c)) throw new TypeError("lang is undefined");
        return validateFake(c);
      },
    }),
  },
  {
    flaw: "no owner_email in meta.json",
    fails: "meta.strings",
    pub: () => {
      const pub = goodPublication();
      delete pub.meta.owner_email;
      return pub;
    },
  },
  {
    flaw: "booleans written as strings in meta.json",
    fails: "meta.flags",
    pub: () => ({ ...goodPublication(), meta: { ...goodPublication().meta, send_delivery_count: "true" } }),
  },
  {
    flaw: "a <p> in the description",
    fails: "meta.description",
    pub: () => ({ ...goodPublication(), meta: { ...goodPublication().meta, description: "<p>Hello</p>" } }),
  },
  {
    flaw: "two config fields with the same name",
    fails: "meta.config-names",
    pub: () => {
      const pub = goodPublication();
      const fields = (pub.meta.config as { fields: unknown[] }).fields;
      fields.push({ type: "text", name: "name", label: "Nickname" });
      return pub;
    },
  },
  {
    flaw: "a 40x40 icon",
    fails: "meta.icon",
    pub: () => ({ ...goodPublication(), icon: makePng(40, 40) }),
  },
  {
    flaw: "an icon.png that is not a PNG",
    fails: "meta.icon",
    pub: () => ({ ...goodPublication(), icon: new TextEncoder().encode("<svg></svg>") }),
  },
  {
    flaw: "an all-white icon",
    fails: "meta.icon-drawn",
    pub: () => ({ ...goodPublication(), icon: makePng(55, 55, "white") }),
  },
  {
    flaw: "an all-black icon",
    fails: "meta.icon-drawn",
    pub: () => ({ ...goodPublication(), icon: makePng(55, 55, "black") }),
  },
];

describe("a publication with one flaw fails exactly the check for it", () => {
  for (const { flaw, fails, alsoFails = [], pub } of FLAWS) {
    it(`${flaw}: ${[fails, ...alsoFails].join(", ")}`, async () => {
      const report = await check(pub());
      expect(withStatus(report, "fail")).toEqual([fails, ...alsoFails]);
      expect(find(report, fails).request).toMatch(/^(GET|POST) http:\/\/127\.0\.0\.1:\d+\/pub\//);
      expect(report.ok).toBe(false);
    });
  }
});

describe("flaws that are warnings", () => {
  const WARNINGS: Flaw[] = [
    {
      flaw: "meta.json served as text/json",
      fails: "meta.content-type",
      pub: () => ({ ...goodPublication(), metaContentType: "text/json" }),
    },
    {
      flaw: "a 55x54 icon, one pixel off",
      fails: "meta.icon",
      pub: () => ({ ...goodPublication(), icon: makePng(55, 54) }),
    },
    { flaw: "no icon at all", fails: "meta.icon", pub: () => ({ ...goodPublication(), icon: undefined }) },
    {
      // it prints as dither patterns, so it shows: not blank, but not crisp either
      flaw: "a grey icon (stripes of two mid-greys, no black against white)",
      fails: "meta.icon-drawn",
      pub: () => ({ ...goodPublication(), icon: makePng(55, 55, "grey stripes") }),
    },
    {
      flaw: "a different answer to a multipart post",
      fails: "subscribe.multipart",
      pub: () => ({
        ...goodPublication(),
        validate: (c, type) =>
          type.startsWith("multipart/") ? { valid: false, errors: ["No config given."] } : validateFake(c),
      }),
    },
    {
      flaw: "no answer at /edition without the slash",
      fails: "edition.no-slash",
      pub: () => ({ ...goodPublication(), noSlash: () => ({ status: 404 }) }),
    },
  ];
  for (const { flaw, fails, pub } of WARNINGS) {
    it(`${flaw}: ${fails} warns and nothing fails`, async () => {
      const report = await check(pub());
      expect(withStatus(report, "warn")).toEqual([fails]);
      expect(withStatus(report, "fail")).toEqual([]);
      expect(report.ok).toBe(true);
    });
  }

  it("--strict turns the warning into a failure", async () => {
    const report = await check({ ...goodPublication(), metaContentType: "text/json" }, { strict: true });
    expect(withStatus(report, "fail")).toEqual(["meta.content-type"]);
    expect(find(report, "meta.content-type").detail).toMatch(/--strict/);
    expect(report.ok).toBe(false);
  });

  it("text/html for meta.json is a failure, not a warning", async () => {
    const report = await check({ ...goodPublication(), metaContentType: "text/html" });
    expect(withStatus(report, "fail")).toEqual(["meta.content-type"]);
  });
});

describe("publications that cannot be checked at all", () => {
  it("meta.json with a trailing comma: a FAIL naming the JSON error, the rest skipped", async () => {
    const report = await check({ ...goodPublication(), metaText: '{"name": "Fake",}' });
    expect(withStatus(report, "fail")).toEqual(["meta.json"]);
    expect(find(report, "meta.json").detail).toMatch(/not valid JSON/);
    expect(find(report, "edition.status").status).toBe("skip");
  });

  it("meta.json redirecting to another host: not followed, a FAIL saying where it points", async () => {
    const report = await check({
      ...goodPublication(),
      route: (path) =>
        path === "/pub/meta.json"
          ? { status: 302, headers: { Location: "http://localhost:9/pub/meta.json" } }
          : undefined,
    });
    expect(withStatus(report, "fail")).toEqual(["meta.reachable"]);
    expect(find(report, "meta.reachable").detail).toBe(
      "redirects to another host (http://localhost:9/pub/meta.json); not followed: give the checker the final URL",
    );
  });

  it("meta.json redirecting on the same host is followed", async () => {
    const report = await check(
      {
        ...goodPublication(),
        route: (path) =>
          path === "/old/meta.json" ? { status: 301, headers: { Location: "/pub/meta.json" } } : undefined,
      },
      { base: "old/" },
    );
    expect(find(report, "meta.reachable")).toMatchObject({
      status: "pass",
      detail: expect.stringMatching(/^answered 200 \(after 301 -> http:\/\/127\.0\.0\.1:\d+\/pub\/meta\.json\)$/),
    });
  });

  it("no validate_config/ at all: the subscribing checks fail with what came back", async () => {
    const report = await check({
      ...goodPublication(),
      route: (path) => (path === "/pub/validate_config/" ? { status: 404, body: "Not found" } : undefined),
    });
    expect(withStatus(report, "fail")).toEqual([
      "subscribe.accepts-valid",
      "subscribe.rejects-invalid",
      "subscribe.empty-config",
    ]);
    expect(find(report, "subscribe.accepts-valid").detail).toBe(
      'answered 404 with something other than a JSON object: "Not found"',
    );
    expect(find(report, "subscribe.multipart").status).toBe("skip");
  });

  it("an edition/ that never answers odd parameters: two timeouts, then the odd requests stop", async () => {
    let unanswered = 0;
    // Long enough for every other answer on a loaded machine: only the odd requests time out.
    const report = await check(
      {
        ...goodPublication(),
        edition: (q) => {
          if (/^\d*$/.test(q.get("delivery_count") ?? "")) return fakeEdition(q);
          unanswered++;
          return new Promise(() => {});
        },
      },
      { timeoutMs: 2000 },
    );
    expect(withStatus(report, "fail")).toEqual(["edition.bad-values"]);
    expect(find(report, "edition.bad-values").detail).toMatch(/no answer within 2 s \(2 of 2\)$/);
    // Asked no more odd values after two timeouts (counted, not timed: the machine may be busy).
    expect(unanswered).toBe(2);
  });

  it("a server that accepts connections but never answers: a FAIL within the timeout", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const report = await runCheck({
        base: `http://127.0.0.1:${port}/pub/`,
        days: 14,
        hour: 6,
        zones: ["UTC"],
        timeoutMs: 300,
        config: {},
        strict: false,
      });
      expect(find(report, "meta.reachable")).toMatchObject({
        status: "fail",
        detail: "no answer: no answer within 0.3 s",
      });
      expect(withStatus(report, "fail")).toEqual(["meta.reachable"]);
      // The report ends saying how to give a server that is only slow here more time.
      expect(formatReport(report)).toMatch(/NOT READY: .*\nSome requests had no answer in time\. .* --timeout SECONDS/);
      // One connection, meta.json's: nothing else is asked of a server that never answers (counted, not timed).
      expect(sockets.length).toBe(1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
