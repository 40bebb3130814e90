// Which addresses a print key may reach without its service being listed as
// private (lib/model/addresses.ts), and which hosts are IP literals (checked
// before connecting) rather than names (checked inside the connection's own
// lookup). The addresses are only classified here: nothing is connected to.
import { isIP } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAddressLiteral, isPublicAddress } from "../../lib/model/addresses.ts";

describe("isPublicAddress", () => {
  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255", // just below 172.16.0.0/12
    "172.32.0.0", // just above it
    "100.63.255.255", // just below carrier-grade NAT 100.64.0.0/10
    "100.128.0.0", // just above it
    "11.0.0.1",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "[2606:4700:4700::1111]",
    "::ffff:93.184.216.34", // IPv4-mapped: judged as the IPv4 address inside
    "::ffff:5db8:d822",
  ])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    // IPv4
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback, the end of 127/8"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.20", "private"],
    ["169.254.169.254", "link-local: cloud metadata"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified (connects to this host)"],
    ["0.1.2.3", "this network"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["192.0.0.1", "IETF protocol assignments"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.1", "documentation"],
    ["203.0.113.1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["240.0.0.1", "reserved"],
    // IPv6
    ["::1", "loopback"],
    ["[::1]", "loopback, as a URL writes it"],
    ["0:0:0:0:0:0:0:1", "loopback, in full"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd00::2", "unique-local"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["100::1", "discard"],
    ["2001:2::1", "benchmarking"],
    // IPv6 forms that lead to an IPv4 address
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, as the URL parser writes it"],
    ["[::ffff:7f00:1]", "IPv4-mapped loopback, bracketed"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped cloud metadata"],
    ["::ffff:0:7f00:1", "IPv4-translated (RFC 6145)"],
    ["64:ff9b::7f00:1", "NAT64 (RFC 6052)"],
    ["64:ff9b:1::a00:1", "local-use NAT64 (RFC 8215)"],
    ["2002:7f00:1::", "6to4 of 127.0.0.1"],
    ["2001::1", "Teredo"],
    ["::127.0.0.1", "IPv4-compatible loopback (deprecated ::/96)"],
    ["::7f00:1", "IPv4-compatible loopback, as the URL parser writes [::127.0.0.1]"],
    ["[::7f00:1]", "the same, bracketed"],
    ["::a00:1", "IPv4-compatible 10.0.0.1"],
    ["1::", "reserved by the IETF (outside 2000::/3)"],
    ["4000::1", "unassigned (outside 2000::/3)"],
    // not addresses at all
    ["localhost", "a name"],
    ["printer.example", "a name"],
    ["", "nothing"],
    ["[localhost]", "a name in brackets"],
    ["127.0.0.1:80", "with a port"],
  ])("%s is not public (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  /** 32 bits as the URL parser reads a host: dotted, decimal, hex, octal, short forms, IPv4-mapped IPv6. */
  const ipv4Spellings = (n: number): string[] => {
    const [a, b, c, d] = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    return [
      `${a}.${b}.${c}.${d}`,
      String(n),
      `0x${n.toString(16)}`,
      `0${n.toString(8)}`,
      `${a}.${(n & 0xffffff) >>> 0}`,
      `${a}.${b}.${(n & 0xffff) >>> 0}`,
      `0x${a.toString(16)}.0x${b.toString(16)}.0x${c.toString(16)}.0x${d.toString(16)}`,
      `0${a.toString(8)}.0${b.toString(8)}.0${c.toString(8)}.0${d.toString(8)}`,
      `${a}.${b}.${c}.${d}.`,
      `[::ffff:${a}.${b}.${c}.${d}]`,
      `[0:0:0:0:0:ffff:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}]`,
    ];
  };
  // The special ranges' edges and insides, and anything else.
  const ipv4 = fc.oneof(
    fc.nat({ max: 0xffffffff }),
    fc.constantFrom(0x7f000001, 0x0a000000, 0xac100000, 0xc0a80000, 0xa9fea9fe, 0x64400000, 0xe0000000, 0xffffffff),
    fc.integer({ min: 0x7f000000, max: 0x7fffffff }),
    fc.integer({ min: 0xac0f0000, max: 0xac20ffff }),
    fc.integer({ min: 0x643f0000, max: 0x6480ffff }),
  );

  it("judges every spelling of an IPv4 address, as the URL parser reads it, as its dotted form", () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        const dotted = ipv4Spellings(n)[0]!;
        for (const spelling of ipv4Spellings(n)) {
          const host = new URL(`http://${spelling}:8080/printkey/k`).hostname;
          expect(isAddressLiteral(host), `${spelling} read as ${host}`).toBe(true);
          expect(isPublicAddress(host), `${spelling} read as ${host}`).toBe(isPublicAddress(dotted));
        }
      }),
      { numRuns: 500 },
    );
  });

  const group = fc.integer({ min: 0, max: 0xffff });
  // Whole IPv6 addresses, and ones inside the forms that carry IPv4 (::/96, ::ffff:0:0/96, 64:ff9b::/96).
  const ipv6 = fc.oneof(
    fc.array(group, { minLength: 8, maxLength: 8 }),
    fc
      .tuple(fc.constantFrom([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0xffff], [0x64, 0xff9b, 0, 0, 0, 0]), group, group)
      .map(([head, g7, g8]) => [...head, g7, g8]),
  );

  it("judges every spelling of an IPv6 address (full, compressed, a dotted tail, as the URL writes it) alike", () => {
    fc.assert(
      fc.property(ipv6, (groups) => {
        const full = groups.map((g) => g.toString(16)).join(":");
        const tail = `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
        const dottedTail = `${groups
          .slice(0, 6)
          .map((g) => g.toString(16))
          .join(":")}:${tail}`;
        const written = new URL(`http://[${full}]:8080/`).hostname;
        const verdict = isPublicAddress(full);
        for (const spelling of [dottedTail, written, `[${full}]`, full.toUpperCase()])
          expect(isPublicAddress(spelling), `${spelling} beside ${full}`).toBe(verdict);
        // Public IPv6 is global unicast (2000::/3) only, or IPv4-mapped (judged as the IPv4 inside).
        const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
        if (verdict && !mapped) expect(groups[0]! >> 13).toBe(1);
      }),
      { numRuns: 500 },
    );
  });
});

