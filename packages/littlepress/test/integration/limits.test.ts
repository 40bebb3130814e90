// The documented request limits: each refused clearly, within the contract.
import { beforeAll, describe, expect, it } from "vitest";
import {
  MAX_CONFIG_KEYS,
  MAX_JSON_DEPTH,
  MAX_QUERY_LENGTH,
  MAX_QUERY_PARAMS,
  jsonDepth,
} from "../../lib/edge/request-limits.ts";
import { getEdition, postConfigForm, postConfig, useSite } from "../helpers/handlers.ts";

beforeAll(() => useSite("basic"));

describe("/edition/ limits: a 204 that names the limit", () => {
  it(`a query string over ${MAX_QUERY_LENGTH} characters`, async () => {
    const ok = await getEdition(`/settings/edition/?delivery_count=0&name=${"a".repeat(MAX_QUERY_LENGTH - 40)}`);
    expect(ok.status).toBe(200);
    const res = await getEdition(`/settings/edition/?delivery_count=0&name=${"a".repeat(MAX_QUERY_LENGTH)}`);
    expect(res.status).toBe(204);
    expect(res.headers.get("x-littlepress-reason")).toBe(
      `the query string is longer than ${MAX_QUERY_LENGTH} characters`,
    );
  });

  it(`more than ${MAX_QUERY_PARAMS} parameters`, async () => {
    const params = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join("&");
    expect((await getEdition(`/serial/edition/?delivery_count=0&${params(MAX_QUERY_PARAMS - 1)}`)).status).toBe(200);
    const res = await getEdition(`/serial/edition/?delivery_count=0&${params(MAX_QUERY_PARAMS)}`);
    expect(res.status).toBe(204);
    expect(res.headers.get("x-littlepress-reason")).toBe(`more than ${MAX_QUERY_PARAMS} query parameters`);
  });
});

describe("/validate_config/ limits: a 400 or 413 with the same JSON shape", () => {
  it(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, async () => {
    const nested = (n: number) => `{"lang":"en","size":"s","name":${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`;
    expect((await postConfigForm("/settings/validate_config/", nested(MAX_JSON_DEPTH))).status).toBe(200);
    const res = await postConfigForm("/settings/validate_config/", nested(MAX_JSON_DEPTH + 1));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      valid: false,
      errors: [`The JSON nests deeper than ${MAX_JSON_DEPTH} levels; a config is one object of texts.`],
    });
    const body = JSON.stringify({ config: { a: [[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]] } });
    expect((await postConfig("/settings/validate_config/", body, { "content-type": "application/json" })).status).toBe(
      400,
    );
  });

  it(`more than ${MAX_CONFIG_KEYS} settings`, async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_CONFIG_KEYS + 1 }, (_, i) => [`k${i}`, "v"]));
    const res = await postConfigForm("/settings/validate_config/", many);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: string[] }).errors).toEqual([
      `The config has more than ${MAX_CONFIG_KEYS} settings.`,
    ]);
  });

  it("counts depth without being fooled by brackets in strings", () => {
    expect(jsonDepth('{"a":"[[[[[[[[[[[[[[[[[[[[[[[["}')).toBe(1);
    expect(jsonDepth('{"a":"\\\\"}')).toBe(1);
    expect(jsonDepth('[{"a":[1]}]')).toBe(3);
  });
});
