// Property tests: whatever a request sends, the functions stay within the
// contract and do not leak, crash or remember. Runs against the example site (test/fixtures/examples).
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import * as edition from "../../functions/edition.mts";
import * as sample from "../../functions/sample.mts";
import * as validateConfig from "../../functions/validate_config.mts";
import { BASE, callFunction, siteContext, useSite } from "../helpers/handlers.ts";
import { configBody, headers, method, queryString, RUNS } from "./arbitraries.ts";

beforeAll(() => useSite("examples"));

// Time for one property, a bound on a hang: 10,000 runs take 3-9 s alone, 85-94 s in CI beside the rest of the
// suite, and more than 130 s on a busier machine (a CPU-bound process beside CI), which failed the test as late.
const TIMEOUT = 60_000 + RUNS * 30;

const EDITION_PATHS = [
  "/good-morning/edition/",
  "/lighthouse/edition",
  "/almanac/edition/",
  "/edition/",
  "/nope/edition/",
];
const editionPath = fc.constantFrom(...EDITION_PATHS, "/good-morning/sample/", "/lighthouse/sample");
const handlerFor = (path: string) => (path.includes("/sample") ? sample : edition);

// Markers that no example page contains: if one shows up, subscriber text went out unescaped.
const INJECTED = ["<script>alert(1)</script>", "<img src=x onerror", "\u27E6littlepress"];

async function call(path: string, query: string, m: string, h: Record<string, string>) {
  const req = new Request(`${BASE}${path}?${query}`, {
    method: m,
    headers: h,
    body: m === "GET" || m === "HEAD" ? undefined : "x=1",
  });
  return callFunction(handlerFor(path), req, siteContext);
}

describe(`/edition/ and /sample/ under ${RUNS} hostile requests per property`, () => {
  it(
    "answer only 200, 204 or 410, never throw, and a 200 has a quoted ETag and a charset",
    async () => {
      await fc.assert(
        fc.asyncProperty(editionPath, queryString, method, headers, async (path, query, m, h) => {
          const res = await call(path, query, m, h);
          expect([200, 204, 410]).toContain(res.status);
          const body = await res.text();
          if (res.status === 200) {
            expect(res.headers.get("etag")).toMatch(/^"[^"]+"$/);
            expect(res.headers.get("content-type")).toMatch(/^text\/html; charset=[\w-]+$/);
            if (m !== "HEAD") expect(body.length).toBeGreaterThan(0);
          } else expect(body).toBe("");
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "never put subscriber text into the page unescaped",
    async () => {
      await fc.assert(
        fc.asyncProperty(editionPath, queryString, async (path, query) => {
          const res = await call(path, query, "GET", {});
          const body = await res.text();
          for (const marker of INJECTED) expect(body).not.toContain(marker);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe(`/validate_config/ under ${RUNS} hostile requests per property`, () => {
  it(
    "always answers JSON of the documented shape, with a boolean valid",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("/good-morning/validate_config/", "/lighthouse/validate_config", "/nope/validate_config/"),
          configBody,
          method,
          async (path, { type, body }, m) => {
            const withBody = m !== "GET" && m !== "HEAD";
            const res = await callFunction(
              validateConfig,
              new Request(BASE + path, {
                method: m,
                headers: type ? { "content-type": type } : {},
                body: withBody ? body : undefined,
              }),
              siteContext,
            );
            expect([200, 400, 404, 405, 413]).toContain(res.status);
            expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
            if (m === "HEAD") return; // Netlify, like any server, sends a HEAD answer's headers only
            const json = (await res.json()) as Record<string, unknown>;
            expect(typeof json.valid).toBe("boolean");
            if (json.valid) expect(json).toEqual({ valid: true });
            else {
              expect(Object.keys(json).sort()).toEqual(["errors", "valid"]);
              expect((json.errors as unknown[]).length).toBeGreaterThan(0);
              for (const e of json.errors as unknown[]) expect(typeof e).toBe("string");
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("no request changes what the next one sees", () => {
  const REFERENCE = [
    ["/good-morning/edition/", "local_delivery_time=2026-11-22T07%3A00%3A00Z&lang=fr&name=Ada"],
    ["/lighthouse/edition/", "delivery_count=3"],
    ["/almanac/edition/", "local_delivery_time=2026-11-23T06%3A00%3A00-08%3A00"],
  ] as const;
  const snapshot = () =>
    Promise.all(
      REFERENCE.map(async ([path, query]) => {
        const res = await call(path, query, "GET", {});
        return { status: res.status, etag: res.headers.get("etag"), body: await res.text() };
      }),
    );
  const validConfig = () =>
    callFunction(
      validateConfig,
      new Request(`${BASE}/good-morning/validate_config/`, {
        method: "POST",
        body: new URLSearchParams({ config: '{"lang":"en"}' }),
      }),
      siteContext,
    ).then((r) => r.json());

  it(
    `after ${RUNS} random requests of both kinds, the reference answers are byte for byte the same`,
    async () => {
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(editionPath, queryString, configBody, async (path, query, { type, body }) => {
          await call(path, query, "GET", {});
          await callFunction(
            validateConfig,
            new Request(`${BASE}/good-morning/validate_config/`, {
              method: "POST",
              headers: { "content-type": type },
              body,
            }),
            siteContext,
          );
        }),
        { numRuns: RUNS },
      );
      expect(await snapshot()).toEqual(before);
      expect(await validConfig()).toEqual({ valid: true });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, "lang")).toBe(false);
    },
    TIMEOUT * 2,
  );
});
