import { describe, expect, it } from 'vitest';
import { contentWords, stem, wordOverlap, words } from '../catalog/overlap.ts';
import { article, sharesNoNameWord, styleName } from './text.ts';

describe('words and stems', () => {
  it('splits snake, kebab and camel case and lowercases', () => {
    expect(words('getRolloutHistory')).toEqual(['get', 'rollout', 'history']);
    expect(words('mcp__kubernetes__get_rollout_history')).toEqual(['mcp', 'kubernetes', 'get', 'rollout', 'history']);
    expect(words('list-pod-logs, NOW!')).toEqual(['list', 'pod', 'logs', 'now']);
  });

  it('stems plural endings only', () => {
    expect(['contacts', 'policies', 'boxes', 'class', 'bus'].map(stem)).toEqual(['contact', 'policy', 'box', 'class', 'bus']);
  });

  it('drops stop words from content words', () => {
    expect([...contentWords('Can you show me the contacts in the CRM?')].sort()).toEqual(['contact', 'crm', 'show']);
  });
});

describe('wordOverlap', () => {
  it('is the share of request content words found in the gold text (hand-computed)', () => {
    // request content words: {list, pod, cluster, prod}; gold has list and pod → 2/4
    expect(wordOverlap('list the pods in cluster prod', 'list_pods Lists pods in a namespace')).toBe(0.5);
    expect(wordOverlap('hello there', 'list_pods')).toBe(0);
    expect(wordOverlap('the and of', 'anything')).toBe(0);
  });

  it('sharesNoNameWord sees through plural and case', () => {
    expect(sharesNoNameWord('show me every Contact', 'list_contacts')).toBe(false);
    expect(sharesNoNameWord('show me every person we know', 'list_contacts')).toBe(true);
    expect(sharesNoNameWord('show every history entry', 'getContactHistory')).toBe(false);
  });
});

describe('styleName and article', () => {
  it('renders snake names in each style', () => {
    expect(styleName('get_rollout_history', 'snake')).toBe('get_rollout_history');
    expect(styleName('get_rollout_history', 'camel')).toBe('getRolloutHistory');
    expect(styleName('get_rollout_history', 'kebab')).toBe('get-rollout-history');
  });

  it('chooses a or an', () => {
    expect(article('incident')).toBe('an');
    expect(article('user group')).toBe('a');
    expect(article('deployment')).toBe('a');
  });
});
