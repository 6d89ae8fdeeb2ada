/**
 * Skills of the monster company: SKILL.md procedures, one per (server, activity), plus the seed
 * article's general skills. Each skill names the tools its steps use.
 */
import { makeSkill } from '../catalog/model.ts';
import type { Skill } from '../catalog/types.ts';
import type { Rng } from '../util/rng.ts';
import { docFor, phrasesFor } from './products.ts';
import { capitalize } from './text.ts';
import type { ServerPlan, ToolMeta } from './tools.ts';
import { pluralPhrase } from './tools.ts';
import type { ObjectSpec } from './vocab/types.ts';

interface Activity {
  slug: string;
  category: string;
  /** Title in documentation register: `{display}`, `{doc}`, `{docs}` placeholders. */
  title: string;
  description: string;
  whenToUse: string;
  /** How users ask for the procedure: `{display}`, `{obj}` (casual object phrase). */
  casual: string[];
  /** Operation keys the steps use, in order. */
  ops: string[];
}

const ACTIVITIES: readonly Activity[] = [
  {
    slug: 'incident-triage',
    category: 'incident-response',
    title: 'Triage incidents involving {display} {docs}',
    description: 'Step-by-step triage of a production incident that involves {display} {docs}: timeline, blast radius, mitigation, record, notify.',
    whenToUse: 'Use when something involving {docs} in {display} is broken or degraded right now.',
    casual: ['something is on fire with our {obj} in {display}, what is the playbook?', 'how do we run the response when {display} {obj} stuff breaks?'],
    ops: ['list', 'history', 'comment'],
  },
  {
    slug: 'troubleshooting',
    category: 'debugging',
    title: 'Troubleshoot {display} {docs}',
    description: 'Diagnose misbehaving {docs} in {display}: reproduce, inspect recent changes, compare against a known-good configuration.',
    whenToUse: 'Use when a {doc} behaves unexpectedly but nothing is down.',
    casual: ['my {obj} in {display} is acting weird, how should I go about figuring it out?', 'what are the steps to debug a flaky {obj} on {display}?'],
    ops: ['get', 'history', 'validate'],
  },
  {
    slug: 'onboarding',
    category: 'onboarding',
    title: 'Onboard a team to {display} {docs}',
    description: 'Set up a new team with {display} {docs}: naming conventions, first records, sharing and notifications.',
    whenToUse: 'Use when a new team or hire starts working with {docs} in {display}.',
    casual: [
      'a new hire is starting and will work with {obj} in {display}; what is our setup routine?',
      'how do we get a fresh team going on {display} {obj} things?',
    ],
    ops: ['create', 'share', 'subscribe'],
  },
  {
    slug: 'access-review',
    category: 'security',
    title: 'Review access to {display} {docs}',
    description: 'Quarterly review of who can read and change {docs} in {display}; revoke stale grants and record the evidence.',
    whenToUse: 'Use for periodic access certification or after a reorg.',
    casual: [
      'time for the quarterly check of who can touch {obj} in {display}, how do we do it?',
      'what is the routine for certifying permissions on {display} {obj}?',
    ],
    ops: ['getPermissions', 'setPermissions', 'audit'],
  },
  {
    slug: 'cost-review',
    category: 'cost-optimization',
    title: 'Cut spend on {display} {docs}',
    description: 'Find idle or oversized {docs} in {display} and retire them safely, with owner sign-off.',
    whenToUse: 'Use when the {display} bill grew or during a cost-saving sprint.',
    casual: ['finance says {display} costs too much, what is the process to trim unused {obj} things?', 'how do we hunt down wasteful {obj} on {display}?'],
    ops: ['list', 'count', 'archive'],
  },
  {
    slug: 'data-cleanup',
    category: 'data-quality',
    title: 'Clean up stale {display} {docs}',
    description: 'Find stale, incomplete or orphaned {docs} in {display}, fix or archive them, and report what changed.',
    whenToUse: 'Use before a migration, an audit, or when reports look wrong.',
    casual: ['our {obj} data in {display} is a mess; what is the tidy-up procedure?', 'how do we scrub junk {obj} records out of {display}?'],
    ops: ['search', 'bulkUpdate', 'archive'],
  },
  {
    slug: 'migration',
    category: 'migration',
    title: 'Migrate {docs} into {display}',
    description: 'Plan and run a migration of {docs} into {display}: mapping, dry run, import, verification, cut-over.',
    whenToUse: 'Use when moving {docs} from another system into {display}.',
    casual: ['we are moving our {obj} over to {display}, what is the migration playbook?', 'steps for bringing {obj} data across into {display}?'],
    ops: ['import', 'validate', 'count'],
  },
  {
    slug: 'weekly-report',
    category: 'reporting',
    title: 'Weekly {display} {doc} report',
    description: 'Compile the weekly report on {docs} in {display}: counts, changes, owners, and open risks.',
    whenToUse: 'Use every Monday or when leadership asks for a status update.',
    casual: ['how do I put together the Monday status write-up on {obj} from {display}?', 'what goes into our weekly {display} {obj} summary?'],
    ops: ['count', 'list', 'export'],
  },
  {
    slug: 'audit-prep',
    category: 'compliance',
    title: 'Prepare {display} {docs} for an audit',
    description: 'Gather the evidence auditors ask for about {docs} in {display}: change logs, approvals, access lists.',
    whenToUse: 'Use ahead of SOC 2, ISO 27001 or internal audits.',
    casual: ['auditors are coming, what do we collect about {obj} in {display}?', 'what is the compliance evidence checklist for {display} {obj}?'],
    ops: ['audit', 'export', 'getPermissions'],
  },
  {
    slug: 'release-checklist',
    category: 'release-management',
    title: 'Release checklist for {display} {docs}',
    description: 'Ship changes to {docs} in {display} safely: freeze, validate, announce, monitor, roll back if needed.',
    whenToUse: 'Use before publishing changes that touch {docs} in {display}.',
    casual: ['we are about to ship changes to {obj} in {display}, what is the go-live routine?', 'pre-launch steps for {display} {obj} changes?'],
    ops: ['lock', 'validate', 'subscribe'],
  },
  {
    slug: 'backup-restore',
    category: 'backup-recovery',
    title: 'Recover lost {display} {docs}',
    description: 'Recover {docs} deleted or corrupted in {display}: find the last good version, restore, verify with owners.',
    whenToUse: 'Use when {docs} vanished or were overwritten.',
    casual: ['someone wiped some {obj} in {display}, how do we get them back?', 'what is the recovery routine when {display} {obj} data disappears?'],
    ops: ['history', 'restore', 'get'],
  },
  {
    slug: 'performance-tuning',
    category: 'performance',
    title: 'Speed up {display} {docs}',
    description: 'Find and fix slow operations on {docs} in {display}: measure, narrow queries, trim payloads, re-measure.',
    whenToUse: 'Use when {display} calls on {docs} are slow or time out.',
    casual: ['everything around {obj} in {display} is sluggish, what is the tuning approach?', 'how do we make {display} {obj} operations snappier?'],
    ops: ['search', 'count', 'validate'],
  },
  {
    slug: 'deduplication',
    category: 'data-quality',
    title: 'Deduplicate {display} {docs}',
    description: 'Find duplicate {docs} in {display}, pick survivors, merge, and notify owners.',
    whenToUse: 'Use when the same {doc} exists several times.',
    casual: ['we have doubles of the same {obj} all over {display}; how do we consolidate?', 'process for collapsing repeated {obj} entries in {display}?'],
    ops: ['search', 'merge', 'comment'],
  },
  {
    slug: 'handoff',
    category: 'collaboration',
    title: 'Hand off {display} {docs} to another owner',
    description: 'Transfer responsibility for {docs} in {display} when someone changes team or leaves.',
    whenToUse: 'Use when an owner is leaving or responsibilities move.',
    casual: [
      'Priya is leaving; how do we pass her {obj} in {display} to someone else?',
      'what is the routine for moving {display} {obj} responsibility between people?',
    ],
    ops: ['list', 'assign', 'comment'],
  },
  {
    slug: 'escalation',
    category: 'support',
    title: 'Escalate problems with {display} {docs}',
    description: 'When and how to escalate a problem with {docs} in {display} to the owning team or the vendor.',
    whenToUse: 'Use when a {doc} problem is beyond first-line fixes.',
    casual: ['who do we bring in when a {display} {obj} problem is beyond us, and how?', 'what is the path for kicking a {obj} issue in {display} upstairs?'],
    ops: ['get', 'comment', 'assign'],
  },
  {
    slug: 'capacity-planning',
    category: 'planning',
    title: 'Capacity planning for {display} {docs}',
    description: 'Forecast growth of {docs} in {display} and plan limits, quotas and budget.',
    whenToUse: 'Use during quarterly planning or when nearing plan limits.',
    casual: ['are we going to outgrow {display} with all these {obj} things? how do we plan it?', 'how do we forecast headroom for {obj} in {display}?'],
    ops: ['count', 'list', 'export'],
  },
  {
    slug: 'offboarding',
    category: 'access-management',
    title: 'Offboard a user from {display} {docs}',
    description: 'Remove a departing user from {docs} in {display}: reassign ownership, revoke access, keep evidence.',
    whenToUse: 'Use when someone leaves the company or a vendor contract ends.',
    casual: ['someone left the company; what do we do about their {obj} in {display}?', 'steps to cut a leaver out of {display} {obj} access?'],
    ops: ['assign', 'setPermissions', 'audit'],
  },
  {
    slug: 'integration-setup',
    category: 'integrations',
    title: 'Connect {display} {docs} to other systems',
    description: 'Wire {docs} in {display} to webhooks and downstream systems, test end to end.',
    whenToUse: 'Use when another tool must react to changes of {docs} in {display}.',
    casual: ['how do we hook {display} {obj} changes up to our other systems?', 'what is the routine for syncing {obj} from {display} elsewhere?'],
    ops: ['subscribe', 'link', 'validate'],
  },
  {
    slug: 'change-approval',
    category: 'change-management',
    title: 'Approve changes to {display} {docs}',
    description: 'Four-eyes approval for risky changes to {docs} in {display}: request, review, apply, record.',
    whenToUse: 'Use before bulk or destructive changes to {docs}.',
    casual: ['I want to mass-edit {obj} in {display}; what sign-off do we need first?', 'what is the review routine before risky {display} {obj} changes?'],
    ops: ['get', 'comment', 'bulkUpdate'],
  },
  {
    slug: 'postmortem',
    category: 'incident-response',
    title: 'Write a postmortem for a {display} {doc} incident',
    description: 'Blameless postmortem for an incident involving {docs} in {display}: timeline, contributing factors, actions.',
    whenToUse: 'Use within five days after an incident is resolved.',
    casual: ['the outage around {obj} in {display} is over, how do we write it up?', 'what is our blameless write-up format for {display} {obj} trouble?'],
    ops: ['history', 'activity', 'export'],
  },
  {
    slug: 'health-check',
    category: 'operations',
    title: 'Health check of {display} {docs}',
    description: 'Routine health check of {docs} in {display}: configuration drift, errors, owners, stale items.',
    whenToUse: 'Use weekly, or before a big launch.',
    casual: ['how do I give our {display} {obj} setup a once-over?', 'what is the routine check-up for {obj} in {display}?'],
    ops: ['validate', 'list', 'count'],
  },
  {
    slug: 'retention',
    category: 'compliance',
    title: 'Apply retention rules to {display} {docs}',
    description: 'Apply the data-retention policy to {docs} in {display}: find expired items, archive or purge, log it.',
    whenToUse: 'Use monthly, or when legal changes the retention period.',
    casual: [
      'legal says we keep {obj} data only two years; how do we enforce that in {display}?',
      'what is the routine for expiring old {obj} out of {display}?',
    ],
    ops: ['search', 'archive', 'purge'],
  },
  {
    slug: 'permission-fix',
    category: 'access-management',
    title: 'Fix access problems on {display} {docs}',
    description: 'Resolve "access denied" reports on {docs} in {display} without over-granting.',
    whenToUse: 'Use when someone cannot see or edit a {doc} they should.',
    casual: [
      'a colleague gets "access denied" on a {obj} in {display}; how do we sort it properly?',
      'what is the routine when someone is locked out of {display} {obj}?',
    ],
    ops: ['getPermissions', 'share', 'audit'],
  },
  {
    slug: 'bulk-update',
    category: 'data-ops',
    title: 'Bulk-change {display} {docs} safely',
    description: 'Change many {docs} in {display} at once: export a backup, dry run, apply in batches, verify.',
    whenToUse: 'Use when more than a handful of {docs} need the same change.',
    casual: [
      'I need to flip a field on hundreds of {obj} in {display}; what is the safe way?',
      'how do we do mass edits of {display} {obj} without breaking things?',
    ],
    ops: ['export', 'bulkUpdate', 'count'],
  },
  {
    slug: 'alert-tuning',
    category: 'observability',
    title: 'Tune notifications about {display} {docs}',
    description: 'Reduce noisy notifications about {docs} in {display} while keeping the important ones.',
    whenToUse: 'Use when people ignore {display} notifications because there are too many.',
    casual: [
      'we get way too many pings about {obj} from {display}; how do we calm it down?',
      'what is the process to cut notification noise on {display} {obj}?',
    ],
    ops: ['subscribe', 'list', 'update'],
  },
];

