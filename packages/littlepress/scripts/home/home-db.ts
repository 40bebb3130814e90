// The home print server's one store: a SQLite file (better-sqlite3), chosen
// because it is one file a household can back up, it commits atomically, and
// in WAL mode with synchronous=FULL a commit that returned survives a power cut
// and a half-done one is rolled back on the next open (SQLite's own journal),
// which a folder of JSON files only approximates. Every write the server makes
// is one transaction; a print's settle, its subscription's change and its
// history row are written together (home-jobs.ts).
import Database from "better-sqlite3";

export type Db = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS printers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('escpos', 'key')),
  address TEXT NOT NULL,
  width INTEGER NOT NULL DEFAULT 384 CHECK (width IN (384, 576)),
  cut INTEGER NOT NULL DEFAULT 1,
  created TEXT NOT NULL,
  status TEXT,
  status_at TEXT,
  last_seen TEXT
);
CREATE TABLE IF NOT EXISTS subscriptions (
  id TEXT PRIMARY KEY,
  printer_id TEXT NOT NULL REFERENCES printers(id) ON DELETE CASCADE,
  publication TEXT NOT NULL,
  name TEXT NOT NULL,
  hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
  zone TEXT NOT NULL,
  settings TEXT NOT NULL DEFAULT '[]',
  created TEXT NOT NULL,
  delivery_count INTEGER NOT NULL DEFAULT 0,
  last_etag TEXT,
  ended TEXT,
  end_notice TEXT
);
CREATE TABLE IF NOT EXISTS jobs (
  key TEXT PRIMARY KEY,
  record TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  printer_id TEXT NOT NULL,
  subscription_id TEXT,
  job TEXT NOT NULL,
  at TEXT NOT NULL,
  what TEXT NOT NULL,
  etag TEXT,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL,
  picture BLOB
);
CREATE INDEX IF NOT EXISTS history_printer ON history (printer_id, id);
CREATE TABLE IF NOT EXISTS allowed_origins (
  origin TEXT PRIMARY KEY,
  private INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/** Opens (and makes, if new) the store at `file` (":memory:" in unit tests). */
export function openHomeDb(file: string): Db {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // FULL: a commit is on the disk (the WAL fsynced) before it returns; NORMAL could lose the last ones to a power cut.
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  return db;
}

/** A setting of the server itself (the passphrase's hash, the session secret), or undefined. */
export function getSetting(db: Db, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM settings WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function putSetting(db: Db, key: string, value: string): void {
  db.prepare(
    "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(key, value);
}
