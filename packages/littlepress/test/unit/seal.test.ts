// Sealing keys from their text form: strict base64 of exactly 32 bytes, and
// random, or refused with what is wrong and how to make a good one.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openSealed, seal, sealKeyFrom, weakness } from "../../lib/model/seal.ts";

const refusal = (text: string) => {
  const key = sealKeyFrom(text);
  if (!("error" in key)) throw new Error(`accepted ${JSON.stringify(text)}`);
  return key.error;
};
const HOW = /; make one with: openssl rand -base64 32$/;
/** 32 random bytes that are surely not all printable text (the last test's refusal). */
const randomKey = () => Buffer.concat([randomBytes(31), Buffer.from([0x80 | randomBytes(1)[0]!])]);

describe("a sealing key's text", () => {
  it("is taken as openssl rand -base64 32 writes it, in base64url too, with spaces and a line end around it", () => {
    for (let i = 0; i < 50; i++) {
      const key = randomKey();
      for (const text of [
        key.toString("base64"),
        `  ${key.toString("base64")}\n`,
        key.toString("base64url"),
        `${key.toString("base64url")}=`,
      ]) {
        const taken = sealKeyFrom(text);
        expect(Buffer.isBuffer(taken) && taken.equals(key)).toBe(true);
      }
    }
    // and the key seals and opens
    const key = sealKeyFrom(randomKey().toString("base64")) as Buffer;
    expect(openSealed(seal(Buffer.from("hello"), key), key).toString()).toBe("hello");
  });

  it("refuses weak keys: all zeros, all 0xff, a repeated pattern, a count, a password", () => {
    expect(refusal(Buffer.alloc(32).toString("base64"))).toMatch(
      /^the key is not random: its 32 bytes are all the same \(0x00\)/,
    );
    expect(refusal(Buffer.alloc(32, 0xff).toString("base64"))).toMatch(/all the same \(0xff\)/);
    expect(refusal(Buffer.from("ab".repeat(16)).toString("base64"))).toMatch(/only 2 distinct byte values among 32/);
    const sixteen = Buffer.from(Array.from({ length: 16 }, (_, i) => (11 + 37 * i * i) % 256));
    expect(refusal(Buffer.concat([sixteen, sixteen]).toString("base64"))).toMatch(/repeats a pattern every 16 bytes/);
    const counting = Buffer.from(Array.from({ length: 32 }, (_, i) => (200 + 3 * i) % 256));
    expect(refusal(counting.toString("base64"))).toMatch(/count up or down by a constant step/);
    const phrase = Buffer.from("correct horse battery staple 123");
    expect(refusal(phrase.toString("base64"))).toMatch(/all printable text: a password or a phrase/);
    const eleven = Buffer.from(
      Array.from({ length: 32 }, (_, i) => [0, 9, 40, 77, 100, 130, 160, 190, 210, 230, 250][i % 11]!),
    );
    expect(refusal(eleven.toString("base64"))).toMatch(/only 11 distinct byte values/);
    for (const key of [Buffer.alloc(32), Buffer.from("ab".repeat(16)), phrase])
      expect(refusal(key.toString("base64"))).toMatch(HOW);
  });

  it("refuses a key of another length, saying how long it is", () => {
    expect(refusal(randomKey().subarray(0, 31).toString("base64"))).toMatch(
      /^the key must be 32 bytes written in base64, and this is 31 bytes; make one with: openssl rand -base64 32$/,
    );
    expect(refusal(randomBytes(33).toString("base64"))).toMatch(/and this is 33 bytes/);
    expect(refusal(randomBytes(64).toString("base64"))).toMatch(/and this is 64 bytes/);
    expect(refusal("short")).toMatch(/and this is 5 characters, which no whole number of bytes makes/);
    expect(refusal("")).toMatch(/^the key is empty; make one with/);
    expect(refusal("  \n")).toMatch(/^the key is empty/);
  });

  it("refuses characters that are not base64 instead of skipping them, and never repeats the key", () => {
    const good = randomKey().toString("base64");
    for (const text of [
      `${good.slice(0, 20)} ${good.slice(20)}`,
      `${good.slice(0, 20)}\n${good.slice(20)}`,
      `"${good}"`,
      `${good.slice(0, 10)}!${good.slice(11)}`,
      `${good.slice(0, 10)}é${good.slice(11)}`,
      `${good}.`,
      `LITTLEPRESS_SEAL_KEY=${good}`,
    ]) {
      const error = refusal(text);
      expect(error).toMatch(/^the key holds characters that are not base64/);
      expect(error).toMatch(HOW);
      expect(error).not.toContain(good.slice(0, 10));
    }
  });

  it("refuses wrong padding, mixed alphabets and spare bits that no encoder writes", () => {
    const key = randomKey();
    const standard = key.toString("base64");
    const data = standard.slice(0, -1);
    expect(refusal(`${standard}=`)).toMatch(/padding is wrong: 32 bytes in base64 end with exactly one "="/);
    expect(refusal(`${data}=${"A"}`)).toMatch(/not base64/);
    if (/[+/]/.test(data)) expect(refusal(data)).toMatch(/padding is wrong/);
    expect(refusal(`${"+".repeat(21)}${"_".repeat(22)}=`)).toMatch(/mixes base64's two alphabets/);
    // 43 characters carry 258 bits: the last character's 2 spare bits must be 0
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".indexOf(data.at(-1)!);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const altered = `${data.slice(0, -1)}${alphabet[last | 1]}=`;
    expect(refusal(altered)).toMatch(/last character is not one a base64 encoder writes/);
  });
});

describe("a key's weakness", () => {
  it("is never found in random keys", () => {
    // printable-only random keys (about 1.7e-14) are left out by randomKey; the other tests are far rarer
    for (let i = 0; i < 2000; i++) expect(weakness(randomKey())).toBeUndefined();
  });
});
