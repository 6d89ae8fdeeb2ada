/**
 * The monster company's departments (its roles) and what each one works with: the systems it uses
 * (an archetype, how many of the company's products of it, and the kinds of object it handles
 * there) and the plugins it installed. Hand-written vocabulary; `roles.ts` turns it into the
 * company's role map for the generated catalog (where a department also gets the tools of its own
 * workflows, `data/workflows.json`, on every product).
 *
 * A department handles few kinds of object in most systems, so most roles see tens to a few
 * hundred tools; the platform roles (platform, IT, business systems) run whole servers and see
 * thousands.
 */
import { ARCHETYPES } from './archetypes.ts';
import { PLUGINS } from './plugins.ts';

/** One system a department uses. */
export interface SystemSpec {
  archetype: string;
  /** The kinds of object the department handles there (every operation on them), or `all` (whole servers). */
  objects: readonly string[] | 'all';
  /** How many of the company's products of the archetype it uses, the main ones (vocabulary order) first: default 1. */
  products?: number | 'all';
}

export interface DepartmentSpec {
  /** The role's name (`sre`): the departments of `data/workflows.json` are among them. */
  name: string;
  description: string;
  systems: readonly SystemSpec[];
  /** Plugins the department installed (every tool of each). */
  plugins: readonly string[];
}

/** Plugins every role has: productivity and IT self-service. */
export const COMPANY_PLUGINS: readonly string[] = [
  'slack-power-tools', 'meeting-notes', 'calendar-assistant', 'it-helpdesk', 'travel-booker', 'doc-translator', 'inbox-assistant', 'wiki-assistant', 'status-reporter', 'okr-tracker',
];

const sys = (archetype: string, objects: readonly string[] | 'all', products: number | 'all' = 1): SystemSpec => ({ archetype, objects, products });

