import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from '../src/domain/voice-sse-parser.ts';

function parse(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e));
  for (const c of chunks) parser.push(c);
  parser.end();
  return events;
}

describe('SSE framing', () => {
  it('reads id, event and data, and ignores comments and retry', () => {
    expect(parse(['retry: 3000\n\n: keep-alive\n\nid: 7\nevent: message\ndata: {"a":1}\n\n'])).toEqual([
      { event: 'message', id: '7', data: '{"a":1}' },
    ]);
  });

  it('joins multi-line data and defaults the event name to "message"', () => {
    expect(parse(['data: one\ndata: two\n\n'])).toEqual([{ event: 'message', id: null, data: 'one\ntwo' }]);
  });

  it('handles CRLF and lone CR line endings, also split across chunks', () => {
    expect(parse(['id: 1\r', '\nevent: a\r\ndata: x\r', '\r', 'id: 2\revent: b\rdata: y\r\r'])).toEqual([
      { event: 'a', id: '1', data: 'x' },
      { event: 'b', id: '2', data: 'y' },
    ]);
  });

  it('reassembles an event split at any byte boundary', () => {
    const text = 'id: 3\nevent: tool.call\ndata: {"tool":"list_wardrobe","args":{}}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual([
        { event: 'tool.call', id: '3', data: '{"tool":"list_wardrobe","args":{}}' },
      ]);
    }
  });

  it('keeps the value after "data:" without a space, and treats a bare field name as empty', () => {
    expect(parse(['data:x\ndata\n\n'])).toEqual([{ event: 'message', id: null, data: 'x\n' }]);
  });

  it('drops an event without data and an unterminated one at the end of the stream', () => {
    expect(parse(['event: ping\n\n', 'data: cut off'])).toEqual([]);
  });
});
