// What a platform function runs with (lib/platform/runtime.ts): built once per
// source of settings (the environment deployed, a local server's LocalSite),
// its state made fresh on each call (Netlify hands a function its Blobs
// context with each invocation), and handed to a handler by the one adapter
// (platform-function.ts), behind the function's error boundary.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { LocalSite } from "../../lib/edge/site-folder.ts";
import { platformFunction } from "../../lib/platform/platform-function.ts";
import { platformRuntime, type PlatformRuntime } from "../../lib/platform/runtime.ts";

const work = mkdtempSync(path.join(tmpdir(), "littlepress-runtime-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const KEY = randomBytes(32);
const sealKey = KEY.toString("base64");
const req = new Request("https://preview--press.netlify.app/news/subscribe/");

describe("platformRuntime", () => {
  it("is built once per local server's settings, and once per environment", () => {
    const local: LocalSite = { site: path.join(work, "site"), state: path.join(work, "state") };
    expect(platformRuntime({ littlepress: local })).toBe(platformRuntime({ littlepress: local, ip: "192.0.2.1" }));
    expect(platformRuntime({ littlepress: { ...local } })).not.toBe(platformRuntime({ littlepress: local }));
    const env = { URL: "https://press.example", LITTLEPRESS_SEAL_KEY: sealKey };
    expect(platformRuntime(undefined, env)).toBe(platformRuntime({ ip: "192.0.2.1" }, env));
  });

  it("deployed, reads the site's address and key from the environment, and makes its state on each call", () => {
    const runtime = platformRuntime(undefined, { URL: "https://press.example", LITTLEPRESS_SEAL_KEY: sealKey });
    expect(runtime.origin).toBe("https://press.example");
    expect(runtime.originFor(req)).toBe("https://press.example");
    // A request is asked about where it reached the site: a deploy preview asks its own files.
    expect(runtime.askedAt(req)).toBe("https://preview--press.netlify.app");
    expect(runtime.histories).toBeUndefined();
    const [one, two] = [runtime.state(), runtime.state()];
    expect(one).toMatchObject({ sealKey: KEY });
    expect(one).not.toBe(two);
  });

  it("deployed without LITTLEPRESS_SEAL_KEY, says what to set", () => {
    expect(platformRuntime(undefined, {}).state()).toEqual({
      error: "LITTLEPRESS_SEAL_KEY is not set: set it in the site's environment variables",
    });
  });

  it("under the local server, asks its own address, learnt once it listens, whatever Host a client sent", () => {
    const local: LocalSite = { site: path.join(work, "site"), state: path.join(work, "state"), history: true };
    const runtime = platformRuntime({ littlepress: local }, { URL: "https://press.example" });
    local.origin = "http://127.0.0.1:8080";
    expect(runtime.origin).toBe("http://127.0.0.1:8080");
    expect(runtime.askedAt(req)).toBe("http://127.0.0.1:8080");
    expect(runtime.site).toBe(local.site);
    expect(runtime.histories).toBe(local.state);
  });
});

describe("platformFunction", () => {
  it("hands the handler its runtime, and answers a throw with the function's answer, logged in one line", async () => {
    const local: LocalSite = { site: path.join(work, "site") };
    const seen: PlatformRuntime[] = [];
    const handler = platformFunction(
      "test",
      (request, runtime) => {
        seen.push(runtime);
        if (request.method === "POST") return Promise.reject(new Error("it broke"));
        return Promise.resolve(new Response("ok"));
      },
      () => new Response("sorry", { status: 500 }),
    );
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      expect(await (await handler(req, { littlepress: local })).text()).toBe("ok");
      const failed = await handler(new Request(req, { method: "POST" }), { littlepress: local });
      expect([failed.status, await failed.text()]).toEqual([500, "sorry"]);
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/^test: internal fault: Error: it broke/),
      ]);
    } finally {
      errors.mockRestore();
    }
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toBe(platformRuntime({ littlepress: local }));
  });
});