/** The seed article's named skills, kept as general procedures. */
const GENERAL: ReadonlyArray<{ name: string; category: string; description: string; whenToUse: string; casual: string[] }> = [
  {
    name: 'incident-response',
    category: 'incident-response',
    description: 'Run a production incident end to end: timeline, deploy, app errors, infra, provider, record, notify.',
    whenToUse: 'Use when production is failing or degraded and the cause is not yet known.',
    casual: ['calls started failing after the deploy, what is our overall outage procedure?', 'prod is down, walk me through how we handle it end to end'],
  },
  {
    name: 'kubernetes-debugging',
    category: 'debugging',
    description: 'Debug workloads on Kubernetes: pods, rollouts, events, logs, resource limits.',
    whenToUse: 'Use when a workload on the cluster crashes, restarts or will not schedule.',
    casual: ['my pods keep crash-looping, what is the debugging routine for the cluster?', 'how do we investigate a workload that will not schedule on k8s?'],
  },
  {
    name: 'github-pr',
    category: 'code-review',
    description: 'Open, review and merge a GitHub pull request following the team conventions.',
    whenToUse: 'Use when preparing or reviewing a pull request.',
    casual: ['what are our conventions for getting a change reviewed and merged on GitHub?', 'how should I put up my branch for review?'],
  },
  {
    name: 'postgres-performance',
    category: 'performance',
    description: 'Diagnose slow Postgres queries: explain plans, indexes, vacuum, connection pools.',
    whenToUse: 'Use when database queries are slow or the database is saturated.',
    casual: ['the database is crawling, how do we figure out which queries are the problem?', 'what is the routine for a slow Postgres?'],
  },
  {
    name: 'customer-support',
    category: 'support',
    description: 'Handle a customer support conversation: identify the customer, reproduce, resolve or escalate, follow up.',
    whenToUse: 'Use when answering a customer ticket or chat.',
    casual: ['a customer is upset about a billing error, how should I handle the conversation?', 'what is our playbook for answering a support chat?'],
  },
];

