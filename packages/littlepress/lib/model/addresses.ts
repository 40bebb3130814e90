// Which network addresses are public: a print key may reach only those,
// unless its service is listed as private on purpose (print-key.ts).
import ipaddr from "ipaddr.js";

/**
 * Whether `address` (an IPv4 or IPv6 literal, as connected to) is an ordinary
 * public unicast address. Everything else is not: loopback, private, link-local
 * (cloud metadata at 169.254.169.254), unique-local, unspecified, multicast,
 * carrier-grade NAT, reserved, and IPv6 forms that carry an IPv4 address
 * inside them (IPv4-mapped is unwrapped and judged as IPv4; 6to4, NAT64 and
 * Teredo are refused, since the address they lead to is not the one checked;
 * so is all IPv6 outside the global unicast block 2000::/3, IPv4-compatible
 * ::/96 among it).
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const ip = bare.includes(":") ? ipv6(bare) : ipaddr.IPv4.isValid(bare) ? ipaddr.IPv4.parse(bare) : undefined;
  if (!ip || ip.range() !== "unicast") return false;
  // ipaddr.js calls most of IPv6's unassigned space "unicast" (::7f00:1, how the URL parser writes
  // [::127.0.0.1], among it): only the global unicast block is public.
  return ip.kind() === "ipv4" || (ip as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST);
}

/** IPv6's global unicast addresses (RFC 4291 section 2.4); the rest is reserved, local or special. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * An IPv6 address as a connection reads it, IPv4-mapped ones as IPv4. Read
 * by the URL standard's parser first, which reads it as inet_pton does:
 * ipaddr.js reads the deprecated IPv4-compatible "::1.2.3.4" (how inet_ntop
 * writes ::102:304) as the IPv4-mapped ::ffff:1.2.3.4, another address.
 */
function ipv6(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return undefined; // not IPv6, or with a zone index (link-local only)
  }
  return ipaddr.IPv6.isValid(canonical) ? ipaddr.process(canonical) : undefined;
}

/** Whether `host` (a URL's hostname) is an IP literal rather than a name to resolve. */
export function isAddressLiteral(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (bare.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(bare));
}
