// Only the household: a passphrase (kept as a scrypt hash, set at the first
// run with the setup code the server prints in its log, so that whoever opens
// the page first on the network cannot claim it), or a pairing code printed
// on the first printer (someone who can take the paper out of the printer is
// in the house). A login is a random session token in an HttpOnly,
// SameSite=Strict cookie, kept hashed in the store. Every form carries a CSRF
// token bound to the browser's own cookie (an HMAC under the server's secret).
import { createHash, createHmac, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { getSetting, putSetting, type Db } from "../home-db.ts";

export const SESSION_COOKIE = "lp_session";
export const BROWSER_COOKIE = "lp_browser";
/** A login lasts 30 days. */
export const SESSION_MS = 30 * 24 * 3600_000;
/** A pairing code lasts 10 minutes and is good for one login. */
export const PAIRING_MS = 10 * 60_000;
export const MIN_PASSPHRASE = 8;

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** The server's secret, made at the first run. */
export function serverSecret(db: Db): Buffer {
  let secret = getSetting(db, "secret");
  if (!secret) putSetting(db, "secret", (secret = randomBytes(32).toString("hex")));
  return Buffer.from(secret, "hex");
}

/** The setup code the first run prints in its log; none once a passphrase is set. */
export function setupCode(db: Db): string | undefined {
  if (getSetting(db, "passphrase")) return undefined;
  let code = getSetting(db, "setup_code");
  if (!code) putSetting(db, "setup_code", (code = randomBytes(5).toString("hex")));
  return code;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(sha(a));
  const y = Buffer.from(sha(b));
  return timingSafeEqual(x, y);
};

/** Sets the passphrase with the setup code; a problem, in words, otherwise. */
export function setPassphrase(db: Db, code: string, passphrase: string, again: string): string | undefined {
  const expected = setupCode(db);
  if (!expected) return "A passphrase is set already: log in with it.";
  if (!sameText(code.trim(), expected)) return "Setup code: that is not the code the server printed when it started.";
  if (passphrase.length < MIN_PASSPHRASE) return `Passphrase: at least ${MIN_PASSPHRASE} characters.`;
  if (passphrase !== again) return "Passphrase: the two do not match.";
  const salt = randomBytes(16);
  const hash = scryptSync(passphrase, salt, 32);
  putSetting(db, "passphrase", `scrypt:${salt.toString("hex")}:${hash.toString("hex")}`);
  return undefined;
}

export function passphraseMatches(db: Db, passphrase: string): boolean {
  const [kind, salt, hash] = (getSetting(db, "passphrase") ?? "").split(":");
  if (kind !== "scrypt" || !salt || !hash) return false;
  return timingSafeEqual(scryptSync(passphrase, Buffer.from(salt, "hex"), 32), Buffer.from(hash, "hex"));
}

/** A new pairing code (to print on the first printer), replacing any before it. */
export function newPairingCode(db: Db, at: Date): string {
  const code = String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, "0");
  putSetting(db, "pairing", JSON.stringify({ hash: sha(code), until: at.getTime() + PAIRING_MS, tries: 0 }));
  return code;
}

/** Whether `code` is the pairing code still good at `at`; it is used up by a match, and by five misses. */
export function usePairingCode(db: Db, code: string, at: Date): boolean {
  const raw = getSetting(db, "pairing");
  if (!raw) return false;
  const pairing = JSON.parse(raw) as { hash: string; until: number; tries: number };
  const good = at.getTime() <= pairing.until && pairing.tries < 5 && sameText(sha(code.trim()), pairing.hash);
  putSetting(db, "pairing", JSON.stringify(good ? { ...pairing, until: 0 } : { ...pairing, tries: pairing.tries + 1 }));
  return good;
}

/** A new login: its token, for the cookie (the store keeps only its hash). */
export function newSession(db: Db, at: Date): string {
  const token = randomBytes(24).toString("base64url");
  putSetting(db, `session:${sha(token)}`, String(at.getTime() + SESSION_MS));
  return token;
}

export function sessionValid(db: Db, token: string | undefined, at: Date): boolean {
  if (!token) return false;
  const until = Number(getSetting(db, `session:${sha(token)}`) ?? 0);
  return until > at.getTime();
}

export function endSession(db: Db, token: string | undefined): void {
  if (token) db.prepare("DELETE FROM settings WHERE key = ?").run(`session:${sha(token)}`);
}

/** The CSRF token for forms shown to the browser holding `browser` (its cookie). */
export const csrfToken = (secret: Buffer, browser: string): string =>
  createHmac("sha256", secret).update(`csrf:${browser}`).digest("base64url");

export function csrfValid(secret: Buffer, browser: string | undefined, token: string | undefined): boolean {
  if (!browser || !token) return false;
  const expected = Buffer.from(csrfToken(secret, browser));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
