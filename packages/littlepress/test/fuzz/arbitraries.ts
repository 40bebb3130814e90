// Hostile inputs for the property tests: query strings, bodies, methods and headers.
import fc from "fast-check";

/** Runs per property: 10,000 in `npm test`; `npm run fuzz -- --runs N` sets more. */
export const RUNS = Number(process.env.LITTLEPRESS_FUZZ_RUNS ?? 10_000);

const HOSTILE_TEXT = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "&amp;&",
  "'",
  "__proto__",
  "constructor",
  "\u27E6littlepress:name\u27E7",
  "👩‍🚀",
  "مرحبا",
  "\u0000",
  "%",
  "%E0%A4%A",
  "%FF",
  "+",
  " ",
  "x".repeat(2000),
];

/** A value as it may appear, already encoded, in a query string (including broken escapes). */
const rawValue = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT).map(encodeURIComponent),
  fc.constantFrom("%", "%E0%A4%A", "%FF%FE", "%00", "+", "%2B", "a%20b", "%C0%80"),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.integer({ min: -5, max: 12 }).map(String),
  fc.constantFrom("0", "1", "6", "7", "007", "99999999999999999999", "1e3", "0x1", "-0", "١"),
  fc
    .constantFrom(
      "2026-11-23T06:00:00-08:00",
      "2026-11-22T06:00:00Z",
      "2026-11-18T06:00:00.45%2B01:00",
      "2026-11-18T06:00:00 01:00",
      "2026-02-30T06:00:00Z",
      "2026-11-18T24:00:00Z",
    )
    .map((t) => t.replace(/:/g, "%3A")),
  fc.string({ unit: "binary", maxLength: 20 }).map(encodeURIComponent),
);

const paramName = fc.oneof(
  fc.constantFrom(
    "delivery_count",
    "local_delivery_time",
    "lang",
    "name",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "config",
    "",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

/** A query string with repeated, unknown and broken parameters. */
export const queryString = fc
  .array(fc.tuple(paramName, rawValue), { maxLength: 8 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join("&"));

export const method = fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH");

export const headers = fc.dictionary(
  fc.constantFrom("if-none-match", "accept", "accept-charset", "content-type", "range", "x-forwarded-for", "cookie"),
  fc.oneof(
    fc.constantFrom('"0-abc"', "*", "text/html; charset=shift_jis", "bytes=0-10", "application/json"),
    fc.string({ unit: "grapheme-ascii", maxLength: 30 }),
  ),
  { maxKeys: 4 },
);

/** A JSON value with nulls, numbers, arrays and nesting where strings belong. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string({ maxLength: 30 }),
    fc.constantFrom(...HOSTILE_TEXT),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 3 }),
  ),
})).value;

const configObject = fc.dictionary(
  fc.oneof(fc.constantFrom("lang", "name", "__proto__", "constructor", "size"), fc.string({ maxLength: 10 })),
  jsonValue,
  { maxKeys: 5 },
);

/** A /validate_config/ body and its content type: form, multipart, JSON, truncated or nonsense. */
export const configBody = fc.oneof(
  configObject.map((c) => ({
    type: "application/x-www-form-urlencoded",
    body: new URLSearchParams({ config: JSON.stringify(c) }).toString(),
  })),
  configObject.map((c) => ({ type: "application/json", body: JSON.stringify({ config: c }) })),
  configObject.map((c) => ({
    type: "application/json; charset=iso-8859-1",
    body: JSON.stringify({ config: JSON.stringify(c) }),
  })),
  configObject.map((c) => {
    const boundary = "----LittlepressFuzz7MA4YWxkTrZu0gW";
    return {
      type: `multipart/form-data; boundary=${boundary}`,
      body:
        `--${boundary}\r\nContent-Disposition: form-data; name="config"\r\n\r\n` +
        `${JSON.stringify(c)}\r\n--${boundary}--\r\n`,
    };
  }),
  fc.tuple(fc.string({ maxLength: 200 }), fc.nat(200)).map(([text, cut]) => ({
    type: "multipart/form-data; boundary=xyz",
    body: `--xyz\r\nContent-Disposition: form-data; name="config"\r\n\r\n${text}`.slice(0, cut),
  })),
  fc.record({
    type: fc.constantFrom("", "text/plain", "application/xml", "application/x-www-form-urlencoded", "application/json"),
    body: fc.string({ unit: "binary", maxLength: 300 }),
  }),
  fc
    .nat(40)
    .map((n) => ({ type: "application/json", body: `{"config":${"[".repeat(n * 100)}${"]".repeat(n * 100)}}` })),
);
