import { describe, expect, it } from 'vitest';
import { isValue, keywordQuery, queryFor } from './keyword-query.ts';

describe('keywordQuery', () => {
  it('keeps content words and product names, drops fillers, stop words and values', () => {
    expect(keywordQuery('help me hunt for a org about churn in GL')).toBe('hunt org churn GL');
    expect(keywordQuery('PD: change the status on inbound hook id 88213 to "blocked" thanks')).toBe('PD change status inbound hook id');
    expect(keywordQuery('can you update conversation “Globex” with due date next Friday in Intercom?')).toBe('update conversation due date next Friday Intercom');
  });

  it('keeps inner hyphens and underscores, strips surrounding punctuation, each word once', () => {
    expect(keywordQuery('(Splunk) point-in-time copy, get_rollout_history; Splunk again!')).toBe('Splunk point-in-time copy get_rollout_history');
  });

  it('keeps product names with a digit in them, drops ids, numbers and dates', () => {
    expect(keywordQuery('make an MFA factor for Thistle soft launch (Auth0)')).toBe('make MFA factor Thistle soft launch Auth0');
    expect(keywordQuery('k8s: get pod ITSD-9512 out of the active list')).toBe('k8s get pod active list');
    expect(keywordQuery('EC2 and S3 costs on 2026-12-01 for 1Password, a11y and customer-360, ticket #77 b76937')).toBe('EC2 S3 costs 1Password a11y customer-360 ticket');
    expect(['Auth0', 'k8s', 'EC2', 'S3', '1Password', 'a11y', 'customer-360', 'Q3'].filter(isValue)).toEqual([]);
    expect(['31337', 'b76937', 'SEC-4515', 'ITSD-9512', '2026-12-01', '#77', '#release', '7f3a2c', '401k'].every(isValue)).toBe(true);
  });

  it('a request with nothing to search for gives an empty query', () => {
    expect(keywordQuery('ok thanks, just checking!')).toBe('checking');
    expect(keywordQuery('could you please?')).toBe('');
    expect(keywordQuery('  ')).toBe('');
  });

  it('keeps every content word (no length cap)', () => {
    expect(keywordQuery('alpha bravo charlie delta echo foxtrot golf hotel india juliet')).toBe('alpha bravo charlie delta echo foxtrot golf hotel india juliet');
  });

  it('queryFor: raw passes the request through', () => {
    expect(queryFor('Hey, list my Jira issues', 'raw')).toBe('Hey, list my Jira issues');
    expect(queryFor('Hey, list my Jira issues', 'keywords')).toBe('list Jira issues');
  });
});
