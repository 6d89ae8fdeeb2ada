import { describe, expect, it } from 'vitest';
import { countTokens, TOKEN_COUNTERS } from './count.ts';
import { providerTool, serializeTool, serializeTools } from './serialize.ts';
import { spacedSample, tokenTable } from './table.ts';

describe('token counters', () => {
  it('o200k_base counts known strings as the OpenAI tokenizer does', () => {
    // o200k_base: "Hello" "," " world" "!" = 13225, 11, 2375, 0
    expect(countTokens('Hello, world!')).toBe(4);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('the harness estimators are ceil(bytes/4) and ceil(code points/4)', () => {
    // a (1 byte) é (2) € (3) 😀 (4): 10 bytes, 4 code points, 5 UTF-16 units
    expect(countTokens('aé€😀', 'bytes/4')).toBe(3);
    expect(countTokens('aé€😀', 'chars/4')).toBe(1);
    expect(countTokens('abcd', 'chars/4')).toBe(1);
    expect(countTokens('abcde', 'chars/4')).toBe(2);
    expect(countTokens('abcdefgh', 'bytes/4')).toBe(2);
    expect(Object.keys(TOKEN_COUNTERS)).toEqual(['o200k', 'bytes/4', 'chars/4']);
  });
});

describe('provider serializations', () => {
  const d = { name: 'get_weather', description: 'Weather now.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
  it('OpenAI function tools: {type: function, function: {name, description, parameters}}', () => {
    expect(providerTool(d, 'openai')).toEqual({ type: 'function', function: { name: 'get_weather', description: 'Weather now.', parameters: d.inputSchema } });
    expect(serializeTool(d, 'openai')).toBe(
      '{"type":"function","function":{"name":"get_weather","description":"Weather now.","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}',
    );
  });
  it('Anthropic tools: {name, description, input_schema}', () => {
    expect(serializeTool(d, 'anthropic')).toBe(
      '{"name":"get_weather","description":"Weather now.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}',
    );
    expect(serializeTools([d, d], 'anthropic')).toBe(`[${serializeTool(d, 'anthropic')},${serializeTool(d, 'anthropic')}]`);
    expect(serializeTools([], 'openai')).toBe('[]');
  });
});

describe('the seed token table', () => {
  it('samples evenly spaced positions', () => {
    expect(spacedSample(10, 4)).toEqual([0, 2, 5, 7]);
    expect(spacedSample(3, 5)).toEqual([0, 1, 2]);
  });
  it('measures blocks, window share and the 12-turn uncached cost', () => {
    const defs = Array.from({ length: 40 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Does thing number ${i}.`,
      inputSchema: { type: 'object', properties: {} },
    }));
    const t = tokenTable(defs, { sizes: [10, 50], contextWindow: 1000, turns: 12 });
    expect(t.rows.map((r) => r.tools)).toEqual([10, 40]);
    const block = countTokens(
      serializeTools(
        spacedSample(40, 10).map((i) => defs[i]!),
        'anthropic',
      ),
    );
    expect(t.rows[0]!.blockTokens.anthropic).toBe(block);
    expect(t.rows[0]!.windowShare).toBe(block / 1000);
    expect(t.rows[0]!.uncachedConversationTokens).toBe(block * 12);
    expect(t.rows[0]!.tokensPerTool.anthropic).toBe(block / 10);
    // the OpenAI wrapper ({"type":"function","function":{…}}) costs more than Anthropic's
    expect(t.rows[1]!.blockTokens.openai).toBeGreaterThan(t.rows[1]!.blockTokens.anthropic);
  });
});
