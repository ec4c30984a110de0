// CARTPREP_MAX_ACTIVE_JOBS_PER_USER: one account guarding many households (it approves its own
// purchases) held 100 jobs with 5 per household, and another family's cart waited 353 s.
import { ConfigError } from '@hs/service-kit';
import { describe, expect, it } from 'vitest';
import { loadCartprepConfig } from '../src/index.ts';
import { buildCartprep, job } from './cartprep-harness.ts';

const carts = (actorId: string, householdId: string, n: number) =>
  job({
    jobId: `cpj_${actorId}${householdId}${n}`,
    householdId,
    requestId: `pr_${householdId}${n}`,
    actorId,
  });

describe('cart-prep jobs per user across households', () => {
  it("refuses a user's job in a second household once they hold CARTPREP_MAX_ACTIVE_JOBS_PER_USER (429), never another user", async () => {
    const prep = await buildCartprep({
      CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: '2',
      CARTPREP_MAX_ACTIVE_JOBS_PER_USER: '3',
    });
    try {
      expect((await prep.create(carts('mallory', 'h_one', 1))).statusCode).toBe(201);
      expect((await prep.create(carts('mallory', 'h_one', 2))).statusCode).toBe(201);
      // The household's own bound comes first.
      const householdFull = await prep.create(carts('mallory', 'h_one', 3));
      expect(householdFull.json().message).toBe(
        'This household already has 2 carts being prepared; try again when one is done',
      );
      expect((await prep.create(carts('mallory', 'h_two', 1))).statusCode).toBe(201);
      const fourth = await prep.create(carts('mallory', 'h_two', 2));
      expect(fourth.statusCode).toBe(429);
      expect(fourth.headers['retry-after']).toBe('30');
      expect(fourth.json()).toEqual({
        error: 'RATE_LIMITED',
        message: 'You already have 3 carts being prepared across your households; try again when one is done',
      });
      expect((await prep.get('cpj_malloryh_two2')).statusCode).toBe(404);
      // Another member of the same household still has the household's room.
      expect((await prep.create(carts('alice', 'h_two', 3))).statusCode).toBe(201);
      // The actor is kept on the job, not shown.
      expect((await prep.get('cpj_aliceh_two3')).json()).not.toHaveProperty('actorId');
      // A finished job frees the user's place.
      expect((await prep.process('cpj_malloryh_one1')).json().status).toBe('SUCCEEDED');
      expect((await prep.create(carts('mallory', 'h_three', 1))).statusCode).toBe(201);
    } finally {
      await prep.close();
    }
  });

  it('does not count jobs without an actor (from before it was kept) against anyone', async () => {
    const prep = await buildCartprep({ CARTPREP_MAX_ACTIVE_JOBS_PER_USER: '1' });
    try {
      expect((await prep.create(job({ jobId: 'cpj_noactor01', householdId: 'h_one' }))).statusCode).toBe(201);
      expect((await prep.create(job({ jobId: 'cpj_noactor02', householdId: 'h_two' }))).statusCode).toBe(201);
      expect((await prep.create(carts('alice', 'h_one', 1))).statusCode).toBe(201);
    } finally {
      await prep.close();
    }
  });

  it('defaults CARTPREP_MAX_ACTIVE_JOBS_PER_USER to the household bound and stops the boot on a bad value', () => {
    expect(loadCartprepConfig({ APP_ENV: 'test' }).cartprep.maxActiveJobsPerUser).toBe(5);
    expect(
      loadCartprepConfig({ CARTPREP_MAX_ACTIVE_JOBS_PER_USER: '12' }).cartprep.maxActiveJobsPerUser,
    ).toBe(12);
    expect(() => loadCartprepConfig({ CARTPREP_MAX_ACTIVE_JOBS_PER_USER: '0' })).toThrow(
      new ConfigError(
        'Configuration error: CARTPREP_MAX_ACTIVE_JOBS_PER_USER Too small: expected number to be >=1 (value: "0")',
      ),
    );
    expect(() => loadCartprepConfig({ CARTPREP_MAX_ACTIVE_JOBS_PER_USER: 'many' })).toThrow(
      /^Configuration error: CARTPREP_MAX_ACTIVE_JOBS_PER_USER /,
    );
  });
});
