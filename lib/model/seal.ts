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

/**
 * A sealing key from its text form (base64 of 32 bytes, as `openssl rand -base64 32` writes it);
 * a reason string when the text is not one.
 */
export function sealKeyFrom(text: string): Buffer | { error: string } {
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== SEAL_KEY_BYTES)
    return { error: `the key must be ${SEAL_KEY_BYTES} bytes written in base64 (openssl rand -base64 32)` };
  return key;
}
