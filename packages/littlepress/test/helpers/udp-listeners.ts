// Counters of what reaches a port without HTTP: UDP datagrams (WebRTC's STUN
// and ICE checks, QUIC, DNS) and TCP connections (TURN over TCP), on 127.0.0.1
// and on an address that is not loopback. The second is a network namespace of
// our own joined to this one by a veth pair, as a home machine's LAN interface
// is: Chromium gathers candidates only on interfaces besides loopback, so a
// page's UDP shows only where there is one. A namespace can also have its own
// resolv.conf (ip netns exec mounts /etc/netns/<name>/resolv.conf), so that a
// Chromium started in it asks a DNS counter of ours. Needs root (ip netns);
// close() deletes the namespace, the pair with it, and its /etc/netns folder.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createSocket, type Socket } from "node:dgram";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
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

const ip = (...args: string[]) => execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });

/** A network namespace of our own, its loopback up; deleted (with anything in it) by close(). */
export function networkNamespace(): { name: string; close(): void } {
  const name = `lp-ns-${process.pid % 10000}x${randomInt(10000)}`;
  try {
    ip("netns", "add", name);
  } catch (error) {
    const { stderr, message } = error as { stderr?: Buffer; message: string };
    const said = stderr?.length ? stderr.toString().trim() : message;
    throw new Error(`these tests make a network namespace, as root, with iproute2's ip: ${said}`, { cause: error });
  }
  const close = () => {
    ip("netns", "del", name);
    rmSync(`/etc/netns/${name}`, { recursive: true, force: true });
  };
  try {
    ip("-n", name, "link", "set", "lo", "up");
  } catch (error) {
    close();
    throw error;
  }
  return { name, close };
}

/**
 * A UDP counter at 10.200.N.M+2 inside a namespace of our own, reached from this
 * one over a veth pair whose near end is 10.200.N.M+1 (a /30: nothing else is routed there).
 */
export async function namespaceUdp(): Promise<Counter> {
  const ns = networkNamespace();
  const [near, far] = [`${ns.name}a`, `${ns.name}b`].map((n) => n.replace("lp-ns-", "lpv"));
  // One /30 of 10.200.0.0/16 at random (16,000 of them): two runs at once take the same one once in thousands.
  const [third, block] = [randomInt(1, 255), randomInt(0, 64) * 4];
  const [nearIp, farIp] = [`10.200.${third}.${block + 1}`, `10.200.${third}.${block + 2}`];
  try {
    ip("link", "add", near!, "type", "veth", "peer", "name", far!);
    ip("link", "set", far!, "netns", ns.name);
    ip("addr", "add", `${nearIp}/30`, "dev", near!);
    ip("link", "set", near!, "up");
    ip("-n", ns.name, "addr", "add", `${farIp}/30`, "dev", far!);
    ip("-n", ns.name, "link", "set", far!, "up");
    return await udpInside(ns, farIp, 0);
  } catch (error) {
    ns.close();
    throw error;
  }
}

/**
 * A DNS server of sorts in a namespace of our own: 127.0.0.1:53 there, named by
 * the namespace's resolv.conf, counting the queries it gets (it answers none).
 * `exec` starts a program inside the namespace, as a wrapper script for Chromium's executablePath.
 */
export async function namespaceDns(): Promise<Counter & { exec: string }> {
  const ns = networkNamespace();
  try {
    mkdirSync(`/etc/netns/${ns.name}`, { recursive: true });
    writeFileSync(`/etc/netns/${ns.name}/resolv.conf`, "nameserver 127.0.0.1\n");
    const counter = await udpInside(ns, "127.0.0.1", 53);
    return { ...counter, exec: `ip netns exec ${ns.name}` };
  } catch (error) {
    ns.close();
    throw error;
  }
}

/** Run inside the namespace: binds UDP where it is told, prints its port, then a line a datagram. */
const COUNTER = `
const s = require("node:dgram").createSocket("udp4");
s.on("message", () => process.stdout.write("d\\n"));
s.bind(Number(process.argv[2]), process.argv[1], () => process.stdout.write("port " + s.address().port + "\\n"));
`;

/** A UDP counter at `host`:`port` (0: any) inside `ns`; its close() deletes the namespace. */
async function udpInside(ns: { name: string; close(): void }, host: string, port: number): Promise<Counter> {
  const child = spawn("ip", ["netns", "exec", ns.name, process.execPath, "-e", COUNTER, host, String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
    }
    ns.close();
  };
  try {
    return { ...(await counting(child, host)), close };
  } catch (error) {
    await close();
    throw error;
  }
}

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
