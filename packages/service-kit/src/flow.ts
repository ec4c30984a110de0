/**
 * A named step of a multi-step operation (a flow). `undo` gives back what `run` took when a
 * later step fails; it sees the error, so it can keep an effect a racing caller now relies on.
 */
export type FlowStep<S> = {
  name: string;
  run: (state: S) => Promise<void> | void;
  undo?: (state: S, err: unknown) => Promise<void> | void;
};

/**
 * Runs the steps in order on one state object. When a step throws, the steps already done are
 * undone in reverse order, then the step's error is rethrown. A failing undo stops the unwinding
 * and its error is thrown instead: a half-undone flow must not look like a clean refusal.
 */
export async function runFlow<S>(steps: readonly FlowStep<S>[], state: S): Promise<S> {
  const done: FlowStep<S>[] = [];
  for (const step of steps) {
    try {
      await step.run(state);
    } catch (err) {
      for (const prior of done.reverse()) await prior.undo?.(state, err);
      throw err;
    }
    done.push(step);
  }
  return state;
}
