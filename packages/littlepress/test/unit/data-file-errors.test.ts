// A data file's failures said as the author's problem: the reasons a fetch
// fails, in eleventy-fetch's shape of error (the network's own error as the
// cause of undici's "fetch failed"), and the data file that asked for it.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { dataFileFailure } from "../../lib/build/data-file-errors.ts";
import { ContentError } from "../../lib/model/content-error.ts";

const CONTENT = ".test-work/unit-data-file-errors";

beforeAll(() => {
  rmSync(CONTENT, { recursive: true, force: true });
  mkdirSync(path.join(CONTENT, "news"), { recursive: true });
  mkdirSync(path.join(CONTENT, "tides"), { recursive: true });
  const fetching = (url: string) =>
    `import Fetch from "@11ty/eleventy-fetch";\nexport default () => Fetch("${url}");\n`;
  writeFileSync(path.join(CONTENT, "news", "news.11tydata.js"), fetching("https://news.example/today.json"));
  writeFileSync(path.join(CONTENT, "tides", "tides.11tydata.js"), fetching("https://tides.example/table.json"));
});

/** An error as eleventy-fetch 5 throws it for a network failure: `code` on the innermost cause. */
function networkError(url: string, code: string, message: string): Error {
  const inner = Object.assign(new Error(message), { code });
  return new Error(`Bad response for ${url}: fetch failed`, { cause: new TypeError("fetch failed", { cause: inner }) });
}

function problemOf(error: unknown) {
  const failure = dataFileFailure(error, CONTENT);
  expect(failure).toBeInstanceOf(ContentError);
  expect(failure!.problems).toHaveLength(1);
  return failure!.problems[0]!;
}

describe("a failed fetch", () => {
  it("names the data file that fetches from that host, and the URL", () => {
    const p = problemOf(new Error("Bad response for https://tides.example/table.json (404): Not Found"));
    expect(p.file).toBe(`${CONTENT}/tides/tides.11tydata.js`);
    expect(p.field).toBe("https://tides.example/table.json");
    expect(p.problem).toBe("the fetch failed: the server answered 404 Not Found");
    expect(p.fix).toContain('the last deploy stays up, unchanged (docs/data-and-recurring-editions.md: "Live data")');
  });

  it("names every data file that fetches when none names the host", () => {
    const p = problemOf(new Error("Bad response for https://elsewhere.example/x (500): Internal Server Error"));
    expect(p.file).toBe(`one of ${CONTENT}/news/news.11tydata.js, ${CONTENT}/tides/tides.11tydata.js`);
  });

  it.each([
    ["ENOTFOUND", "getaddrinfo ENOTFOUND news.example", "no such host (getaddrinfo ENOTFOUND news.example)"],
    ["EAI_AGAIN", "getaddrinfo EAI_AGAIN news.example", "the host name could not be looked up (no network?)"],
    ["UND_ERR_CONNECT_TIMEOUT", "Connect Timeout Error", "the connection timed out (Connect Timeout Error)"],
    ["ECONNRESET", "read ECONNRESET", "the server closed the connection (read ECONNRESET)"],
    ["EPROTO", "SSL routines::wrong version number", "SSL routines::wrong version number"],
  ])("says what %s means", (code, message, said) => {
    const p = problemOf(networkError("https://news.example/today.json", code, message));
    expect(p.file).toBe(`${CONTENT}/news/news.11tydata.js`);
    expect(p.problem).toContain(`the fetch failed: ${said}`);
  });

  it("is not any other error", () => {
    expect(dataFileFailure(new Error("Bad request"), CONTENT)).toBeUndefined();
    expect(dataFileFailure("a string", CONTENT)).toBeUndefined();
  });

  it("leaves an error already said as a content problem as it is", () => {
    const said = new ContentError([{ file: "x.md", field: "", problem: "p", fix: "f" }]);
    const wrapped = new Error("Bad response for https://news.example/today.json (500): x", { cause: said });
    expect(dataFileFailure(wrapped, CONTENT)).toBeUndefined();
  });
});

describe("an error that is not a data file's", () => {
  /** An error thrown at `file`'s line 189 (its stack as Node gives it), wrapped as Eleventy wraps a template's. */
  const thrownAt = (file: string) => {
    const inner = new Error("ENOENT: no such file or directory, stat 'src/paper/icon.png'");
    inner.stack = `${inner.message}\n    at Template.render (${pathToFileURL(path.resolve(file)).href}:189:12)`;
    return new Error("Having trouble writing to ./dist/paper/index.html", { cause: inner });
  };

  it("never blames a file in node_modules, nor the site's own config, building a whole project (content '.')", () => {
    expect(dataFileFailure(thrownAt("node_modules/@11ty/eleventy/src/Template.js"), ".")).toBeUndefined();
    expect(dataFileFailure(thrownAt("eleventy.config.js"), ".")).toBeUndefined();
  });

  it("still names a data file of the project's, in _data/ or *.11tydata.js", () => {
    expect(dataFileFailure(thrownAt("src/_data/metadata.js"), ".")?.problems[0]).toMatchObject({
      file: "src/_data/metadata.js",
      field: "line 189",
    });
    expect(dataFileFailure(thrownAt("src/blog/blog.11tydata.js"), ".")?.problems[0]?.file).toBe(
      "src/blog/blog.11tydata.js",
    );
  });
});
