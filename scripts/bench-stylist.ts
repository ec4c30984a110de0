// The stub stylist reads every chat message (and re-reads a mission's last ten) on the
// orchestrator's one thread: a message that takes long to read holds every family's requests
// meanwhile. Here, the slowest of a set of hostile messages at the longest a chat accepts (lists
// of thousands of items, runs of separators and negations), beside an ordinary message.
import { MAX_MESSAGE_BYTES } from '@hs/contracts';
import { readMessage } from '../services/orchestrator/src/domain/brief/read-message.ts';
import { parseConstraints } from '../services/orchestrator/src/domain/constraint-parser.ts';

const HOSTILE_UNITS = [
  'x.',
  'x;',
  'gi,',
  'tee,',
  'no,',
  ',',
  'no ',
  'not red ',
  'red and ',
  'a.b ',
  'jeans, ',
  '1p ',
];
const PREFIXES = ['jeans tee ', 'jeans '];

const fill = (unit: string, prefix: string) =>
  `${prefix}${unit.repeat(Math.floor((MAX_MESSAGE_BYTES - prefix.length - 40) / unit.length))} under 40`;

/** Milliseconds for one fresh reading (a distinct message each time: the reader caches by text). */
function timeOnce(message: string, n: number): number {
  const text = `${message} ref${n}x${Date.now()}`;
  const started = performance.now();
  readMessage(text);
  parseConstraints(text);
  return performance.now() - started;
}

export function runStylistBench(repeats = 3): { worstMs: number; ordinaryMs: number } {
  // Warm the reader's patterns first, as a running service has them.
  for (let i = 0; i < 100; i++) readMessage(`black jeans size ${i % 40} under ${i} and a white tee`);
  let worstMs = 0;
  let n = 0;
  for (const unit of HOSTILE_UNITS)
    for (const prefix of PREFIXES) {
      const times = Array.from({ length: repeats }, () => timeOnce(fill(unit, prefix), n++));
      worstMs = Math.max(worstMs, Math.min(...times));
    }
  const ordinary = Array.from({ length: 50 }, (_, i) =>
    timeOnce(`a navy winter coat for my 8 year old under ${40 + i}, not too puffy`, i),
  ).sort((a, b) => a - b);
  return { worstMs, ordinaryMs: ordinary[25]! };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(runStylistBench());
