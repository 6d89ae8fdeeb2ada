/**
 * The monster company's 100 MCP servers. The first seven (and their tool counts) come from the
 * seed article; the rest are real-sounding products or internal services of the archetypes in
 * `archetypes.ts`, several per archetype so the same operation exists on many servers.
 * Hand-written vocabulary in `data/servers.json`, checked against the generator data schema when
 * this module loads.
 */
import serversData from '../data/servers.json' with { type: 'json' };
import { checkedGeneratorData } from '../data-schema.ts';
import type { ServerSpec } from './types.ts';

const data = checkedGeneratorData<{ servers: ServerSpec[] }>('servers', 'servers.json', serversData);

export const SERVERS: readonly ServerSpec[] = data.servers.map(({ name, display, archetype, aliases, description, size }) =>
  size === undefined ? { name, display, archetype, aliases, description } : { name, display, archetype, aliases, description, size },
);