describe("isAddressLiteral", () => {
  it.each(["127.0.0.1", "93.184.216.34", "0.0.0.0", "::1", "[::1]", "[::ffff:7f00:1]", "2606:4700:4700::1111"])(
    "%s is an IP literal",
    (host) => {
      expect(isAddressLiteral(host)).toBe(true);
    },
  );

  it.each(["localhost", "printer.example", "littleprinter.nordprojects.co", "127.0.0.1.nip.io", "", "[localhost]"])(
    "%s is a name, not a literal",
    (host) => {
      expect(isAddressLiteral(host)).toBe(false);
    },
  );

  it("calls every URL host that is an IP address a literal", () => {
    for (const spelling of ["2130706433", "0x7f.1", "127.1", "0177.0.0.1", "[::ffff:127.0.0.1]", "[0:0::1]"]) {
      const host = new URL(`http://${spelling}/`).hostname;
      expect(isAddressLiteral(host), `${spelling} read as ${host}`).toBe(true);
    }
  });

  // node:net connects to a host it reads as an IP without any lookup: such a host must be checked as a
  // literal, or it would reach the connection unchecked (neither the literal check nor the lookup's).
  it("is true of every host node:net would connect to without a lookup", () => {
    const hosts = fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.ipV4Extended(),
      fc.tuple(fc.ipV6(), fc.constantFrom("%lo", "%eth0", "%1")).map(([a, zone]) => a + zone),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(hosts, (host) => {
        if (isIP(host) !== 0) expect(isAddressLiteral(host), host).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // and the edge cases by name
    for (const host of ["::ffff:127.0.0.1", "::FFFF:7F00:1", "fe80::1%lo", "::127.0.0.1", "0:0:0:0:0:0:0:1"]) {
      expect(isIP(host), host).not.toBe(0);
      expect(isAddressLiteral(host), host).toBe(true);
    }
  });

  it("leaves to the lookup what node:net would look up (a name, or IPv4 not in four decimal parts)", () => {
    for (const host of ["localhost", "127.1", "0x7f000001", "2130706433"]) {
      expect(isIP(host), host).toBe(0);
      expect(isAddressLiteral(host), host).toBe(false);
    }
  });
});
