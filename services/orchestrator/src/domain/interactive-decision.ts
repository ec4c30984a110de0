import type { BrowserActionResult, BrowserPageView, BrowserSessionSummary } from '@hs/contracts';
import type { ModelDecision, ModelInput, ToolOutcome } from './agent-model.ts';
import { matchElement, pageIntent } from './page-intent.ts';

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/i;
const USER_HAS_CONTROL = "You have control of the browser; release it and I'll continue.";

const reply = (text: string): ModelDecision => ({ kind: 'reply', text });
const failure = (o: ToolOutcome) => (o.ok ? '' : o.error.message);

function pressable(page: BrowserPageView): string {
  const names = page.elements
    .filter((e) => ['button', 'link', 'radio'].includes(e.role))
    .slice(0, 5)
    .map((e) => `"${e.name}"`);
  return names.length ? `; I could press ${names.join(', ')}` : '';
}
const described = (page: BrowserPageView | null) =>
  page?.heading ? ` I see "${page.heading}"${pressable(page)}.` : '';

/**
 * INTERACTIVE: the first message (or one naming a URL without a session) opens a session; later
 * ones act on it: a URL is opened in it, "click …" / "type … in …" reads the page, picks the
 * element whose name matches the user's words and acts on it, then says what the page shows.
 */
export function interactiveDecision(input: ModelInput): ModelDecision {
  const open = input.context.sessions.at(-1);
  const url = input.userText.match(URL_IN_TEXT)?.[0];
  const [first, second] = input.steps;
  if (!first) {
    if (!open) return openSession(url);
    if (url)
      return {
        kind: 'tools',
        calls: [{ tool: 'browser_action', args: { sessionId: open.sessionId, type: 'NAVIGATE', url } }],
        reasoning: `Opening ${url} in the browser session.`,
      };
    if (pageIntent(input.userText))
      return {
        kind: 'tools',
        calls: [{ tool: 'browser_action', args: { sessionId: open.sessionId, type: 'READ' } }],
        reasoning: 'Reading the page before acting on it.',
      };
    return reply(
      `Browser session ${open.sessionId} is open. Take over to drive it yourself, or say done to finish.`,
    );
  }
  const opened = first.find((o) => o.tool === 'create_browser_session');
  if (opened) return openedReply(opened);
  const done = first[0]!;
  if (!second && done.ok && (done.result as BrowserActionResult).type === 'READ')
    return actOnPage(input, done.result as BrowserActionResult);
  return actionReply((second ?? first)[0]!);
}

function openSession(url: string | undefined): ModelDecision {
  return {
    kind: 'tools',
    calls: [{ tool: 'create_browser_session', args: url ? { startUrl: url } : {} }],
    reasoning: 'Opening a browser session.',
  };
}

function openedReply(created: ToolOutcome): ModelDecision {
  if (!created.ok) return reply(`I couldn't open a browser session (${failure(created)}).`);
  const s = created.result as BrowserSessionSummary;
  const page = s.page
    ? { ...s.page, elements: s.page.actions.map((name) => ({ selector: '', role: 'button', name })) }
    : null;
  return reply(
    `I opened browser session ${s.sessionId}${s.startUrl ? ` at ${s.startUrl}` : ''}.${described(page)} Take over any time, and release it when you want me to continue.`,
  );
}

function actOnPage(input: ModelInput, read: BrowserActionResult): ModelDecision {
  const intent = pageIntent(input.userText)!;
  const el = read.page && matchElement(read.page, intent);
  if (!el) return reply(`I don't see "${intent.target}" on this page.${described(read.page)}`);
  const args = { sessionId: read.sessionId, type: intent.kind, selector: el.selector };
  return {
    kind: 'tools',
    calls: [{ tool: 'browser_action', args: intent.kind === 'TYPE' ? { ...args, text: intent.text } : args }],
    reasoning: `${intent.kind === 'TYPE' ? `Typing "${intent.text}" into` : 'Clicking'} "${el.name}".`,
  };
}

function actionReply(o: ToolOutcome): ModelDecision {
  if (!o.ok)
    return reply(
      o.error.code === 'SAFETY_VIOLATION'
        ? o.error.message
        : `I couldn't do that in the browser (${failure(o)}).`,
    );
  const r = o.result as BrowserActionResult;
  if (r.outcome === 'USER_IN_CONTROL') return reply(USER_HAS_CONTROL);
  const what =
    r.type === 'NAVIGATE'
      ? `I opened ${String(o.args.url)}.`
      : r.type === 'CLICK' || r.type === 'TYPE'
        ? `Done: ${r.type === 'CLICK' ? 'clicked' : `typed "${String(o.args.text)}" into`} "${r.target ?? String(o.args.selector)}".`
        : `${r.message}`;
  return reply(`${what}${described(r.page)}${r.page ? ` Now at ${r.page.url}.` : ''}`);
}
