/**
 * A file's version, from what a stat says of it: it changes when the file is
 * saved, renamed over or replaced (its modification time, size or inode). The
 * functions read an index again on a new version; `npm start` an edition file.
 */
export const fileVersion = (facts: { mtimeMs: number; size: number; ino: number }): string =>
  `${facts.mtimeMs}:${facts.size}:${facts.ino}`;
