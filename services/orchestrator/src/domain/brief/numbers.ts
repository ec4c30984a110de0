/**
 * Spelled-out numbers as voice transcripts write them, turned into digits: "twenty five" → 25,
 * "a hundred and twenty" → 120, "one fifty" → 150, "forty one" → 41.
 */
const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

const isNumberWord = (w: string | undefined) =>
  w !== undefined && (w in UNITS || w in TENS || w === 'hundred');

/** Reads "tens [unit]" or a unit/teen at i; returns [value, next index] or null. */
function readBelowHundred(words: string[], i: number): [number, number] | null {
  const w = words[i];
  if (w === undefined) return null;
  if (w in TENS) {
    const next = words[i + 1];
    const unit = next !== undefined ? UNITS[next] : undefined;
    if (unit !== undefined && unit > 0 && unit < 10) return [TENS[w]! + unit, i + 2];
    return [TENS[w]!, i + 1];
  }
  if (w in UNITS) return [UNITS[w]!, i + 1];
  return null;
}

function readNumber(words: string[], i: number): [number, number] | null {
  // "a hundred", "one hundred and twenty"
  let start = i;
  let hundreds = 0;
  if (words[i] === 'a' && words[i + 1] === 'hundred') {
    hundreds = 100;
    start = i + 2;
  } else {
    const first = readBelowHundred(words, i);
    if (!first) return null;
    const [value, next] = first;
    if (words[next] === 'hundred' && value > 0 && value < 10) {
      hundreds = value * 100;
      start = next + 1;
    } else if (value > 0 && value < 10 && words[next] !== undefined && words[next]! in TENS) {
      // "one fifty" is 150, "one twenty five" 125: how prices are said aloud.
      const rest = readBelowHundred(words, next)!;
      return [value * 100 + rest[0], rest[1]];
    } else return [value, next];
  }
  let j = start;
  if (words[j] === 'and' && isNumberWord(words[j + 1]) && words[j + 1] !== 'hundred') j++;
  const tail = readBelowHundred(words, j);
  if (tail) return [hundreds + tail[0], tail[1]];
  return [hundreds, start];
}

/** "twenty-five" is written with a hyphen as often as without. */
const HYPHENATED = new RegExp(
  String.raw`\b(${Object.keys(TENS).join('|')})-(${Object.keys(UNITS)
    .filter((u) => UNITS[u]! > 0 && UNITS[u]! < 10)
    .join('|')})\b`,
  'g',
);

export function spellNumbers(text: string): string {
  const words = (text.includes('-') ? text.replace(HYPHENATED, '$1 $2') : text).split(' ');
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    const read =
      isNumberWord(words[i]) || (words[i] === 'a' && words[i + 1] === 'hundred')
        ? readNumber(words, i)
        : null;
    if (read) {
      out.push(String(read[0]));
      i = read[1];
    } else out.push(words[i++]!);
  }
  return out.join(' ');
}
