import { describe, expect, it } from 'vitest';
import { inputError } from '../../test/helpers.ts';
import { expandValue, workspaceFolderOf } from './expand.ts';

const env = { TOKEN: 'sk-1', EMPTY: '' };

describe('expandValue', () => {
  it('expands ${VAR}, ${env:VAR} and ${VAR:-default} and records the names used', () => {
    const used = new Set<string>();
    expect(expandValue('Bearer ${TOKEN}', env, 'c.json', '$.x', used)).toBe('Bearer sk-1');
    expect(expandValue('${env:TOKEN}/${MISSING:-fallback}/${EMPTY:-e}', env, 'c.json', '$.x', used)).toBe('sk-1/fallback/e');
    expect([...used].sort()).toEqual(['EMPTY', 'MISSING', 'TOKEN']);
    expect(expandValue('no references, $HOME stays', env, 'c.json', '$.x')).toBe('no references, $HOME stays');
  });

  it('names the variable and the JSON path when a variable is not set', () => {
    const e = inputError(() => expandValue('${GITHUB_TOKEN}', env, 'c.json', '$.mcpServers.github.env.GITHUB_TOKEN'));
    expect(e.describe()).toBe('c.json: $.mcpServers.github.env.GITHUB_TOKEN: environment variable GITHUB_TOKEN is not set (referenced as ${GITHUB_TOKEN})');
  });

  it('refuses prompted inputs and malformed references', () => {
    expect(inputError(() => expandValue('${input:token}', env, 'c.json', '$.a')).message).toMatch(/typed in the editor/);
    expect(inputError(() => expandValue('${1abc}', env, 'c.json', '$.a')).message).toMatch(/not a variable reference/);
  });

  it('takes the workspace folder from the parent of .vscode/', () => {
    expect(workspaceFolderOf('/p/proj/.vscode/mcp.json')).toBe('/p/proj');
    expect(workspaceFolderOf('/p/proj/.mcp.json')).toBe('/p/proj');
    expect(expandValue('${workspaceFolder}/data', env, '/p/proj/.vscode/mcp.json', '$.a')).toBe('/p/proj/data');
  });
});
