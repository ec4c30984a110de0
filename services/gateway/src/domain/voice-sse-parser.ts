// Server-Sent Events framing as the HTML standard defines it
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
// lines end in CRLF, LF or CR; a blank line dispatches; `data` lines join with "\n"; lines
// starting with ":" are comments; an event without data is not dispatched.

export type SseEvent = { event: string; id: string | null; data: string };

export function createSseParser(onEvent: (event: SseEvent) => void) {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  let sawCr = false;

  function line(text: string): void {
    if (text === '') {
      if (data.length > 0) onEvent({ event: event || 'message', id, data: data.join('\n') });
      event = '';
      data = [];
      id = null;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    // `retry` and unknown fields do not concern a relay.
  }

  return {
    push(chunk: string): void {
      let text = chunk;
      // A CR ending the previous chunk may be the first half of a CRLF.
      if (sawCr && text.startsWith('\n')) text = text.slice(1);
      sawCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 === buffer.length) sawCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** At end of stream an unterminated event is discarded, as the standard says. */
    end(): void {
      buffer = '';
      data = [];
    },
  };
}
