import { describe, expect, it } from 'vitest';
import { runFlow } from '../src/flow.ts';

describe('runFlow', () => {
  it('runs the steps in order and returns the state', async () => {
    const state = { log: [] as string[] };
    await runFlow(
      [
        { name: 'a', run: (s) => void s.log.push('a') },
        { name: 'b', run: async (s) => void s.log.push('b') },
      ],
      state,
    );
    expect(state.log).toEqual(['a', 'b']);
  });

  it('undoes the steps already done, newest first, and rethrows the failing step', async () => {
    const state = { log: [] as string[] };
    const boom = new Error('boom');
    const run = runFlow(
      [
        { name: 'reserve', run: (s) => void s.log.push('reserve'), undo: (s) => void s.log.push('release') },
        { name: 'note', run: (s) => void s.log.push('note') },
        {
          name: 'lock',
          run: (s) => void s.log.push('lock'),
          undo: (s, err) => void s.log.push(`unlock ${String(err)}`),
        },
        { name: 'fail', run: () => Promise.reject(boom), undo: (s) => void s.log.push('never') },
        { name: 'after', run: (s) => void s.log.push('never') },
      ],
      state,
    );
    await expect(run).rejects.toBe(boom);
    expect(state.log).toEqual(['reserve', 'note', 'lock', 'unlock Error: boom', 'release']);
  });
});
