// The voice socket: the app does speech-to-text and text-to-speech; the socket carries text in
// and the turn's events out (described in the gateway's /asyncapi.json).

export type VoiceConnection = {
  /** Sends what the user said, as text. */
  say(text: string): void;
  close(): void;
  /** Resolves once the socket is open. */
  opened: Promise<void>;
  /** Resolves once the socket has closed, with the close frame's code and reason (4409: the mission is over). */
  closed: Promise<{ code: number; reason: string }>;
};

/** Opens the `websocketUrl` a voice session returned; `onMessage` gets each server message. */
export function openVoice(
  websocketUrl: string,
  onMessage: (message: Record<string, unknown>) => void,
): VoiceConnection {
  const socket = new WebSocket(websocketUrl);
  socket.addEventListener('message', (e) => onMessage(JSON.parse(String(e.data))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('The voice socket did not open')), {
      once: true,
    });
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener('close', (e) => resolve({ code: e.code, reason: e.reason }), { once: true });
  });
  return {
    say: (text) => socket.send(JSON.stringify({ type: 'user_text', text })),
    close: () => socket.close(),
    opened,
    closed,
  };
}
