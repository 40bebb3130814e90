// The site's allow-list of print-key services (content/site.json's
// print_key_origins, lib/model/print-key.ts): how an entry is read, and which
// print key URLs an entry lets through. A print key is sent only to an origin
// on the list: same scheme, host and port, spelled however the URL parser reads it.
import { describe, expect, it } from "vitest";
import {
  allowedPrintKeyOrigin,
  DEFAULT_PRINT_KEY_ORIGINS,
  printKeyOriginsFrom,
  type PrintKeyOrigin,
} from "../../lib/model/print-key.ts";

describe("printKeyOriginsFrom", () => {
  it("reads origins, alone or with private, as the URL standard writes them", () => {
    const read = printKeyOriginsFrom([
      "https://sirius.example.org",
      "HTTPS://Sirius.Example.ORG:443/",
      "http://printer.example:80",
      { origin: "http://192.168.1.20:5000", private: true },
      { origin: "http://[::1]:5000", private: false },
      { origin: "http://2130706433:5000", private: true },
      { origin: "https://bücher.example" },
    ]);
    expect(read.problems).toEqual([]);
    expect(read.origins).toEqual<PrintKeyOrigin[]>([
      { origin: "https://sirius.example.org", private: false },
      { origin: "https://sirius.example.org", private: false },
      { origin: "http://printer.example", private: false },
      { origin: "http://192.168.1.20:5000", private: true },
      { origin: "http://[::1]:5000", private: false },
      { origin: "http://127.0.0.1:5000", private: true },
      { origin: "https://xn--bcher-kva.example", private: false },
    ]);
  });

  it("refuses anything but a list", () => {
    for (const raw of [undefined, null, "https://sirius.example.org", { origin: "https://sirius.example.org" }, 3])
      expect(printKeyOriginsFrom(raw)).toEqual({ origins: [], problems: ["must be a list of origins"] });
    expect(printKeyOriginsFrom([])).toEqual({ origins: [], problems: [] });
  });

  it.each([
    ["https://sirius.example.org/printkey", "a path"],
    ["https://sirius.example.org/printkey/abc", "a whole print key"],
    ["https://sirius.example.org?x=1", "a query"],
    ["https://sirius.example.org#top", "a fragment"],
    ["https://user@sirius.example.org", "a user"],
    ["https://user:secret@sirius.example.org", "a user and password"],
    ["https://:secret@sirius.example.org", "a password alone"],
    ["ftp://sirius.example.org", "another scheme"],
    ["file:///etc/passwd", "a file"],
    ["javascript:alert(1)", "not a network URL"],
    ["sirius.example.org", "no scheme"],
    ["//sirius.example.org", "no scheme"],
    ["", "nothing"],
    ["http://[::1", "not a URL"],
  ])("names the entry that is not an http(s) origin: %s (%s)", (origin) => {
    const read = printKeyOriginsFrom(["https://ok.example", origin, { origin }]);
    expect(read.origins).toEqual([{ origin: "https://ok.example", private: false }]);
    expect(read.problems).toEqual([
      `entry 2: ${JSON.stringify(origin)} is not an http(s) origin`,
      `entry 3: ${JSON.stringify(origin)} is not an http(s) origin`,
    ]);
  });

  it("names entries of the wrong kind, and a private that is not true or false", () => {
    const read = printKeyOriginsFrom([
      42,
      null,
      { private: true },
      { origin: 5 },
      { origin: "http://10.0.0.2:5000", private: "yes" },
      { origin: "http://10.0.0.2:5000", private: 1 },
    ]);
    expect(read.origins).toEqual([]);
    expect(read.problems).toEqual([
      "entry 1: 42 is not an http(s) origin",
      "entry 2: null is not an http(s) origin",
      "entry 3: undefined is not an http(s) origin",
      "entry 4: 5 is not an http(s) origin",
      'entry 5: "private" must be true or false',
      'entry 6: "private" must be true or false',
    ]);
  });
});

describe("allowedPrintKeyOrigin", () => {
  const sirius: PrintKeyOrigin = { origin: "https://littleprinter.nordprojects.co", private: false };
  const home: PrintKeyOrigin = { origin: "http://192.168.1.20:5000", private: true };
  const list = [sirius, home];

  it.each([
    ["https://littleprinter.nordprojects.co/printkey/abc", sirius],
    ["https://LittlePrinter.NordProjects.co/printkey/abc", sirius],
    ["https://littleprinter.nordprojects.co:443/printkey/abc", sirius],
    ["https://littleprinter.nordprojects.co\\printkey/abc", sirius],
    ["http://192.168.1.20:5000/printkey/abc", home],
    ["http://3232235796:5000/printkey/abc", home],
    ["http://0xc0.0xa8.1.20:5000/printkey/abc", home],
  ])("lets %s through, under its own entry", (url, entry) => {
    expect(allowedPrintKeyOrigin(new URL(url), list)).toBe(entry);
  });

  it.each([
    ["http://littleprinter.nordprojects.co/printkey/abc", "http, where the entry says https"],
    ["https://littleprinter.nordprojects.co:8443/printkey/abc", "another port"],
    ["https://evil.littleprinter.nordprojects.co/printkey/abc", "a subdomain"],
    ["https://littleprinter.nordprojects.co.evil.example/printkey/abc", "the entry's name as a prefix"],
    ["https://evillittleprinter.nordprojects.co/printkey/abc", "the entry's name as a suffix"],
    ["https://littleprinter.nordprojects.co@evil.example/printkey/abc", "the entry's name as a user"],
    ["https://littleprinter.nordprojects.co:443@evil.example/printkey/abc", "the entry as user and password"],
    ["https://littleprinter.nordprojects.co./printkey/abc", "the entry's name with a trailing dot"],
    ["https://192.168.1.20:5000/printkey/abc", "https, where the entry says http"],
    ["http://192.168.1.20/printkey/abc", "the default port"],
    ["http://192.168.1.21:5000/printkey/abc", "the next address"],
    ["http://[::ffff:192.168.1.20]:5000/printkey/abc", "the same address IPv4-mapped, another origin"],
    ["http://127.0.0.1:5000/printkey/abc", "loopback"],
    ["http://localhost:5000/printkey/abc", "a name for loopback"],
  ])("refuses %s (%s)", (url) => {
    expect(allowedPrintKeyOrigin(new URL(url), list)).toBeUndefined();
  });

  it("refuses everything under an empty list", () => {
    expect(allowedPrintKeyOrigin(new URL("https://littleprinter.nordprojects.co/printkey/abc"), [])).toBeUndefined();
  });

  it("trusts only the public sirius and its device-key domain by default, over https, at public addresses only", () => {
    const deviceLi: PrintKeyOrigin = { origin: "https://device.li", private: false };
    expect(DEFAULT_PRINT_KEY_ORIGINS).toEqual([sirius, deviceLi]);
    expect(
      allowedPrintKeyOrigin(new URL("https://littleprinter.nordprojects.co/printkey/k"), DEFAULT_PRINT_KEY_ORIGINS),
    ).toEqual(sirius);
    expect(allowedPrintKeyOrigin(new URL("https://device.li/k"), DEFAULT_PRINT_KEY_ORIGINS)).toEqual(deviceLi);
    for (const refused of [
      "http://littleprinter.nordprojects.co/printkey/k",
      "http://device.li/k",
      "https://evil.device.li/k",
      "https://device.li.evil.example/k",
    ])
      expect(allowedPrintKeyOrigin(new URL(refused), DEFAULT_PRINT_KEY_ORIGINS), refused).toBeUndefined();
  });
});
