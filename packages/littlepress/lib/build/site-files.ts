// What the plugin writes after Eleventy rendered the editions: each
// publication's shards, index, meta.json and icon, and the site's index for
// the functions.
import pLimit from "p-limit";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { contentHash } from "../model/etag.ts";
import { metaJson } from "../model/meta.ts";
import {
  deflateBody,
  deflateHead,
  encodeShard,
  shardDictionary,
  type EditionShard,
  type ShardDeflate,
} from "../model/shard.ts";
import { DATA_DIR, SITE_INDEX, type SiteIndex } from "../model/site-paths.ts";
import { makeIcon } from "./icon.ts";
import { packPublication, type RenderedEdition } from "./pack.ts";
import { workOut, type Remember, type RenderMemory } from "./render-memory.ts";
import { placeShards, type EncodedPublication } from "./shard-placement.ts";
import type { PublicationSource, Site } from "./site.ts";

/** Writes a file of the build (a path under its output, with `/`); under `npm start`, links one that is unchanged. */
export type Put = (file: string, bytes: Buffer) => Promise<void>;

export function filePutter(output: string, memory: RenderMemory | undefined): Put {
  if (!memory) return (file, bytes) => writeFile(path.join(output, file), bytes);
  memory.files.begin();
  return (file, bytes) => memory.files.put(output, file, bytes);
}

/** File writes at once: thousands at once would each hold a buffer and a handle. */
const WRITES_AT_ONCE = 4;

/** Every publication's editions packed into shards placed within the bundle's budget, its index, meta and icon. */
export async function writePublications(
  publications: PublicationSource[],
  rendered: Map<string, RenderedEdition[]>,
  output: string,
  { bundleBudget, remember, put }: { bundleBudget: number; remember: Remember; put: Put },
) {
  const encoded = publications.map((pub) => encodePublication(pub, rendered.get(pub.slug) ?? [], remember));
  const files = placeShards(encoded, (slug) => path.posix.join(DATA_DIR, slug), bundleBudget);
  for (const pub of publications) {
    // The pages Eleventy wrote one by one are now packed into the shards.
    await rm(path.join(output, DATA_DIR, pub.slug, "editions"), { recursive: true, force: true });
  }
  // Each publication's folder of data (for its index.json, whether or not a shard is there) and the shards'.
  const dirs = [
    ...publications.map((p) => path.posix.join(DATA_DIR, p.slug)),
    ...files.map((f) => path.dirname(f.path)),
  ];
  for (const dir of new Set(dirs)) await mkdir(path.join(output, dir), { recursive: true });
  await pLimit(WRITES_AT_ONCE).map(files, (f) => put(f.path, f.bytes));
  for (const { index } of encoded) {
    await writeFile(path.join(output, DATA_DIR, index.slug, "index.json"), JSON.stringify(index));
  }
  for (const pub of publications) await writeMetaAndIcon(pub, output, remember, put);
}

/** A publication's editions, packed and deflated (a fact `remember` keeps under `npm start`). */
function encodePublication(pub: PublicationSource, rendered: RenderedEdition[], remember: Remember) {
  const { index, shards } = packPublication(pub, rendered, new Date(), remember);
  const dictionary = shardDictionary(index);
  // A body's bytes depend on the dictionary too: the fact is named by its hash.
  const dictionaryHash = remember(index.dictionary, "hash", () => contentHash(index.dictionary));
  const deflated = `deflated with ${dictionaryHash}`;
  const deflate: ShardDeflate = (text, body) =>
    body
      ? remember(text, deflated, () => deflateBody(text, dictionary))
      : remember(text, "deflated", () => deflateHead(text));
  // Beside 1,000 editions a save changes one shard: the others are the bytes an earlier build made of
  // the same copies (bodies named by their hashes), against the same dictionary.
  // (A build without memory encodes each shard once: no name is made for it.)
  const encoded = (shard: EditionShard) =>
    remember === workOut
      ? encodeShard(shard, deflate)
      : remember(JSON.stringify([dictionaryHash, shard.keys, shard.editions, Object.keys(shard.bodies)]), "shard", () =>
          encodeShard(shard, deflate),
        );
  return {
    index,
    shards: new Map([...shards].map(([id, shard]) => [id, encoded(shard)])),
  } satisfies EncodedPublication;
}

async function writeMetaAndIcon(pub: PublicationSource, output: string, remember: Remember, put: Put) {
  await mkdir(path.join(output, pub.slug), { recursive: true });
  await put(`${pub.slug}/meta.json`, Buffer.from(JSON.stringify(metaJson(pub), null, 2) + "\n"));
  const icon = pub.iconFile ? { file: pub.iconFile, bytes: await readFile(pub.iconFile) } : undefined;
  // The same image gives the same icon: npm start makes it again only when it changed.
  const fact = icon ? `the icon from ${icon.file}` : "the default icon";
  const made = remember(icon ? icon.bytes.toString("base64") : "", fact, () => makeIcon(icon));
  await put(`${pub.slug}/icon.png`, await made);
}

/**
 * Tells the functions which publication answers at the site root, and puts its
 * static files there; records the address the site was built for, and the
 * publications that print no end slip.
 */
export async function writeSiteIndex(site: Site, output: string, { url, assumed }: { url: string; assumed: boolean }) {
  const quiet = site.publications.filter((p) => p.end_notice === false).map((p) => p.slug);
  const index: SiteIndex = {
    ...(site.root ? { root: site.root } : {}),
    ...(site.printKeyOrigins ? { printKeyOrigins: site.printKeyOrigins } : {}),
    ...(site.maxSubscriptions !== undefined ? { maxSubscriptions: site.maxSubscriptions } : {}),
    ...(quiet.length ? { noEndNotice: quiet } : {}),
    url,
    ...(assumed && { urlAssumed: true as const }),
  };
  await mkdir(path.join(output, DATA_DIR), { recursive: true }); // a site of no publications yet has no other data
  await writeFile(path.join(output, DATA_DIR, SITE_INDEX), JSON.stringify(index));
  if (!site.root) return;
  for (const file of ["meta.json", "icon.png"])
    await copyFile(path.join(output, site.root, file), path.join(output, file));
}
