import { z } from 'zod';

/** ISO 8601 timestamp with a UTC offset, as every resource carries it. */
export const Timestamp = z.iso.datetime({ offset: true });
export type Timestamp = z.infer<typeof Timestamp>;

export const ErrorCode = z.enum([
  'NOT_FOUND',
  'FORBIDDEN',
  'UNAUTHORIZED',
  'CONFLICT',
  'BAD_REQUEST',
  'VALIDATION_ERROR',
  'INTERNAL_ERROR',
  'HTTP_ERROR',
  'UPSTREAM_ERROR',
  'UPSTREAM_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INVALID_STATE',
  'INVALID_MISSION_TYPE',
  'INVALID_REQUEST',
  'UNSIGNED_EVENT',
  'INVALID_SIGNATURE',
  'POLICY_VIOLATION',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'PRECONDITION_FAILED',
  'RATE_LIMITED',
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorDetail = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** The envelope every service answers every failure with (spec part 7). */
export const ErrorEnvelope = z.object({
  error: z.string(),
  message: z.string(),
  details: z.array(ErrorDetail).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export const Health = z.object({ status: z.literal('ok'), service: z.string(), version: z.string() });
export type Health = z.infer<typeof Health>;

export const Readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  service: z.string(),
  checks: z.record(z.string(), z.boolean()),
});
export type Readiness = z.infer<typeof Readiness>;

export const ServiceName = z.enum([
  'gateway',
  'orchestrator',
  'wardrobe',
  'commerce',
  'vto',
  'cartprep',
  'browser-bridge',
  'artifacts-audit',
]);
export type ServiceName = z.infer<typeof ServiceName>;

/** Path parameter of every household-scoped route. */
export const HouseholdParams = z.object({ id: z.string().min(1).max(128) });

/**
 * An integer in a query string, written in plain digits. `z.coerce` would read `1e3` as 1000,
 * `0x10` as 16, ` 3 ` as 3 and an empty value as 0: a client's mistake taken for a different ask
 * instead of a 422 naming the parameter.
 */
export function queryInteger(min: number, max = Number.MAX_SAFE_INTEGER) {
  const digits = (v: unknown) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v);
  // Only the type error gets this message; a number out of bounds keeps zod's, naming the bound.
  const integer = z
    .number({
      error: (issue) =>
        issue.code === 'invalid_type' ? 'Expected a whole number written in digits' : undefined,
    })
    .int()
    .min(min)
    .max(max);
  return Object.assign(z.preprocess(digits, integer), {
    /** The default inside the pipe, where the OpenAPI document shows it. */
    withDefault: (value: number) => z.preprocess(digits, integer.default(value)),
  });
}

/** Offset paging used by list routes; limits are capped per route. */
export const OffsetPageQuery = z.object({
  limit: queryInteger(1, 500).withDefault(50),
  offset: queryInteger(0).withDefault(0),
});

/** Identity the gateway forwards to services, trusted only with a valid internal token. */
export const CALLER_HEADERS = {
  userId: 'x-user-id',
  role: 'x-member-role',
  email: 'x-user-email',
} as const;

/**
 * Sent by a service acting for one mission on a resource addressed only by its own id (a
 * browser session): the owner answers 404 when the resource belongs to another household or
 * mission, so a wrong id can never reach another family's resource.
 */
export const SCOPE_HEADERS = {
  householdId: 'x-household-id',
  missionId: 'x-mission-id',
} as const;

/**
 * The body of a POST that needs none, or only optional fields: no body, an empty JSON body and
 * `{}` are the same request everywhere (Fastify hands an absent body to validation as null).
 * Anything else must still be an object. Only for objects whose fields are all optional.
 */
export const optionalBody = <T extends z.ZodObject>(schema: T) =>
  schema.nullish().transform((body): z.output<T> => body ?? ({} as z.output<T>));

/** The body of an action that takes none (approve, complete, ...): see optionalBody. */
export const NoBody = optionalBody(z.object({}));

/**
 * Characters a name shown to other people must not hold: control characters (NUL, newlines,
 * escapes: they break logs, notifications and screens), the invisible overrides, embeddings
 * and isolates that reverse the direction of the text after them (a name could then read as
 * something it is not), lone surrogates (not text at all: strict JSON decoders and UTF-8 stores
 * refuse them), the line and paragraph separators U+2028/U+2029 (line breaks by another name),
 * and the invisible characters that only hide or split words: zero-width space U+200B, word
 * joiner and invisible operators U+2060-U+2064, the BOM U+FEFF, and tag characters
 * (U+E0000-U+E007F) anywhere but in a whole flag's tag sequence after U+1F3F4.
 * What real names use stays: the plain direction marks (U+200E, U+200F: phones' contact lists put
 * them around Arabic and Hebrew names, and they reorder nothing beyond a neutral character),
 * ZWJ U+200D (emoji sequences such as a family), ZWNJ U+200C (Persian), variation selectors
 * (U+FE0F) and flags such as Scotland's (U+1F3F4 and its tags).
 */
const UNSHOWABLE =
  /[\p{Cc}\p{Cs}\u200b\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u;
/**
 * A subdivision flag: U+1F3F4, two to six tag letters or digits (the region, "gbsct"), the cancel
 * tag U+E007F. Only these tags are kept; any other run could spell hidden text a model reads.
 */
const TAG_FLAG = /\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{2,6}\u{e007f}/gu;
/** The text with each whole subdivision flag reduced to its black flag, the only part a reader sees. */
export const flagsWithoutTags = (text: string) => text.replace(TAG_FLAG, '\u{1f3f4}');
const unshowable = (text: string) => UNSHOWABLE.test(flagsWithoutTags(text));

/**
 * Text pasted from phones and office apps carries invisible direction controls (iOS wraps a copied
 * phone number in U+202A/U+202C, chat apps a name in U+2068/U+2069) and old line breaks (vertical
 * tab, form feed, NEL): a message keeps its words without them, its breaks as line breaks.
 */
export const plainMessageText = (text: string) =>
  text.replace(/[\u202a-\u202e\u2066-\u2069]/g, '').replace(/[\v\f\u0085]/g, '\n');

/**
 * What a message to the stylist must not hold once made plain: control characters other than
 * line breaks and tabs, lone surrogates, and tag characters outside a whole flag (invisible text a
 * model still reads: an instruction hidden in a pasted message).
 */
const UNREADABLE_IN_MESSAGE = /[\p{Cc}\p{Cs}\u{e0000}-\u{e007f}]/u;
export const unreadableInMessage = (text: string) =>
  UNREADABLE_IN_MESSAGE.test(flagsWithoutTags(text.replace(/[\t\n\r]/g, '')));

const UNSHOWABLE_MESSAGE =
  'Must not contain control characters, invisible characters or text-direction marks';

/**
 * Text other members see (a brand, a label, a title, a name): trimmed, `min` to `max`
 * characters, nothing unshowable.
 */
export const ShownText = (max: number, min = 0) => {
  const text = z.string().trim();
  return (min > 0 ? text.min(min) : text)
    .max(max)
    .refine((v) => !unshowable(v), { message: UNSHOWABLE_MESSAGE });
};

/**
 * Longer text other members see (a note, a reason): up to `max` characters, line breaks and tabs
 * kept, nothing else unshowable (a direction mark could make a price read otherwise).
 */
export const ShownParagraph = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !unshowable(v.replace(/[\t\n\r]/g, '')), { message: UNSHOWABLE_MESSAGE });

/** A word or two on an item or offer (a colour, a tag, an occasion): 1 to 40 characters. */
export const Label = ShownText(40, 1);

/** A name people see (a household, a member): 1 to `max` characters. */
export const ShownName = (max: number) => ShownText(max, 1);
