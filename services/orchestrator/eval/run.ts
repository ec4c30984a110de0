/**
 * `pnpm eval:stylist`: the labelled corpus against the stub stylist through the real tools: the
 * gateway, orchestrator, commerce, wardrobe and artifacts services as processes on loopback, a
 * seeded catalogue and wardrobe. Prints accuracy per constraint kind, refinement and intent
 * accuracy, the share of presented suggestions that satisfy the brief (or say what was relaxed)
 * and the worst misreads, for the held-out part (committed before any tuning), the tuning part
 * and both together.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Brief, MissionView } from '@hs/contracts';
import { gatewayClient, startStack, type User } from '@hs/testing';
import { catalogue, WARDROBE } from './catalogue.ts';
import {
  brokenConstraints,
  type ConstraintKind,
  judgeBrief,
  KINDS_OF_CONSTRAINT,
  type Label,
  type OfferView,
  titleHasKind,
} from './judge.ts';

const here = dirname(fileURLToPath(import.meta.url));
const load = (file: string): Label[] =>
  readFileSync(join(here, 'corpus', file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Label);
// EVAL_PARTS=tuning runs only the tuning part (while working on the parser, so the held-out part stays unseen).
const only = process.env.EVAL_PARTS?.split(',');
const parts = Object.fromEntries(
  Object.entries({ 'held-out': 'held-out.jsonl', tuning: 'tuning.jsonl' })
    .filter(([name]) => !only || only.includes(name))
    .map(([name, file]) => [name, load(file)]),
);

type Outcome = {
  label: Label;
  part: string;
  brief: Brief;
  reply: string;
  kinds: Record<ConstraintKind, boolean | null>;
  intentOk: boolean | null;
  presented: number;
  satisfying: number;
  broken: string[];
  error?: string;
};

// One service at a time, each retried: on a loaded machine five processes booting together can
// miss the stack's boot deadline.
async function boot() {
  // The corpus sends hundreds of turns as one user; the per-user chat limit would refuse them.
  const stack = await startStack({ services: [], env: { RATE_LIMIT_CHAT_PER_MINUTE: '0' } });
  for (const service of ['artifacts-audit', 'commerce', 'wardrobe', 'orchestrator', 'gateway'] as const)
    for (let attempt = 1; ; attempt++) {
      try {
        await stack.start(service);
        break;
      } catch (err) {
        await stack.stop(service);
        if (attempt === 3) {
          await stack.close();
          throw err;
        }
        console.error(`${service} did not come up (attempt ${attempt}); trying again`);
      }
    }
  return stack;
}
const stack = await boot();
try {
  const client = gatewayClient(stack.url('gateway'));
  const parent = await client.login('eval-parent@family.test');
  const householdId = await client.household(parent, 'Eval family');
  const h = (p: string) => `/api/v1/households/${householdId}${p}`;
  const seeded = await client.api(h('/offers/bulk'), {
    method: 'POST',
    token: parent.token,
    body: { offers: catalogue() },
  });
  if (seeded.status !== 201) throw new Error(`catalogue: ${seeded.status} ${JSON.stringify(seeded.body)}`);
  const offers = new Map<string, OfferView>((seeded.body.items as OfferView[]).map((o) => [o.offerId, o]));
  for (const item of WARDROBE) {
    const made = await client.api(h('/wardrobe/items'), { method: 'POST', token: parent.token, body: item });
    if (made.status !== 201) throw new Error(`wardrobe: ${made.status} ${JSON.stringify(made.body)}`);
  }

  const runOne = async (label: Label, part: string, user: User): Promise<Outcome> => {
    const base = h('/orchestrator/missions');
    let view: MissionView | undefined;
    for (const [i, text] of label.turns.entries()) {
      const res =
        i === 0
          ? await client.api<MissionView>(base, {
              method: 'POST',
              token: user.token,
              body: { mission_type: 'STYLE', initial_message: text },
            })
          : await client.api<MissionView>(`${base}/${view!.mission_id}/chat`, {
              method: 'POST',
              token: user.token,
              body: { message: text },
            });
      if (res.status >= 300)
        throw new Error(`${label.id} turn ${i + 1}: ${res.status} ${JSON.stringify(res.body)}`);
      view = res.body;
    }
    const brief = view!.brief ?? {};
    const last = view!.history.at(-1)!;
    const reply = last.role === 'model' ? last.content : '';
    const calls = last.tool_calls ?? [];
    // Presented: offers from this reply's searches that the reply names.
    const shown = calls
      .filter((c) => c.tool === 'search_commerce')
      .flatMap((c) =>
        (
          ((c.result as { items?: Array<{ offerId: string; title?: string }> })?.items ?? []) as Array<{
            offerId: string;
            title?: string;
          }>
        ).map((o) => ({
          offer: offers.get(o.offerId),
          kind: typeof c.args.query === 'string' ? c.args.query : undefined,
        })),
      )
      .filter((x) => x.offer && reply.includes(x.offer.title));
    const unique = [...new Map(shown.map((x) => [x.offer!.offerId, x])).values()];
    const broken = unique.flatMap((x) =>
      brokenConstraints(x.offer!, brief, x.kind, reply).map((b) => `${x.offer!.title}: ${b}`),
    );
    const ownedKind = label.owned?.split(' ').at(-1);
    const intentOk = (() => {
      switch (label.expect) {
        case 'clarify':
          return calls.length === 0 && reply.includes('?');
        case 'offtopic':
          return calls.length === 0 && /stylist/i.test(reply);
        case 'buy':
          // Never a cart or a checkout; at most a purchase request that waits for a parent's approval.
          return (
            !calls.some((c) => /prepare_cart|checkout/.test(c.tool)) &&
            calls
              .filter((c) => c.tool === 'request_purchase')
              .every((c) => (c.result as { status?: string } | undefined)?.status === 'PENDING_APPROVAL') &&
            /approv/i.test(reply) &&
            /confirm/i.test(reply)
          );
        case 'refuse':
          return calls.length === 0 && /can't|cannot/i.test(reply);
        case 'pair':
          return (
            reply.includes(label.owned!) &&
            !unique.some((x) => ownedKind && titleHasKind(x.offer!.title, ownedKind))
          );
        case 'relax':
          return /relaxed|Nothing matches/.test(reply);
        default:
          return null;
      }
    })();
    return {
      label,
      part,
      brief,
      reply,
      kinds: judgeBrief(label, brief),
      intentOk,
      presented: unique.length,
      satisfying: unique.length - new Set(broken.map((b) => b.split(':')[0])).size,
      broken,
    };
  };

  const outcomes: Outcome[] = [];
  const queue = Object.entries(parts).flatMap(([part, labels]) => labels.map((label) => ({ part, label })));
  const workers = Array.from({ length: 4 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      try {
        outcomes.push(await runOne(next.label, next.part, parent));
      } catch (err) {
        outcomes.push({
          label: next.label,
          part: next.part,
          brief: {},
          reply: '',
          kinds: judgeBrief(next.label, {}),
          intentOk: false,
          presented: 0,
          satisfying: 0,
          broken: [],
          error: (err as Error).message,
        });
      }
    }
  });
  await Promise.all(workers);
  report(outcomes);
} finally {
  await stack.close();
}

function pct(ok: number, all: number): string {
  return all === 0
    ? '     -      '
    : `${((100 * ok) / all).toFixed(1).padStart(5)}% ${`${ok}/${all}`.padEnd(7)}`;
}

function report(all: Outcome[]) {
  const groups: Array<[string, Outcome[]]> = [
    ['held-out', all.filter((o) => o.part === 'held-out')],
    ['tuning', all.filter((o) => o.part === 'tuning')],
    ['whole', all],
  ];
  const row = (name: string, f: (os: Outcome[]) => [number, number]) =>
    console.log(`${name.padEnd(22)}${groups.map(([, os]) => pct(...f(os)).padEnd(20)).join('')}`);
  console.log(
    `\nStylist eval: ${all.length} utterances (${groups[0]![1].length} held-out, ${groups[1]![1].length} tuning)\n`,
  );
  console.log(`${'constraint kind'.padEnd(22)}${groups.map(([n]) => n.padEnd(20)).join('')}`);
  for (const kind of Object.keys(KINDS_OF_CONSTRAINT) as ConstraintKind[])
    row(kind, (os) => {
      const scored = os.filter((o) => o.kinds[kind] !== null);
      return [scored.filter((o) => o.kinds[kind]).length, scored.length];
    });
  const whole = (o: Outcome) => Object.values(o.kinds).every((v) => v !== false);
  row('refinements', (os) => {
    const r = os.filter((o) => o.label.turns.length > 1);
    return [r.filter(whole).length, r.length];
  });
  row('whole brief', (os) => [os.filter(whole).length, os.length]);
  row('intents', (os) => {
    const r = os.filter((o) => o.intentOk !== null);
    return [r.filter((o) => o.intentOk).length, r.length];
  });
  row('suggestions ok', (os) => [
    os.reduce((n, o) => n + o.satisfying, 0),
    os.reduce((n, o) => n + o.presented, 0),
  ]);
  const worst = all
    .map((o) => ({
      o,
      misses: Object.entries(o.kinds)
        .filter(([, v]) => v === false)
        .map(([k]) => k),
    }))
    .filter((x) => x.misses.length > 0 || x.o.intentOk === false || x.o.broken.length > 0 || x.o.error)
    .sort((a, b) => b.misses.length - a.misses.length || a.o.label.id.localeCompare(b.o.label.id));
  console.log(`\nworst misreads (${worst.length} utterances with any miss; up to 25 shown):`);
  for (const { o, misses } of worst.slice(0, Number(process.env.EVAL_SHOW ?? 25))) {
    console.log(`- ${o.label.id} [${o.part}] "${o.label.turns.join(' | ')}"`);
    if (o.error) console.log(`    error: ${o.error}`);
    if (misses.length) {
      const fields = misses.flatMap((k) => KINDS_OF_CONSTRAINT[k as ConstraintKind]);
      const pick = (b: Record<string, unknown>) =>
        Object.fromEntries(fields.filter((f) => b[f] !== undefined).map((f) => [f, b[f]]));
      console.log(
        `    expected ${JSON.stringify(pick(o.label.brief))}, understood ${JSON.stringify(pick(o.brief as Record<string, unknown>))}`,
      );
    }
    if (o.intentOk === false)
      console.log(`    expected ${o.label.expect}; replied: ${o.reply.slice(0, 160)}`);
    for (const b of o.broken) console.log(`    presented as fitting but breaks ${b}`);
  }
}
