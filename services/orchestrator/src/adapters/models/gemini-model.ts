// The agent model on Gemini through Google's Gen AI SDK (@google/genai) in Vertex AI mode:
// POST {baseUrl}/v1beta1/projects/{project}/locations/{location}/publishers/google/models/{model}:streamGenerateContent?alt=sse
// (SSE frames `data: <GenerateContentResponse>`), or `:generateContent` with streaming off.
// https://googleapis.github.io/js-genai/ — the older @google-cloud/vertexai SDK's generative
// module was retired on 2026-06-24 with @google/genai as its named replacement.
import { ApiError, type Content, type FunctionDeclaration, GoogleGenAI, type Part } from '@google/genai';
import type { Message, MissionType } from '@hs/contracts';
import { nestedTimeoutMs } from '@hs/service-kit';
import { z } from 'zod';
import {
  type AgentModel,
  type ModelDecision,
  ModelError,
  type ModelHooks,
  type ModelInput,
  type ToolOutcome,
} from '../../domain/agent-model.ts';
import { modelSafeText, modelSafeValue } from '../../domain/model-safe-text.ts';

export type GeminiTool = { name: string; description: string; args: z.ZodType };

export type GeminiOptions = {
  project: string;
  location: string;
  model: string;
  /**
   * Streaming: the longest wait for the answer's first chunk and between two chunks (a model
   * still writing is not cut off). Not streaming: the whole call.
   */
  timeoutMs: number;
  /** Stream the answer (`:streamGenerateContent`) and hand its text on as it arrives. Default true. */
  stream?: boolean | undefined;
  baseUrl?: string | undefined;
  tools: readonly GeminiTool[];
  /**
   * A google-auth-library client (anything with getRequestHeaders). Absent: Application Default
   * Credentials. Tests inject a fake so no request leaves loopback.
   */
  authClient?: unknown;
};

const GOALS: Record<MissionType, string> = {
  STYLE:
    "Help the user put together outfits: look at the household wardrobe, search offers that fit the shopper's brief, and pair suggestions with what they own (pair_with_wardrobe). Say why each suggestion fits. When nothing matches, loosen one constraint at a time in this order (price raised by half, colour, season, size, then the exact item word), search again, and say exactly what you loosened; never loosen what they said no to. Never present a suggestion that breaks the brief as if it fit. Buying needs a purchase request, a parent's or guardian's approval and the user's own checkout confirmation: when the user asks to buy an offer you found, raise the request with request_purchase (an ADULT or PARENT_GUARDIAN may; a CHILD asks a parent) and explain those steps; you never buy, approve or confirm.",
  POLL: 'Propose a few candidate offers for the household to vote on, then report how the votes stand.',
  CARTPREP:
    'Start cart preparation for an approved purchase request (prepare_cart), then tell the user how it went (check_cart): ready, still preparing, or failed and why (the approval stands, so it can be tried again). You never buy; the user confirms checkout themselves in the app.',
  INTERACTIVE: 'Open an interactive browser session the user can watch and take over.',
};

/** JSON Schema of a tool's arguments, as Vertex takes it in `parametersJsonSchema`. */
export function functionDeclarations(tools: readonly GeminiTool[]): FunctionDeclaration[] {
  return tools.map((t) => {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(t.args, { io: 'input' }) as Record<
      string,
      unknown
    >;
    return { name: t.name, description: t.description, parametersJsonSchema: schema };
  });
}

const historyContent = (m: Message): Content => {
  const calls = m.tool_calls?.length
    ? `\n[tools used: ${m.tool_calls.map((c) => `${c.tool}(${JSON.stringify(c.args)}) → ${JSON.stringify(c.result).slice(0, 400)}`).join('; ')}]`
    : '';
  return { role: m.role === 'user' ? 'user' : 'model', parts: [{ text: `${m.content}${calls}` }] };
};

const responsePart = (o: ToolOutcome): Part => ({
  functionResponse: {
    ...(o.modelCallId ? { id: o.modelCallId } : {}),
    name: o.tool,
    response: o.ok ? { output: o.result } : { error: o.error },
  },
});

/** The mission history, then this turn's message and each model step with its tools' answers. */
export function buildContents(input: ModelInput): Content[] {
  const contents = input.history.map(historyContent);
  contents.push({ role: 'user', parts: [{ text: input.userText }] });
  for (const step of input.steps) {
    contents.push({
      role: 'model',
      // Each call with the thought signature it came with, as Gemini 3 requires.
      parts: step.map((o) => ({
        functionCall: { ...(o.modelCallId ? { id: o.modelCallId } : {}), name: o.tool, args: o.args },
        ...(o.signature ? { thoughtSignature: o.signature } : {}),
      })),
    });
    contents.push({ role: 'user', parts: step.map(responsePart) });
  }
  return contents;
}

