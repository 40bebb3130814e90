// Who the subscribe page's rate limit counts (lib/platform/subscribing/rate-limit.ts): an
// IPv4 address, an IPv6 /64, an IPv4-mapped address as its IPv4 address; and
// what a refused try leaves in the store (nothing).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowTry, rateClient } from "../../lib/platform/subscribing/rate-limit.ts";
import { fileStore } from "../../lib/platform/stores/state-store.ts";

describe("rateClient", () => {
  it("is an IPv4 address, an IPv6 /64 however it is spelled, or what it was given", () => {
    expect(rateClient("192.0.2.1")).toBe("192.0.2.1");
    expect(rateClient("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(rateClient("::FFFF:c000:0201")).toBe("192.0.2.1");
    expect(rateClient("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(rateClient("2001:0DB8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(rateClient("2001:db8:1:2::")).toBe("2001:db8:1:2::/64");
    expect(rateClient("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(rateClient("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(rateClient("::1")).toBe("0:0:0:0::/64");
    expect(rateClient("unknown")).toBe("unknown");
  });
});

describe("allowTry", () => {
  it("counts a /64 once an hour, and writes nothing for a refused try", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "littlepress-rate-"));
    try {
      const store = fileStore(folder);
      const limit = { action: "subscribe", perHour: 3 };
      const at = new Date("2026-12-01T09:30:00Z");
      const secret = Buffer.alloc(32, 7);
      const answers = [];
      for (let i = 1; i <= 50; i++)
        answers.push(await allowTry(store, limit, `2001:db8::${i.toString(16)}`, secret, at));
      expect(answers.filter(Boolean)).toHaveLength(3);
      const keys = await store.list("limits/");
      expect(keys).toHaveLength(1);
      const { version } = (await store.get(keys[0]!))!;
      expect(await allowTry(store, limit, "2001:db8::ffff", secret, at)).toBe(false);
      expect((await store.get(keys[0]!))!.version).toBe(version);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
