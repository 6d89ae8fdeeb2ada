import { describe, expect, it } from 'vitest';
import { InputError } from '../util/errors.ts';
import { makeTool } from '../catalog/model.ts';
import type { RoleMap } from '../catalog/roles.ts';
import type { Catalog } from '../catalog/types.ts';
import { createGate } from './gate.ts';

const tool = (server: string, name: string, description: string) => makeTool({ name, source: 'mcp', server, summary: description, description });
const catalog: Catalog = {
  tools: [
    tool('k8s', 'list_pods', 'list pods in a cluster namespace'),
    tool('k8s', 'restart_deployment', 'restart a deployment rollout'),
    tool('crm', 'add_note', 'add a note to a customer account'),
    tool('crm', 'list_pods', 'list pods of customer success managers'),
    makeTool({ name: 'finish', source: 'core', summary: 'finish', description: 'finish the task', pinned: true }),
  ],
  skills: [],
  servers: [],
  plugins: [],
};
const roles: RoleMap = {
  schemaVersion: 1,
  always: ['core'],
  roles: { sre: { description: '', namespaces: ['k8s'] }, sales: { description: '', namespaces: ['crm'] } },
};

describe('gate', () => {
  it("searches only the namespaces of the caller's role", async () => {
    const g = createGate('gate', { roles });
    await g.index(catalog);
    const sales = await g.search('list pods', { k: 5, role: 'sales' });
    expect(sales.map((h) => h.id)).toEqual(['mcp__crm__list_pods']);
    const sre = await g.search('list pods', { k: 5, role: 'sre' });
    expect(sre.map((h) => h.id)).toEqual(['mcp__k8s__list_pods']);
    // no role, or an unknown one: not gated
    expect((await g.search('list pods', { k: 5 })).map((h) => h.id).sort()).toEqual(['mcp__crm__list_pods', 'mcp__k8s__list_pods']);
    expect((await g.search('list pods', { k: 5, role: 'intern' })).length).toBe(2);
  });

  it('takes the escape hatch when a tool outside the role matches much better', async () => {
    const g = createGate('gate', { roles });
    await g.index(catalog);
    // an SRE asking for a CRM note: nothing in k8s matches "note customer account" → widened
    const hits = await g.search('add a note to the customer account', { k: 3, role: 'sre' });
    expect(hits[0]!.id).toBe('mcp__crm__add_note');
    expect(g.stats()).toEqual({ gated: 1, escapes: 1 });
    // with escapeRatio 0 the hatch opens only when nothing inside matches at all
    const strict = createGate('gate', { roles, escapeRatio: 0 });
    await strict.index(catalog);
    expect((await strict.search('restart the deployment', { k: 3, role: 'sales' }))[0]!.id).toBe('mcp__k8s__restart_deployment');
  });

  it('keeps the scope mask under the role mask', async () => {
    const g = createGate('gate', { roles });
    await g.index(catalog);
    const allowed = Uint8Array.from([0, 1, 1, 1, 1]); // list_pods on k8s forbidden by scope
    const hits = await g.search('list pods', { k: 5, role: 'sre', allowed });
    expect(hits.map((h) => h.id)).not.toContain('mcp__k8s__list_pods');
  });

  it("searches only the part of a server a role's tool patterns give it, before ranking", async () => {
    const partial: RoleMap = {
      schemaVersion: 1,
      always: ['core'],
      roles: { oncall: { description: '', namespaces: [], tools: ['mcp__k8s__restart_*', 'mcp__crm__add_note'] } },
    };
    const g = createGate('gate', { roles: partial, escapeRatio: 0 });
    await g.index(catalog);
    // the best match for "list pods" (either list_pods) is outside the role: only its own tools are ranked
    expect((await g.search('list pods deployment', { k: 5, role: 'oncall' })).map((h) => h.id)).toEqual(['mcp__k8s__restart_deployment']);
    expect((await g.search('customer account note', { k: 5, role: 'oncall' })).map((h) => h.id)).toEqual(['mcp__crm__add_note']);
  });

  it('needs a role map', async () => {
    await expect(createGate('gate').index(catalog)).rejects.toThrow(InputError);
  });
});