function systemInstruction(input: ModelInput): string {
  const lines = [
    `You are the household styling agent running a ${input.missionType} mission. ${GOALS[input.missionType]}`,
    'Use the tools for facts; never invent offers, prices or items. Keep replies short and specific: name what you found and why it fits.',
    'When the user says they are done, call complete_mission and then say goodbye.',
  ];
  if (input.missionType === 'STYLE' || input.missionType === 'POLL')
    lines.push(
      `The shopper's brief so far (what you understood from earlier turns, or as the owner corrected it): ${JSON.stringify(input.brief ?? {})}. Each message updates it rather than starting over: first call update_brief with the fields this message changes ("cheaper" lowers maxPrice below what was shown, "in blue instead" replaces colors, "forget the budget" sets minPrice and maxPrice to null, "start over" clears every field), then search with it (item words as query, excluded colours, brands and item words as the exclude filters).`,
    );
  if (input.members?.length)
    lines.push(
      `Household members (when the user shops for one of them, set forMemberId to their memberId with update_brief): ${JSON.stringify(input.members.map((m) => ({ memberId: m.memberId, name: m.displayName, role: m.role })))}. The user's own role: ${input.callerRole ?? 'unknown'}.`,
    );
  if (input.context.candidates.length > 0)
    lines.push(
      `Current poll candidates and votes: ${JSON.stringify({ candidates: input.context.candidates, votes: input.context.votes })}`,
    );
  if (input.context.cartsPreparing?.length)
    lines.push(
      `Carts being prepared (check them with check_cart before anything else): ${input.context.cartsPreparing.join(', ')}`,
    );
  if (input.context.cartsFailed?.length)
    lines.push(
      `Carts whose preparation failed (prepare_cart tries again): ${input.context.cartsFailed.join(', ')}`,
    );
  if (input.context.sessions.length > 0)
    lines.push(`Open browser sessions: ${JSON.stringify(input.context.sessions)}`);
  return lines.join('\n');
}

function describe(err: unknown, timeoutMs: number, timedOut: boolean): ModelError {
  if (timedOut)
    return new ModelError('MODEL_TIMEOUT', `The agent model did not answer within ${timeoutMs} ms`, {
      cause: err,
    });
  if (err instanceof ApiError)
    return new ModelError('MODEL_UPSTREAM_ERROR', `The agent model failed (HTTP ${err.status})`, {
      cause: err,
    });
  const e = err as { name?: string; message?: string };
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError' || /timed? ?out|abort/i.test(e?.message ?? ''))
    return new ModelError('MODEL_TIMEOUT', `The agent model did not answer within ${timeoutMs} ms`, {
      cause: err,
    });
  return new ModelError(
    'MODEL_UPSTREAM_ERROR',
    `The agent model could not be reached or sent garbage (${e?.message ?? 'unknown error'})`,
    {
      cause: err,
    },
  );
}

type GenerateParams = Parameters<GoogleGenAI['models']['generateContent']>[0];

/**
 * The parts of the answer in order; `complete` once the model said it had finished; `refusal`
 * the reason when the model blocked the prompt or stopped its answer on safety grounds.
 */
type Answer = { parts: Part[]; complete: boolean; refusal?: string };

/** finishReasons that mean "refused", as opposed to a normal stop or a length cut. */
const REFUSALS = new Set(['SAFETY', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/** Why the model refused, from a response or stream chunk; undefined when it did not. */
function refusalOf(response: {
  promptFeedback?: { blockReason?: string | undefined } | undefined;
  candidates?: Array<{ finishReason?: string | undefined }> | undefined;
}): string | undefined {
  const blocked = response.promptFeedback?.blockReason;
  if (blocked) return String(blocked);
  const finish = response.candidates?.[0]?.finishReason;
  return finish && REFUSALS.has(String(finish)) ? String(finish) : undefined;
}

const textOf = (p: Part) => (typeof p.text === 'string' && !p.thought ? p.text : '');

/** The decision in the answer's parts, whether they came in one response or in many chunks. */
function decide(parts: Part[]): ModelDecision {
  const calls = parts.flatMap((p) =>
    p.functionCall ? [{ ...p.functionCall, signature: p.thoughtSignature }] : [],
  );
  // A signature may also come on a part of its own (an empty text part ending a stream, or the
  // text before the calls): it belongs to the step, which Gemini reads off its first call.
  const loose = parts.find((p) => !p.functionCall && p.thoughtSignature)?.thoughtSignature;
  if (calls[0] && !calls[0].signature && loose) calls[0].signature = loose;
  const text = parts.map(textOf).join('');
  if (calls.length > 0) {
    if (calls.some((c) => !c.name))
      throw new ModelError('MODEL_INVALID_TOOL_CALL', 'The agent model proposed a tool call without a name');
    return {
      kind: 'tools',
      calls: calls.map((c) => ({
        tool: c.name!,
        args: c.args ?? {},
        ...(c.signature ? { signature: c.signature } : {}),
        ...(c.id ? { modelCallId: c.id } : {}),
      })),
      ...(text.trim() ? { reasoning: text.trim() } : {}),
    };
  }
  if (text.trim()) return { kind: 'reply', text: text.trim() };
  throw new ModelError('MODEL_INVALID_REPLY', 'The agent model returned neither a reply nor a tool call');
}

async function generateOnce(ai: GoogleGenAI, params: GenerateParams, timeoutMs: number): Promise<Answer> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const response = await ai.models.generateContent({
      ...params,
      config: { ...params.config, abortSignal: deadline },
    });
    const refusal = refusalOf(response);
    return {
      parts: response.candidates?.[0]?.content?.parts ?? [],
      complete: true,
      ...(refusal ? { refusal } : {}),
    };
  } catch (err) {
    throw describe(err, timeoutMs, deadline.aborted);
  }
}

