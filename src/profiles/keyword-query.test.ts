import { describe, expect, it } from 'vitest';
import { isValue, keywordQuery, queryFor } from './keyword-query.ts';

describe('keywordQuery', () => {
  it.each([
    // content words and product names kept; fillers, stop words and values dropped
    ['help me hunt for a org about churn in GL', 'hunt org churn GL'],
    ['PD: change the status on inbound hook id 88213 to "blocked" thanks', 'PD change status inbound hook id'],
    ['can you update conversation “Globex” with due date next Friday in Intercom?', 'update conversation due date next Friday Intercom'],
    // inner hyphens and underscores kept, surrounding punctuation stripped, each word once
    ['(Splunk) point-in-time copy, get_rollout_history; Splunk again!', 'Splunk point-in-time copy get_rollout_history'],
    // product names with a digit kept; ids, numbers and dates dropped
    ['make an MFA factor for Thistle soft launch (Auth0)', 'make MFA factor Thistle soft launch Auth0'],
    ['k8s: get pod ITSD-9512 out of the active list', 'k8s get pod active list'],
    ['EC2 and S3 costs on 2026-12-01 for 1Password, a11y and customer-360, ticket #77 b76937', 'EC2 S3 costs 1Password a11y customer-360 ticket'],
    // nothing to search for: an empty query
    ['ok thanks, just checking!', 'checking'],
    ['could you please?', ''],
    ['  ', ''],
    // every content word (no length cap)
    ['alpha bravo charlie delta echo foxtrot golf hotel india juliet', 'alpha bravo charlie delta echo foxtrot golf hotel india juliet'],
  ])('%j → %j', (request, keywords) => {
    expect(keywordQuery(request)).toBe(keywords);
  });

  it('tells values (ids, numbers, dates) from names with a digit', () => {
    expect(['Auth0', 'k8s', 'EC2', 'S3', '1Password', 'a11y', 'customer-360', 'Q3'].filter(isValue)).toEqual([]);
    expect(['31337', 'b76937', 'SEC-4515', 'ITSD-9512', '2026-12-01', '#77', '#release', '7f3a2c', '401k'].every(isValue)).toBe(true);
  });

  it('queryFor: raw passes the request through', () => {
    expect(queryFor('Hey, list my Jira issues', 'raw')).toBe('Hey, list my Jira issues');
    expect(queryFor('Hey, list my Jira issues', 'keywords')).toBe('list Jira issues');
  });
});
