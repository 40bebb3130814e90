// WebRTC is a way out that the renderer's request rules cannot see: a page's
// RTCPeerConnection sends STUN requests to the servers it names and ICE checks
// to the candidates it is given, as UDP from every interface, carrying what
// the page likes (here its ICE username). Rendered as the print tools render
// it, the page below names a UDP port on 127.0.0.1 and one on an address that
// is not loopback (a namespace of our own, over a veth pair), and a TURN
// server over TCP on 127.0.0.1; it opens WebTransport sessions (QUIC) to the
// two UDP ports as well. With the tools' Chromium none of them sees a
// thing; the same page in a Chromium without --webrtc-ip-handling-policy
// reaches both UDP ports, so the test can see what it says is not there.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, launchChromium } from "../../scripts/browser.ts";
import { PaperRenderer } from "../../scripts/preview/render.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { PAGE_MS } from "../helpers/page-time.ts";
import { loopbackTcp, loopbackUdp, namespaceUdp, type Counter } from "../helpers/udp-listeners.ts";

const header = { at: new Date("2026-11-23T06:00:00Z"), from: "Chatty", timeZone: "UTC" };
// Two Chromiums each started, rendering and waiting: 23 s in a CI run, past 60 s in a loaded one.
const TIMEOUT = 180_000;

let udp: Counter;
let lan: Counter;
let turn: Counter;

/** An ordinary-looking edition whose script offers a data channel and answers itself with our ports as the peer. */
function chattyEdition(): string {
  const candidate = (c: Counter, n: number) =>
    `a=candidate:${n} 1 udp ${2122260223 - n} ${c.host} ${c.port} typ host generation 0`;
  return `<h1>Weather</h1><p>Bright, then rain.</p>
<script>
  (async () => {
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: ["stun:${udp.host}:${udp.port}", "stun:${lan.host}:${lan.port}"] },
      { urls: "turn:${turn.host}:${turn.port}?transport=tcp", username: "u", credential: "p" },
    ] });
    pc.createDataChannel("leak");
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    const answer = offer.sdp
      .replace("a=setup:actpass", "a=setup:active")
      .replace(/a=ice-ufrag:.*/, "a=ice-ufrag:PAGESECRET")
      .trimEnd() + "\\r\\n${candidate(udp, 1)}\\r\\n${candidate(lan, 2)}\\r\\n";
    await pc.setRemoteDescription({ type: "answer", sdp: answer });
    window.pc = pc;
  })().catch((e) => document.body.append(String(e)));
  // WebTransport is QUIC, UDP too: Chromium runs without QUIC, and the page's policy allows no connection.
  for (const host of ["${udp.host}:${udp.port}", "${lan.host}:${lan.port}"])
    try { new WebTransport("https://" + host + "/").ready.catch(() => {}); } catch {}
</script>`;
}

/**
 * Renders the edition in `browser` as print does, then leaves the page open (as print-server does) while UDP could go.
 */
async function renderAndWait(browser: Browser, until: () => boolean, ms: number): Promise<void> {
  const renderer = await PaperRenderer.open(browser, undefined, PAGE_MS);
  try {
    await renderer.renderHtml(chattyEdition(), header);
    const end = Date.now() + ms;
    while (!until() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await renderer.close();
  }
}

beforeAll(async () => {
  [udp, turn, lan] = await Promise.all([loopbackUdp(), loopbackTcp(), namespaceUdp()]);
}, TIMEOUT);

afterAll(async () => {
  await Promise.all([udp?.close(), turn?.close(), lan?.close()]);
});

describe("a page that opens an RTCPeerConnection", () => {
  it(
    "sends nothing, to loopback or to the LAN, from the tools' Chromium",
    async () => {
      // The control: the same page, in a Chromium without the flag, reaches both addresses.
      const open = await launchChromium({
        args: CHROMIUM_ARGS.filter((a) => !a.startsWith("--webrtc-ip-handling-policy")),
      });
      const started = Date.now();
      try {
        await renderAndWait(open, () => udp.count() > 0 && lan.count() > 0, 10_000);
      } finally {
        await open.close();
      }
      const took = Date.now() - started;
      expect(udp.count()).toBeGreaterThan(0);
      expect(lan.count()).toBeGreaterThan(0);

      const [udpBefore, lanBefore, turnBefore] = [udp.count(), lan.count(), turn.count()];
      // Given twice the control's time, at least 3 s and at most 10 s (the control's limit), to send anything.
      await renderAndWait(await workerBrowser(), () => false, Math.min(10_000, Math.max(3000, 2 * took)));
      expect(udp.count() - udpBefore).toBe(0);
      expect(lan.count() - lanBefore).toBe(0);
      expect(turn.count() - turnBefore).toBe(0);
    },
    TIMEOUT,
  );
});
