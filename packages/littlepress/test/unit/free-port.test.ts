// `npm start` picks its port before its first build and listens only after it (scripts/start.ts).
// The check must not listen on a port a client may already be trying: a probe that listened for a
// moment accepted such a connection and reset it, and start-first-build.test.ts once saw that reset.
import { createServer, Server, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { freePort } from "../../scripts/cli.ts";

async function listening(port = 0): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;
const closed = (server: Server) => new Promise((resolve) => server.close(resolve));

afterEach(() => vi.restoreAllMocks());

describe("freePort", () => {
  it("answers a port it was given and nothing holds, without ever listening on it", async () => {
    const taken = await listening();
    const port = portOf(taken);
    await closed(taken);
    const listen = vi.spyOn(Server.prototype, "listen");
    expect(await freePort(port)).toBe(port);
    expect(listen).not.toHaveBeenCalled();
  });

  it("says a port another program listens on is in use, and how to pick another", async () => {
    const other = await listening();
    try {
      await expect(freePort(portOf(other))).rejects.toThrow(
        `port ${portOf(other)} on 127.0.0.1 is in use by another program; pick another with --port`,
      );
    } finally {
      await closed(other);
    }
  });

  it("for port 0, answers a port the system picked that is free to listen on", async () => {
    const port = await freePort(0);
    expect(port).toBeGreaterThan(0);
    await closed(await listening(port));
  });
});
