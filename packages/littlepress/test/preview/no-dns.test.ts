// A name looked up is a message to whoever answers the machine's DNS: a page
// could spell what it likes into a host name (a link's prefetch, a WebRTC or
// TURN server's name), and Chromium itself looked up update.googleapis.com
// at every start. The tools' Chromium resolves no name at all (CHROMIUM_ARGS'
// --host-resolver-rules): every request of a page is answered by the
// renderer's routes, and the proxy and the local servers are IP addresses.
// Chromium is started in a namespace of our own whose resolv.conf names a DNS
// counter there; a control Chromium without the rule is seen asking it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, launchChromium } from "../../scripts/browser.ts";
import { PaperRenderer } from "../../scripts/preview/render.ts";
import { PAGE_MS } from "../helpers/page-time.ts";
import { namespaceDns, type Counter } from "../helpers/udp-listeners.ts";

const header = { at: new Date("2026-11-23T06:00:00Z"), from: "Names", timeZone: "UTC" };
// Two Chromiums each started, rendering and waiting: 25 s in a CI run, past 60 s in a loaded one.
const TIMEOUT = 180_000;
const dir = mkdtempSync(path.join(tmpdir(), "littlepress-dns-"));
let dns: Counter & { exec: string };
let inNamespace: string;

/** A page that names hosts every way it can without a request the routes would see first. */
const EDITION = `<link rel="dns-prefetch" href="//secret-one.example">
<link rel="preconnect" href="https://secret-two.example">
<a href="https://secret-three.example/">more</a>
<script>
  try {
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: "stun:secret-four.example:3478" },
      { urls: "turn:secret-five.example:3478?transport=tcp", username: "u", credential: "p" },
    ] });
    pc.createDataChannel("x");
    pc.createOffer().then((o) => pc.setLocalDescription(o));
    window.pc = pc;
  } catch {}
</script><p>Names.</p>`;

/** Starts Chromium in the namespace with `args`, renders the page as print does, and waits `ms` with it open. */
async function renderIn(args: readonly string[], until: () => boolean, ms: number): Promise<void> {
  const browser: Browser = await launchChromium({ args, executablePath: inNamespace });
  try {
    const renderer = await PaperRenderer.open(browser, undefined, PAGE_MS);
    try {
      await renderer.renderHtml(EDITION, header);
      const end = Date.now() + ms;
      while (!until() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await renderer.close();
    }
  } finally {
    await browser.close();
  }
}

beforeAll(async () => {
  dns = await namespaceDns();
  inNamespace = path.join(dir, "chromium");
  writeFileSync(inNamespace, `#!/bin/sh\nexec ${dns.exec} ${CHROMIUM} "$@"\n`, { mode: 0o755 });
}, TIMEOUT);

afterAll(async () => {
  await dns?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the tools' Chromium", () => {
  it(
    "looks up no name, its own or a page's",
    async () => {
      const started = Date.now();
      await renderIn(
        CHROMIUM_ARGS.filter((a) => !a.startsWith("--host-resolver-rules")),
        () => dns.count() > 0,
        10_000,
      );
      expect(dns.count()).toBeGreaterThan(0);
      const before = dns.count();
      await renderIn(CHROMIUM_ARGS, () => false, Math.min(10_000, Math.max(3000, 2 * (Date.now() - started))));
      expect(dns.count() - before).toBe(0);
    },
    TIMEOUT,
  );
});