export const COMPANY_DEPARTMENTS: readonly DepartmentSpec[] = [
  {
    name: 'sre',
    description: 'site reliability: clusters, monitoring, incidents, deploys',
    systems: [
      sys('kubernetes', ['pod', 'deployment', 'rollout']),
      sys('observability', ['monitor', 'alert', 'log_event']),
      sys('incident', ['incident', 'schedule']),
      sys('ci_cd', ['deployment', 'rollback']),
      sys('error_tracking', ['issue']),
      sys('chat', ['message']),
    ],
    plugins: ['k8s-debugger', 'log-lens', 'incident-copilot', 'oncall-buddy', 'datadog-assistant', 'slo-tracker', 'perf-profiler'],
  },
  {
    name: 'engineering',
    description: 'product engineering: code, reviews, builds, errors, planning',
    systems: [
      sys('vcs', ['pull_request', 'branch', 'review']),
      sys('ci_cd', ['build']),
      sys('error_tracking', ['issue']),
      sys('project_management', ['task', 'sprint']),
      sys('feature_flags', ['flag']),
      sys('docs', ['page']),
      sys('chat', ['message']),
    ],
    plugins: [
      'clickup', 'github-copilot-tools', 'jira-assistant', 'linear-quick', 'code-review-bot', 'test-forge', 'api-workbench', 'release-train', 'commit-scribe', 'flag-janitor',
      'openapi-tools', 'sentry-triage', 'pr-radar', 'mobile-release',
    ],
  },
  {
    name: 'sales',
    description: 'sales: pipeline, deals, quotes, customer meetings',
    systems: [
      sys('crm', ['contact', 'lead', 'account', 'opportunity', 'deal', 'note']),
      sys('billing', ['quote']),
      sys('calendar', ['meeting']),
      sys('chat', ['message']),
    ],
    plugins: [
      'crm-quick-actions', 'salesforce-tools', 'hubspot-helper', 'prospector', 'email-outreach', 'call-notes', 'deal-desk', 'forecast-pro', 'territory-planner', 'competitive-intel',
      'meeting-prep', 'contract-builder', 'linkedin-sales', 'renewals-tracker', 'commission-calc', 'deck-maker',
    ],
  },
  {
    name: 'marketing',
    description: 'marketing: campaigns, audiences, content, product analytics',
    systems: [
      sys('marketing', ['campaign', 'audience', 'segment', 'journey']),
      sys('analytics', ['funnel', 'cohort']),
      sys('crm', ['lead', 'campaign']),
      sys('design', ['file']),
      sys('chat', ['message']),
    ],
    plugins: [
      'content-writer', 'seo-toolkit', 'social-scheduler', 'campaign-analytics', 'email-builder', 'brand-guard', 'webinar-manager', 'experiment-lab', 'press-monitor',
      'landing-pages', 'ads-manager', 'influencer-crm', 'brand-assets', 'image-studio', 'video-editor', 'trademark-watch', 'figma-helper', 'a11y-checker', 'icon-finder',
    ],
  },
  {
    name: 'support',
    description: 'customer support: tickets, conversations, help articles',
    systems: [
      sys('support', ['ticket', 'conversation', 'macro']),
      sys('crm', ['contact']),
      sys('billing', ['refund']),
      sys('docs', ['page']),
      sys('messaging', ['message']),
      sys('chat', ['message']),
    ],
    plugins: ['zendesk-assist', 'intercom-copilot', 'kb-writer', 'macro-studio', 'csat-insights', 'refund-desk', 'translate-desk', 'sentiment-radar', 'customer-360', 'transcript-tools', 'sla-watch', 'returns-hub', 'support-qa', 'faq-bot'],
  },
  {
    name: 'finance',
    description: 'finance: billing, accounting, close, reporting',
    systems: [
      sys('billing', ['invoice', 'subscription', 'payment']),
      sys('accounting', ['bill', 'journal_entry', 'financial_report', 'reconciliation']),
      sys('bi', ['dashboard']),
      sys('hr', ['payroll_run']),
      sys('chat', ['message']),
    ],
    plugins: [
      'invoice-assistant', 'expense-helper', 'stripe-toolkit', 'ap-automation', 'month-end-close', 'fpa-models', 'tax-helper', 'payroll-checks', 'budget-tracker', 'treasury-desk',
      'procurement', 'spend-analytics', 'rev-rec', 'audit-prep', 'contract-review', 'nda-generator', 'legal-research', 'clause-library', 'e-signature',
    ],
  },
  {
    name: 'people',
    description: 'people operations: employees, time off, hiring, onboarding',
    systems: [
      sys('hr', ['employee', 'time_off_request', 'leave_balance', 'onboarding_task']),
      sys('recruiting', ['candidate', 'interview', 'offer']),
      sys('identity', ['user']),
      sys('calendar', ['event']),
      sys('chat', ['message']),
    ],
    plugins: [
      'hr-helpdesk', 'pto-planner', 'onboarding-buddy', 'offboarding', 'performance-coach', 'org-chart', 'comp-planner', 'learning-hub', 'pulse-surveys', 'benefits-guide',
      'people-analytics', 'employee-directory', 'recruiter-copilot', 'interview-kit', 'job-description-studio', 'offer-letters', 'resume-screener', 'referral-portal',
    ],
  },
  {
    name: 'data',
    description: 'data: warehouses, pipelines, dashboards, product analytics',
    systems: [
      sys('data_platform', ['table', 'query', 'dag_run', 'job']),
      sys('database', ['table', 'query']),
      sys('bi', ['dashboard', 'look']),
      sys('analytics', ['funnel', 'cohort', 'report']),
      sys('docs', ['page']),
      sys('chat', ['message']),
    ],
    plugins: ['sql-copilot', 'notebook-runner', 'csv-tools', 'chart-maker', 'sql-reports', 'data-catalog', 'data-quality', 'ml-experiments', 'spreadsheet-ai', 'dbt-helper', 'metrics-layer', 'survey-analysis', 'forecast-lab'],
  },
  {
    name: 'security',
    description: 'security: vulnerabilities, detections, access, posture',
    systems: [
      sys('security', ['vulnerability', 'finding', 'detection', 'alert', 'misconfiguration'], 'all'),
      sys('identity', ['user', 'session', 'system_log']),
      sys('cloud', ['iam_role', 'security_group']),
      sys('itsm', ['change_request']),
      sys('chat', ['message']),
    ],
    plugins: ['vuln-triage', 'access-reviewer', 'phish-analyzer', 'secrets-scanner', 'threat-intel', 'soc-assistant', 'policy-writer', 'vendor-risk', 'dependency-doctor', 'privacy-requests', 'compliance-tracker'],
  },
  {
    name: 'platform',
    description: 'platform engineering: runs the clusters, cloud accounts, CI/CD, monitoring and databases',
    systems: [sys('kubernetes', 'all', 2), sys('cloud', 'all'), sys('ci_cd', 'all', 2), sys('observability', 'all'), sys('database', 'all'), sys('incident', ['incident', 'schedule']), sys('chat', ['message'])],
    plugins: [
      'docker-helper', 'k8s-debugger', 'terraform-helper', 'cloud-cost', 'cloud-inventory', 'ci-doctor', 'migration-guard', 'log-lens', 'datadog-assistant', 'slo-tracker',
      'perf-profiler', 'sql-copilot', 'regex-lab', 'snippet-vault', 'diagram-studio',
    ],
  },
  {
    name: 'it',
    description: 'IT: identity and access, service desk, workplace tools',
    systems: [sys('identity', 'all'), sys('itsm', 'all'), sys('chat', 'all'), sys('file_storage', 'all'), sys('calendar', ['calendar', 'room', 'resource']), sys('docs', ['space', 'permission'])],
    plugins: ['access-reviewer', 'onboarding-buddy', 'offboarding', 'employee-directory'],
  },
  {
    name: 'business-systems',
    description: 'business systems: administers the CRM, support desk, project tracking, wiki and marketing automation',
    systems: [sys('crm', 'all', 2), sys('support', 'all', 2), sys('project_management', 'all', 2), sys('docs', 'all'), sys('marketing', 'all'), sys('chat', ['message'])],
    plugins: ['crm-quick-actions', 'salesforce-tools', 'hubspot-helper', 'zendesk-assist', 'jira-assistant', 'wiki-assistant'],
  },
];

