import { CartprepFailureCode, ToolName } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES, TOOLS } from '../src/adapters/tools/tool-registry.ts';
import { failureInWords } from '../src/domain/cart-status.ts';
import { STEP_LABELS } from '../src/domain/mission.ts';

describe('lists keyed by their enums', () => {
  it('offers the model every tool of the contract, each under its own name and with a plan-step label', () => {
    expect([...TOOL_NAMES].sort()).toEqual([...ToolName.options].sort());
    for (const tool of TOOLS) expect(STEP_LABELS[tool.name]).toMatch(/^[A-Z]/);
  });

  it.each(CartprepFailureCode.options)('tells the shopper what %s means in words', (code) => {
    expect(failureInWords(code)).not.toContain(code);
  });
});
