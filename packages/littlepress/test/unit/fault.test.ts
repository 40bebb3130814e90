// The functions' one error boundary (lib/edge/fault.ts): a fault is answered
// as the function says, and logged in a line that keeps what failed and where,
// without a print key, a token or any URL's path.
import { afterEach, describe, expect, it, vi } from "vitest";
import { faultWords, withFaultBoundary } from "../../lib/edge/fault.ts";

const PRINT_KEY = "https://user:secret@printer.example/printkey/a1b2c3d4e5f6a7b8c9d0?token=xyz";

describe("faultWords", () => {
  it("keeps the error's name, its message and where it was thrown", () => {
    const words = faultWords(new RangeError("no shard for 2026-11-27 in news"));
    expect(words).toMatch(/^RangeError: no shard for 2026-11-27 in news \(at unit\/fault\.test\.ts:\d+\)$/);
  });

  it("cuts a URL to its origin and masks long tokens", () => {
    const words = faultWords(new TypeError(`fetch ${PRINT_KEY} failed; key Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==`));
    expect(words).toContain("fetch https://printer.example/… failed; key …");
    for (const secret of ["secret", "printkey", "a1b2c3", "token", "Zm9v"]) expect(words).not.toContain(secret);
  });

  it("keeps file paths and ordinary words, which name what failed", () => {
    const message = "ENOENT: no such file or directory, open '/var/task/_site_data/deliver-background/index.json'";
    expect(faultWords(new Error(message))).toContain(message);
  });

  it("says what was thrown when it is not an Error", () => {
    expect(faultWords("a string")).toBe("a thrown string");
    expect(faultWords(undefined)).toBe("a thrown undefined");
  });
});

describe("withFaultBoundary", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers a throw with the function's own answer and one log line without the request's secrets", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const handler = withFaultBoundary(
      "subscribe",
      (req) => Promise.reject(new Error(`could not reach ${new URL(req.url).searchParams.get("key")}`)),
      () => new Response("try again", { status: 500 }),
    );
    const res = await handler(new Request(`http://127.0.0.1/subscribe/?key=${encodeURIComponent(PRINT_KEY)}`));
    expect([res.status, await res.text()]).toEqual([500, "try again"]);
    expect(logged).toHaveBeenCalledTimes(1);
    const line = String(logged.mock.calls[0]![0]);
    expect(line).toMatch(/^subscribe: internal fault: Error: could not reach https:\/\/printer\.example\/…/);
    expect(line).not.toContain("secret");
    expect(line).not.toContain("a1b2c3");
  });

  it("passes an answer through untouched", async () => {
    const handler = withFaultBoundary(
      "edition",
      () => Promise.resolve(new Response("ok")),
      () => new Response(null, { status: 204 }),
    );
    expect(await (await handler(new Request("http://127.0.0.1/edition/"))).text()).toBe("ok");
  });
});
