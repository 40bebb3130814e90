import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// AES-256-GCM sealing, the one home for it: remote shards (shard.ts) and
// subscribers' print keys (subscription.ts) are sealed the same way. Stored as
// nonce (12 bytes), ciphertext, tag (16 bytes).

/** A sealing key: 32 bytes. */
export const SEAL_KEY_BYTES = 32;
export const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Seals `bytes` under `key` with `nonce` (a fresh random one unless the caller derives its own). */
export function seal(bytes: Buffer, key: Buffer, nonce: Buffer = randomBytes(NONCE_BYTES)): Buffer {
  const cipher = createCipheriv("aes-256-gcm", key, nonce.subarray(0, NONCE_BYTES));
  const sealed = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return Buffer.concat([nonce.subarray(0, NONCE_BYTES), sealed, cipher.getAuthTag()]);
}

/** The bytes that `seal` sealed; throws when they were not sealed under `key` or were altered. */
export function openSealed(sealed: Buffer, key: Buffer): Buffer {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new Error("sealed bytes are too short");
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, NONCE_BYTES));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

/** How to make a good sealing key, for the messages that refuse one. */
export const MAKE_SEAL_KEY = "make one with: openssl rand -base64 32";

/** Fewer distinct byte values than this among a key's 32 is not a random key (see weakness). */
const MIN_DISTINCT_BYTES = 12;

/**
 * A sealing key from its text form: base64 of exactly 32 bytes, as `openssl
 * rand -base64 32` writes it (the standard alphabet, with its one `=`), or
 * base64url (`-` and `_`, the `=` optional). Spaces and line ends around it
 * are ignored; anything else is refused, never skipped: a character that is
 * not base64, padding that is wrong, bits past the 32 bytes, a key that is too
 * short or too long, or one that is not random (weakness). The reason says
 * what is wrong and how to make a good key; it never repeats the key.
 */
export function sealKeyFrom(text: string): Buffer | { error: string } {
  const trimmed = text.trim();
  const refuse = (what: string) => ({ error: `${what}; ${MAKE_SEAL_KEY}` });
  if (!trimmed) return refuse("the key is empty");
  if (!/^[A-Za-z0-9+/_-]*=*$/.test(trimmed))
    return refuse("the key holds characters that are not base64 (a space, a quote or a line break inside it?)");
  if (/[+/]/.test(trimmed) && /[-_]/.test(trimmed))
    return refuse("the key mixes base64's two alphabets (+ and / with - and _)");
  const data = trimmed.replace(/=+$/, "");
  const padding = trimmed.length - data.length;
  const bytes = Math.floor((data.length * 6) / 8);
  if (data.length % 4 === 1 || bytes !== SEAL_KEY_BYTES)
    return refuse(`the key must be ${SEAL_KEY_BYTES} bytes written in base64, and this is ${describeLength(data)}`);
  // 32 bytes are 43 characters and one `=`; base64url may leave the `=` out, standard base64 may not.
  const urlSafe = /[-_]/.test(data);
  if (padding > 1 || (padding === 0 && !urlSafe && /[+/]/.test(data)))
    return refuse(`the key's padding is wrong: ${SEAL_KEY_BYTES} bytes in base64 end with exactly one "="`);
  const key = Buffer.from(data, urlSafe ? "base64url" : "base64");
  // A last character whose spare bits are not zero is not what any encoder writes.
  if (key.toString(urlSafe ? "base64url" : "base64").replace(/=+$/, "") !== data)
    return refuse("the key's last character is not one a base64 encoder writes (the key was altered?)");
  const weak = weakness(key);
  if (weak) return refuse(`the key is not random: ${weak}`);
  return key;
}

function describeLength(data: string): string {
  if (data.length % 4 === 1) return `${data.length} characters, which no whole number of bytes makes`;
  const bytes = Math.floor((data.length * 6) / 8);
  return `${bytes} byte${bytes === 1 ? "" : "s"}`;
}

/**
 * Why a 32-byte key is not a random one, or undefined. Each test is one that a
 * random key essentially never fails, so a real key is never refused:
 * - all the bytes equal (all zeros, all 0xff): 256^-31, about 2e-75;
 * - fewer than 12 distinct byte values among the 32: about 6.4e-26 (the sum,
 *   for k from 1 to 11, of 256·255·…·(256-k+1) · S(32, k) / 256^32, S being
 *   Stirling numbers of the second kind; a random key has about 30 distinct);
 * - a pattern repeating every 1 to 16 bytes ("abab…", a 16-byte key twice):
 *   at most the sum over p of 256^-(32-p), about 3e-39;
 * - consecutive bytes a constant step apart (00 01 02 …): 256^-30, about 6e-73;
 * - every byte printable ASCII (a password or a phrase encoded, not random
 *   bytes): (95/256)^32, about 1.7e-14.
 * All together, under 2e-14: a key from `openssl rand` is never refused.
 */
export function weakness(key: Buffer): string | undefined {
  const distinct = new Set(key).size;
  if (distinct === 1) return `its ${key.length} bytes are all the same (0x${key[0]!.toString(16).padStart(2, "0")})`;
  if (distinct < MIN_DISTINCT_BYTES)
    return `it has only ${distinct} distinct byte values among ${key.length} (a random key has about 30)`;
  for (let period = 1; period <= key.length / 2; period++)
    if (key.subarray(period).equals(key.subarray(0, key.length - period)))
      return `it repeats a pattern every ${period} bytes`;
  const step = (key[1]! - key[0]! + 256) % 256;
  if (key.every((b, i) => i === 0 || (b - key[i - 1]! + 256) % 256 === step))
    return "its bytes count up or down by a constant step";
  if (key.every((b) => b >= 0x20 && b <= 0x7e))
    return "its bytes are all printable text: a password or a phrase encoded in base64, not random bytes";
  return undefined;
}
