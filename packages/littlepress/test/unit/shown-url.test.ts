// How littlepress prints a URL: scheme, host and path; never a user name, a
// password, a query or a fragment, in a URL of its own or inside a message.
import { describe, expect, it } from "vitest";
import { NOT_SHOWN, quotedUrl, shownUrl, withoutUrlSecrets } from "../../lib/model/shown-url.ts";

describe("shownUrl", () => {
  it.each([
    ["https://alice:hunter2@api.example.com:8443/v1/news?key=s3cret#top", "https://api.example.com:8443/v1/news"],
    ["http://127.0.0.1:8080/pub/", "http://127.0.0.1:8080/pub/"],
    ["tcp://alice:hunter2@192.168.1.50:9100", "tcp://192.168.1.50:9100"],
    ["file:///home/a/site/x.js", "file:///home/a/site/x.js"],
    // Without a scheme: its host and path, when it has a host's shape.
    ["api.example.com/v1?key=s3cret", "api.example.com/v1"],
    ["alice:hunter2@api.example.com/v1?key=s3cret", "api.example.com/v1"],
    ["localhost:8080/x?key=s3cret", "localhost:8080/x"],
    ["127.0.0.1:9/headlines?key=s3cret", "127.0.0.1:9/headlines"],
    // A bare token, or nothing like an address: not shown at all.
    ["sk-live-s3cret", NOT_SHOWN],
    ["not a url", NOT_SHOWN],
    ["", NOT_SHOWN],
  ])("shows %s as %s", (url, shown) => {
    expect(shownUrl(url)).toBe(shown);
  });

  it("quotes what it shows, or names the address without showing it", () => {
    expect(quotedUrl("ftp://u:p@example.com/x?k=1")).toBe('"ftp://example.com/x"');
    expect(quotedUrl("s3cret")).toBe("the address given");
  });
});

describe("withoutUrlSecrets", () => {
  it("shows every URL in a message as shownUrl does, and each URL the caller knows, with or without a scheme", () => {
    const message =
      "Request cannot be constructed from a URL that includes credentials: " +
      "http://alice:hunter2@127.0.0.1:9/headlines?key=s3cret (see https://x.example/?token=t0k3n).";
    expect(withoutUrlSecrets(message)).toBe(
      "Request cannot be constructed from a URL that includes credentials: " +
        "http://127.0.0.1:9/headlines (see https://x.example/).",
    );
    expect(
      withoutUrlSecrets("Invalid source: alice:hunter2@api.example.com/v1?key=s3cret!", [
        "alice:hunter2@api.example.com/v1?key=s3cret",
      ]),
    ).toBe("Invalid source: api.example.com/v1!");
    expect(withoutUrlSecrets("no address here")).toBe("no address here");
  });

  it("leaves the punctuation after a URL in a sentence, and shows the URL", () => {
    expect(withoutUrlSecrets("images point at http://127.0.0.1:8080, which only this machine can reach")).toBe(
      "images point at http://127.0.0.1:8080, which only this machine can reach",
    );
    expect(withoutUrlSecrets("see https://a.example/x?key=s3cret; or http://b.example.")).toBe(
      "see https://a.example/x; or http://b.example.",
    );
  });
});
