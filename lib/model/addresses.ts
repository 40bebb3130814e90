// Which network addresses are public: a print key may reach only those,
// unless its service is listed as private on purpose (print-key.ts).
import ipaddr from "ipaddr.js";

/**
 * Whether `address` (an IPv4 or IPv6 literal, as connected to) is an ordinary
 * public unicast address. Everything else is not: loopback, private, link-local
 * (cloud metadata at 169.254.169.254), unique-local, unspecified, multicast,
 * carrier-grade NAT, reserved, and IPv6 forms that carry an IPv4 address
 * inside them (IPv4-mapped is unwrapped and judged as IPv4; 6to4, NAT64 and
 * Teredo are refused, since the address they lead to is not the one checked).
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === "unicast";
}

/** Whether `host` (a URL's hostname) is an IP literal rather than a name to resolve. */
export function isAddressLiteral(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (bare.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(bare));
}
