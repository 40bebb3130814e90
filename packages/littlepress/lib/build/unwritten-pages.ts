// Eleventy writes every page it renders. An edition page is read back from
// Eleventy's results, packed into its publication's shards, and never served as
// a file of its own: writing each one cost a fifth of a build (1,100 files at
// 0.5 ms each on these machines, whose disk discards what is freed), and removing
// them afterwards cost more. Eleventy has no setting to render a page, return it
// in its results and not write it (`permalink: false` leaves it out of the
// results too), so its file writer is told which paths to leave unwritten. Should
// a later Eleventy write them all the same, the build still removes them.
import path from "node:path";

/** Output paths (resolved) that Eleventy renders but does not write. */
const unwritten = new Set<string>();
let patched: Promise<void> | undefined;

interface FileWriter {
  writeFileSync: (this: FileWriter, file: string, content: unknown) => void;
  writeFile: (this: FileWriter, file: string, content: unknown) => Promise<void>;
  /** Makes a file's folder (a recursive mkdir per page: Eleventy's cache of folders never learns it made one). */
  createDirectoryForFileSync: (this: FileWriter, file: string) => void;
  createDirectoryForFile: (this: FileWriter, file: string) => Promise<void>;
}

/**
 * Has Eleventy leave these output paths unwritten until the returned function is
 * called (at the end of the build: each build's paths are its own).
 */
export async function leaveUnwritten(files: Iterable<string>): Promise<() => void> {
  patched ??= patchWriter();
  await patched;
  const mine = [...files].map((f) => path.resolve(f));
  for (const file of mine) unwritten.add(file);
  return () => {
    for (const file of mine) unwritten.delete(file);
  };
}

async function patchWriter(): Promise<void> {
  // Not among Eleventy's exports: imported by its file, as build.ts imports its event bus.
  const file = new URL("Util/FileSystemManager.js", import.meta.resolve("@11ty/eleventy")).href;
  const { FileSystemManager } = (await import(file)) as { FileSystemManager: { prototype: FileWriter } };
  const writer = FileSystemManager.prototype;
  const { writeFileSync, writeFile, createDirectoryForFileSync, createDirectoryForFile } = writer;
  writer.writeFileSync = function (file, content) {
    if (!unwritten.has(path.resolve(file))) writeFileSync.call(this, file, content);
  };
  writer.writeFile = async function (file, content) {
    if (!unwritten.has(path.resolve(file))) await writeFile.call(this, file, content);
  };
  // Nor their folders: a page left unwritten needs none (1,100 recursive mkdirs, about 90 ms of a profile).
  writer.createDirectoryForFileSync = function (file) {
    if (!unwritten.has(path.resolve(file))) createDirectoryForFileSync.call(this, file);
  };
  writer.createDirectoryForFile = async function (file) {
    if (!unwritten.has(path.resolve(file))) await createDirectoryForFile.call(this, file);
  };
}