export interface SkillMeta {
  skill: Skill;
  /** Casual requests that should route to this skill. */
  casual: string[];
  server?: ServerPlan;
  object?: ObjectSpec;
}

function fillAll(s: string, vars: Record<string, string>): string {
  return s.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
}

function skillBody(title: string, whenToUse: string, steps: string[]): string {
  return [
    `# ${title}`,
    '',
    '## When to use',
    whenToUse,
    '',
    '## Steps',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '',
    '## Done when',
    '- The outcome is recorded where the team can find it.',
    '- Everyone affected has been told.',
    '',
  ].join('\n');
}

/**
 * `count` skills: the general ones first, then (server, activity) pairs in a seeded order, so a
 * smaller `count` still spreads over servers and activities.
 */
export function generateSkills(count: number, servers: readonly ServerPlan[], tools: readonly ToolMeta[], rng: Rng): SkillMeta[] {
  const out: SkillMeta[] = [];
  for (const g of GENERAL.slice(0, Math.min(count, GENERAL.length))) {
    const title = g.name.split('-').map(capitalize).join(' ');
    out.push({
      casual: g.casual,
      skill: makeSkill({
        name: g.name,
        description: g.description,
        whenToUse: g.whenToUse,
        category: g.category,
        locator: `skills/${g.category}/${g.name}/SKILL.md`,
        body: skillBody(title, g.whenToUse, [
          'Gather the facts and the timeline.',
          'Form a hypothesis and test it.',
          'Fix, verify, and record what you learned.',
        ]),
      }),
    });
  }
  const byServerOp = new Map<string, ToolMeta>();
  for (const m of tools) if (m.server && m.op && m.object && !m.legacyOf) byServerOp.set(`${m.server.name}|${m.op.key}|${m.object.key}`, m);
  const firstInstances = servers.filter((s) => s.instance === 1);
  const pairs: Array<[ServerPlan, number]> = [];
  firstInstances.forEach((s) => ACTIVITIES.forEach((_a, ai) => pairs.push([s, ai])));
  const order = rng.fork('skill-order').shuffle(pairs);
  const r = rng.fork('skills');
  for (const [server, ai] of order) {
    if (out.length >= count) break;
    const a = ACTIVITIES[ai]!;
    const object = server.objects[(ai * 7 + server.name.length) % Math.min(server.objects.length, 12)]!;
    const doc = docFor(object, server.spec);
    const vars = { display: server.spec.display, doc, docs: pluralPhrase(doc) };
    const name = `${server.name}-${object.key.replace(/_/g, '-')}-${a.slug}`;
    const title = fillAll(a.title, vars);
    const whenToUse = fillAll(a.whenToUse, vars);
    const steps = a.ops.map((opKey) => {
      const m = byServerOp.get(`${server.name}|${opKey}|${object.key}`);
      return m ? `Use \`${m.tool.id}\` (${m.tool.summary.replace(/\.$/, '').toLowerCase()}).` : `Do the ${opKey} step by hand in ${server.spec.display}.`;
    });
    out.push({
      server,
      object,
      casual: a.casual.map((c) => fillAll(c, { display: server.spec.display, obj: r.pick(phrasesFor(object, server.spec)) })),
      skill: makeSkill({
        name,
        description: fillAll(a.description, vars),
        whenToUse,
        category: a.category,
        locator: `skills/${a.category}/${name}/SKILL.md`,
        body: skillBody(title, whenToUse, steps),
        disableModelInvocation: r.chance(0.03),
      }),
    });
  }
  if (out.length < count) throw new Error(`only ${out.length} distinct skills can be made from ${firstInstances.length} servers; asked for ${count}`);
  return out;
}

/** Number of distinct skills `generateSkills` can make for this many servers. */
export function skillCapacity(serverCount: number): number {
  return GENERAL.length + Math.min(serverCount, 100) * ACTIVITIES.length;
}
