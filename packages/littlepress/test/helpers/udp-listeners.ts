// Counters of what reaches a port without HTTP: UDP datagrams (WebRTC's STUN
// and ICE checks, QUIC) and TCP connections (TURN over TCP), on 127.0.0.1 and
// on an address that is not loopback. The second is a network namespace of our
// own joined to this one by a veth pair, as a home machine's LAN interface is:
// Chromium gathers candidates only on interfaces besides loopback, so a page's
// UDP shows only where there is one. Needs root (ip netns); the namespace, and
// the pair with it, are deleted by close().
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server } from "node:net";
import { randomInt } from "node:crypto";

export interface Counter {
  /** The address and port it listens on. */
  host: string;
  port: number;
  /** Datagrams (or connections) seen so far. */
  count(): number;
  close(): Promise<void>;
}

/** A UDP socket on 127.0.0.1 that counts the datagrams it receives. */
export async function loopbackUdp(): Promise<Counter> {
  const socket: Socket = createSocket("udp4");
  let seen = 0;
  socket.on("message", () => seen++);
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve()));
  return {
    host: "127.0.0.1",
    port: socket.address().port,
    count: () => seen,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A TCP listener on 127.0.0.1 that counts the connections made to it and closes each. */
export async function loopbackTcp(): Promise<Counter> {
  let seen = 0;
  const server: Server = createServer((socket) => {
    seen++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    host: "127.0.0.1",
    port: (server.address() as { port: number }).port,
    count: () => seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A UDP counter at 10.200.N.2 inside a namespace of our own, reached from this
 * one over a veth pair whose near end is 10.200.N.1 (a /30: nothing else is routed there).
 */
export async function namespaceUdp(): Promise<Counter> {
  const id = `${process.pid % 10000}x${randomInt(1000)}`;
  const ns = `lp-udp-${id}`;
  const near = `lpu${id}a`;
  const far = `lpu${id}b`;
  const net = `10.200.${randomInt(1, 254)}`;
  const ip = (...args: string[]) => execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
  ip("netns", "add", ns);
  let child: ChildProcess | undefined;
  try {
    ip("link", "add", near, "type", "veth", "peer", "name", far);
    ip("link", "set", far, "netns", ns);
    ip("addr", "add", `${net}.1/30`, "dev", near);
    ip("link", "set", near, "up");
    ip("-n", ns, "addr", "add", `${net}.2/30`, "dev", far);
    ip("-n", ns, "link", "set", far, "up");
    child = spawn("ip", ["netns", "exec", ns, process.execPath, "-e", COUNTER, `${net}.2`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const counter = await counting(child, `${net}.2`);
    return { ...counter, close: () => stop(child!, ns) };
  } catch (error) {
    if (child) await stop(child, ns);
    else execFileSync("ip", ["netns", "del", ns]);
    throw error;
  }
}

/** Run inside the namespace: binds UDP on the address it is given, prints its port, then a line a datagram. */
const COUNTER = `
const s = require("node:dgram").createSocket("udp4");
s.on("message", () => process.stdout.write("d\\n"));
s.bind(0, process.argv[1], () => process.stdout.write("port " + s.address().port + "\\n"));
`;

function counting(child: ChildProcess, host: string): Promise<Omit<Counter, "close">> {
  let seen = 0;
  let buffered = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the namespace's UDP counter exited (${code})`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line === "d") seen++;
        const port = /^port (\d+)$/.exec(line);
        if (port) resolve({ host, port: Number(port[1]), count: () => seen });
      }
    });
  });
}

async function stop(child: ChildProcess, ns: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await exited;
  }
  // Deleting the namespace deletes the far end of the pair, and with it the near end.
  execFileSync("ip", ["netns", "del", ns]);
}
