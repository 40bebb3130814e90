// Small pieces of English that the kit's messages share.

/** "1 edition", "2 editions"; "1 delivery", "3 deliveries" with the plural given. */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}
