import type { TurnOutcome, TurnRequest } from './run-turn.ts';

/**
 * The turns this process is running, so a shutdown can let them finish for a moment and close
 * the rest (`turn.failed`) instead of leaving their missions blocked until the lease expires.
 */
export function createRunningTurns() {
  const running = new Map<string, { req: TurnRequest; done: Promise<TurnOutcome> }>();
  const closed = new Set<string>();
  const onClose = new Map<string, () => void>();
  return {
    /** Settles when the shutdown closes the turn (never, if it finishes first). */
    whenClosed(turnId: string): Promise<void> {
      return new Promise((resolve) => onClose.set(turnId, resolve));
    },
    add(turnId: string, req: TurnRequest, done: Promise<TurnOutcome>): void {
      running.set(turnId, { req, done });
      void done.finally(() => {
        running.delete(turnId);
        onClose.delete(turnId);
      });
    },
    /** Waits up to `ms` for the running turns; returns those still running. */
    async settle(ms: number): Promise<Array<{ turnId: string; req: TurnRequest }>> {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running.values()].map((t) => t.done)),
        new Promise((r) => {
          timer = setTimeout(r, ms);
        }),
      ]);
      clearTimeout(timer);
      return [...running.entries()].map(([turnId, { req }]) => ({ turnId, req }));
    },
    /** A turn closed by the shutdown: whatever it finishes later is not recorded. */
    close(turnId: string): void {
      closed.add(turnId);
      onClose.get(turnId)?.();
    },
    isClosed: (turnId: string) => closed.has(turnId),
  };
}

export type RunningTurns = ReturnType<typeof createRunningTurns>;
