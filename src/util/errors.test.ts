import { describe, expect, it } from 'vitest';
import { InputError, InputErrors, renderSettings, setting } from './errors.ts';

describe('settings named in messages', () => {
  it('read as the API names them in message, as flags in describe("cli")', () => {
    const e = new InputError(`${setting('calibrateOn')} needs a split; ${setting('floor')} auto too`, { file: 'd', where: 'line 2' });
    expect(e.message).toBe('calibrateOn needs a split; floor auto too');
    expect(e.describe()).toBe('d: line 2: calibrateOn needs a split; floor auto too');
    expect(e.describe('cli')).toBe('d: line 2: --calibrate-on needs a split; --floor auto too');
    expect(e.text('cli')).toBe('--calibrate-on needs a split; --floor auto too');
    // the template keeps the marks, so a message wrapped again renders again
    expect(new InputError(e.template).describe('cli')).toBe('--calibrate-on needs a split; --floor auto too');
  });

  it('a text without a setting is left as it is; capitals become dashes only inside marks', () => {
    expect(renderSettings('no flag --here, camelCase', 'cli')).toBe('no flag --here, camelCase');
    expect(renderSettings(`${setting('examplesFrom')}/${setting('shard')}`, 'cli')).toBe('--examples-from/--shard');
    expect(renderSettings(`${setting('examplesFrom')}/${setting('shard')}`, 'api')).toBe('examplesFrom/shard');
  });

  it('several problems at once render each problem in the style asked for', () => {
    const all = new InputErrors([new InputError(`${setting('tolerance')}: "x"`, { where: 'row 1' }), new InputError('plain', { where: 'row 2' })], 2);
    expect(all.describe('cli')).toBe('2 problems\n  row 1: --tolerance: "x"\n  row 2: plain');
    expect(all.describe()).toBe('2 problems\n  row 1: tolerance: "x"\n  row 2: plain');
  });
});
