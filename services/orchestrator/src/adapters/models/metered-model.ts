import { serviceMetrics } from '@hs/service-kit';
import { type AgentModel, ModelError } from '../../domain/agent-model.ts';

/**
 * Counts every model call for `/metrics` (`model_calls_total` by model and outcome: ok, or the
 * ModelError code) with its latency, whichever model the mission runs on.
 */
export function meteredModel(model: AgentModel): AgentModel {
  return {
    name: model.name,
    async next(input, hooks) {
      const started = performance.now();
      let outcome = 'ok';
      try {
        return await model.next(input, hooks);
      } catch (err) {
        outcome = err instanceof ModelError ? err.code : 'error';
        throw err;
      } finally {
        serviceMetrics.inc('model_calls_total', { model: model.name, outcome });
        serviceMetrics.observe(
          'model_call_duration_seconds',
          { model: model.name },
          (performance.now() - started) / 1000,
        );
      }
    },
  };
}