/**
 * Reads the answer chunk by chunk, handing each piece of text to `onText` before reading on.
 * The timeout covers only the waits for the server (the first chunk, then each next one), so a
 * model that is still writing is never cut off and a stalled stream is. Function calls come
 * whole in their chunk (streamFunctionCallArguments is not requested); they are collected in
 * order, as the text is.
 */
async function generateStreamed(
  ai: GoogleGenAI,
  params: GenerateParams,
  timeoutMs: number,
  onText: ModelHooks['onText'],
): Promise<Answer> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const waitFor = async <T>(pending: () => Promise<T>): Promise<T> => {
    timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    try {
      return await pending();
    } catch (err) {
      throw describe(err, timeoutMs, timedOut);
    } finally {
      clearTimeout(timer);
    }
  };
  const answer: Answer = { parts: [], complete: false };
  try {
    const stream = await waitFor(() =>
      ai.models.generateContentStream({
        ...params,
        config: {
          ...params.config,
          abortSignal: abort.signal,
          // No hidden second request: a resumed answer would repeat text already streamed, and a
          // failed turn is the user's to retry (as with retries, below).
          automaticContinuation: false,
        },
      }),
    );
    const chunks = stream[Symbol.asyncIterator]();
    for (;;) {
      const next = await waitFor(() => chunks.next());
      if (next.done) break;
      const chunk = next.value;
      const candidate = chunk.candidates?.[0];
      // Vertex ends an answer with a finishReason (or promptFeedback when it refuses the prompt);
      // a stream closed without one was cut, and half an answer must not pass for a whole one.
      if (candidate?.finishReason || chunk.promptFeedback) answer.complete = true;
      answer.refusal ??= refusalOf(chunk);
      for (const part of candidate?.content?.parts ?? []) {
        answer.parts.push(part);
        const text = textOf(part);
        if (text && onText) await onText(text);
      }
    }
  } finally {
    // Leaving early (garbage, a failed onText) must not keep the connection open.
    abort.abort();
  }
  return answer;
}

/**
 * A low temperature keeps the model on the brief. Gemini 3 and later are tuned for their default
 * (1.0): Google's guide warns that lowering it brings loops and worse reasoning, so none is sent.
 */
export const temperatureFor = (model: string): number | undefined =>
  /(^|\/)gemini-([3-9]|\d{2,})([.-]|$)/.test(model) ? undefined : 0.2;

export function createGeminiModel(options: GeminiOptions): AgentModel {
  const ai = new GoogleGenAI({
    vertexai: true,
    project: options.project,
    location: options.location,
    ...(options.authClient ? { googleAuthOptions: { authClient: options.authClient as never } } : {}),
    httpOptions: {
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      // No retries inside a turn: a failed turn is cheap for the user to retry, a hidden retry
      // loop would hold the mission's turn lease for minutes.
      retryOptions: { attempts: 1 },
    },
  });
  const declarations = functionDeclarations(options.tools);
  const stream = options.stream ?? true;
  const temperature = temperatureFor(options.model);

  return {
    name: `gemini:${options.model}`,
    async next(input, hooks): Promise<ModelDecision> {
      const params: GenerateParams = {
        model: options.model,
        // Hidden characters out of everything the model reads (domain/model-safe-text.ts).
        contents: modelSafeValue(buildContents(input)),
        config: {
          systemInstruction: modelSafeText(systemInstruction(input)),
          tools: [
            { functionDeclarations: declarations.filter((d) => input.tools.includes(d.name as never)) },
          ],
          ...(temperature === undefined ? {} : { temperature }),
        },
      };
      // A JSON chat's caller stops waiting at its deadline: the model gives up first, so the
      // turn fails visibly instead of completing after the caller saw a 504.
      const timeoutMs = nestedTimeoutMs(options.timeoutMs);
      const answer = stream
        ? await generateStreamed(ai, params, timeoutMs, hooks?.onText)
        : await generateOnce(ai, params, timeoutMs);
      if (!answer.complete)
        throw new ModelError(
          'MODEL_UPSTREAM_ERROR',
          'The agent model stopped sending before its answer was complete (the stream was cut)',
        );
      if (answer.refusal)
        throw new ModelError('MODEL_REFUSED', `The agent model refused the message (${answer.refusal})`);
      return decide(answer.parts);
    },
  };
}
