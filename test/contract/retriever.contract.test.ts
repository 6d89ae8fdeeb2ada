/**
 * The contract every registered retriever must keep. Parametrised over the registry, so a
 * retriever added to `RETRIEVERS` is tested here without further edits.
 */
import { describe } from 'vitest';
import { createRetriever, retrieverNames } from '../../src/retrievers/registry.ts';
import { CONTRACT_DATA, retrieverContract } from './contract.ts';

/** What the command line hands every retriever: the dataset's role map (the gate needs it). */
const options = { roles: CONTRACT_DATA.roles };

describe.each(retrieverNames())('retriever %s', (name) => {
  retrieverContract(() => createRetriever(name, options), name);
});