/** Errors in the departments above: unknown archetypes, objects and plugins, repeated names. */
export function departmentErrors(departments: readonly DepartmentSpec[] = COMPANY_DEPARTMENTS, companyPlugins: readonly string[] = COMPANY_PLUGINS): string[] {
  const errors: string[] = [];
  const plugins = new Set(PLUGINS.map((p) => p.name));
  const names = new Set<string>();
  for (const d of departments) {
    if (names.has(d.name)) errors.push(`${d.name}: department named twice`);
    names.add(d.name);
    for (const s of d.systems) {
      const a = ARCHETYPES.find((x) => x.key === s.archetype);
      if (!a) {
        errors.push(`${d.name}: unknown archetype ${s.archetype}`);
        continue;
      }
      if (s.objects !== 'all') for (const o of s.objects) if (!a.objects.some((x) => x.key === o)) errors.push(`${d.name}: ${s.archetype} has no object ${o}`);
      if (s.products !== undefined && s.products !== 'all' && !(Number.isInteger(s.products) && s.products >= 1)) errors.push(`${d.name}: ${s.archetype}: products must be a whole number ≥ 1 or 'all'`);
    }
    for (const p of d.plugins) if (!plugins.has(p)) errors.push(`${d.name}: unknown plugin ${p}`);
  }
  for (const p of companyPlugins) if (!plugins.has(p)) errors.push(`company plugins: unknown plugin ${p}`);
  return errors;
}

const errors = departmentErrors();
if (errors.length) throw new Error(`src/generate/vocab/departments.ts is invalid:\n${errors.join('\n')}`);
