// Which English words the stub stylist's spelling correction would turn into its vocabulary:
// run it after the vocabulary grows, review each word it prints (a plural of the vocabulary word
// is fine; a real word that is not clothing goes into ENGLISH_WORDS in
// services/orchestrator/src/domain/brief/english-words.ts).
// Usage: node --conditions=@hs/source scripts/stylist-spelling-check.ts [word list]
// (default /usr/share/dict/words: Debian's `wamerican-small` package).
import { readFileSync } from 'node:fs';
import { ENGLISH_WORDS } from '../services/orchestrator/src/domain/brief/english-words.ts';
import { correct } from '../services/orchestrator/src/domain/brief/normalize.ts';

const file = process.argv[2] ?? '/usr/share/dict/words';
const words = readFileSync(file, 'utf8')
  .split('\n')
  .filter((w) => /^[a-z]+$/.test(w));
const isInflection = (word: string, into: string) =>
  [`${word}s`, `${word}es`].includes(into) || [`${into}s`, `${into}es`].includes(word);
const changed = words
  .map((word) => [word, correct(word)] as const)
  .filter(([word, into]) => word !== into && !isInflection(word, into) && !ENGLISH_WORDS.has(word));
for (const [word, into] of changed) console.log(`${word} -> ${into}`);
console.log(`${changed.length} of ${words.length} words would be corrected into the vocabulary`);
