/**
 * The monster company's 150 plugins: boxes of a few native tools each, across engineering,
 * support, sales, finance, HR, recruiting, legal, marketing, design, data, security and IT.
 * Some tool names recur across plugins (`summarize`, `search`, `export_report`) and some plugins
 * mirror an MCP server's operation natively (the ClickUp plugin's `create_task` beside the
 * ClickUp MCP server's), so retrieval has to tell them apart.
 */
import type { HandToolSpec, ParamSpec, PluginSpec } from './types.ts';

type ParamType = ParamSpec['type'];

/** Required parameter (string unless a type is given). */
function req(name: string, description: string, type: ParamType = 'string'): ParamSpec {
  return { name, type, description, required: true };
}

/** Optional parameter (string unless a type is given). */
function opt(name: string, description: string, type: ParamType = 'string'): ParamSpec {
  return { name, type, description };
}

/** String parameter restricted to `values`. */
function oneOf(name: string, description: string, values: string[], required = false): ParamSpec {
  return required ? { name, type: 'string', description, required, enum: values } : { name, type: 'string', description, enum: values };
}

function tool(name: string, summary: string, description: string, params: ParamSpec[], casual: string[]): HandToolSpec {
  return { name, summary, description, params, casual };
}

function plugin(name: string, display: string, description: string, tools: HandToolSpec[]): PluginSpec {
  return { name, display, description, tools };
}

// Parameters many plugins share.
const QUERY = req('query', 'Free-text query.');
const LIMIT = opt('limit', 'Maximum number of results.', 'integer');
const PERIOD = opt('period', 'Time window, e.g. last_7_days, 2024-Q3 or a date range.');
const FORMAT = oneOf('format', 'File format of the output.', ['csv', 'xlsx', 'pdf']);
const LENGTH = oneOf('length', 'How long the result should be.', ['short', 'medium', 'long']);
const TONE = oneOf('tone', 'Voice of the draft.', ['formal', 'friendly', 'concise']);
const RECIPIENTS = opt('recipients', 'Email addresses or user ids to send it to.', 'array');

export const PLUGINS: readonly PluginSpec[] = [
  // ── Engineering ──────────────────────────────────────────────────────────────────────────
  plugin('clickup', 'ClickUp', 'Native ClickUp plugin: quick capture and updates for your own work without going through the ClickUp MCP server.', [
    tool('create_task', 'Create a ClickUp task in a list.', 'Creates a task in the given ClickUp list with optional assignees, due date and priority, using the plugin\'s own OAuth session.', [
      req('list_id', 'ClickUp list to add it to.'), req('name', 'Title.'), opt('description', 'Body in markdown.'), opt('assignees', 'User ids to assign.', 'array'), opt('due_date', 'ISO date.'), oneOf('priority', 'Urgency.', ['urgent', 'high', 'normal', 'low']),
    ], ['add a to-do in ClickUp to renew the SSL cert by Friday', 'put "write Q3 plan" on my ClickUp list', 'log a card for fixing the flaky login test']),
    tool('update_task_status', 'Move a ClickUp task to another status.', 'Changes the status of a ClickUp task, e.g. from "in progress" to "review".', [
      req('task_id', 'ClickUp task id.'), req('status', 'Target status name.'),
    ], ['mark CU-8812 as in review', 'move my ClickUp card for the migration to done', 'flip that ticket back to open']),
    tool('log_time', 'Track time against a task.', 'Adds a time entry to a ClickUp task for the current user.', [
      req('task_id', 'ClickUp task id.'), req('duration_minutes', 'Length of the entry.', 'integer'), opt('note', 'What the time was spent on.'), opt('billable', 'Whether it is billable.', 'boolean'),
    ], ['I spent 90 minutes on the onboarding bug, record that', 'put 2h against CU-771', 'add an hour of billable work on the client card']),
    tool('my_work', 'List what is assigned to me.', 'Returns the current user\'s open ClickUp items grouped by due date.', [
      oneOf('due', 'Which items to include.', ['overdue', 'today', 'this_week', 'all']), LIMIT,
    ], ['what do I have due this week in ClickUp', "what's overdue on my plate", 'show my assigned cards']),
  ]),
  plugin('github-copilot-tools', 'GitHub Toolkit', 'Plugin shortcuts for everyday GitHub chores from the editor: open PRs, review them and find code.', [
    tool('create_pull_request', 'Open a pull request from the current branch.', 'Pushes the current branch if needed and opens a pull request against the base branch with a generated or given description.', [
      req('title', 'PR title.'), opt('base', 'Base branch, default main.'), opt('body', 'Description; generated from commits if empty.'), opt('draft', 'Open as draft.', 'boolean'), opt('reviewers', 'Logins to request.', 'array'),
    ], ['open a PR for this branch against main', 'put my changes up for code review as a draft', 'ship this branch to review and ask @maria to look']),
    tool('review_pull_request', 'Review a pull request.', 'Reads the diff of a PR and leaves review comments on risky lines, then approves or requests changes.', [
      req('pr_url', 'Link to the PR.'), oneOf('verdict', 'Outcome of the review.', ['comment', 'approve', 'request_changes']), opt('focus', 'What to pay attention to, e.g. security.'),
    ], ['look over PR 4412 and leave comments', 'give #883 a once-over for security issues', 'approve the dependabot bump if it looks fine']),
    tool('search', 'Find code across the organization.', 'Runs a GitHub code search across all repositories of the org and returns matching files and lines.', [
      QUERY, opt('repo', 'Restrict to owner/name.'), opt('language', 'Language filter.'), LIMIT,
    ], ['which repos still import the old logger', 'where across the org do we call the legacy billing API', 'find every Dockerfile using node:16']),
    tool('summarize', 'Explain what a pull request does.', 'Produces a plain-English digest of a PR: purpose, risky areas and open review threads.', [
      req('pr_url', 'Link to the PR.'), LENGTH,
    ], ['tl;dr of PR #2219 please', 'what does that giant refactor PR actually change', 'give me the gist of the open review threads on 4412']),
  ]),
  plugin('slack-power-tools', 'Slack Power Tools', 'Native Slack plugin for drafting, scheduling and catching up on conversations.', [
    tool('send_message', 'Post a message to a channel or person.', 'Posts a message as the user to a Slack channel or DM, optionally in a thread.', [
      req('channel', 'Channel name or user handle.'), req('text', 'Message text (mrkdwn).'), opt('thread_ts', 'Reply inside this thread.'),
    ], ['tell #deploys the release is out', 'ping @jon that the review is ready', 'drop a note in the incident room saying we rolled back']),
    tool('schedule_message', 'Send a message later.', 'Queues a Slack message to be posted at a given time.', [
      req('channel', 'Channel name or user handle.'), req('text', 'Message text.'), req('post_at', 'ISO timestamp.'),
    ], ['post the standup reminder at 9:55 tomorrow', 'queue a heads-up to #sales for Monday morning', 'drop this in #general at 5pm']),
    tool('summarize', 'Catch up on a channel.', 'Digests recent Slack conversation in a channel or thread: decisions, open questions and mentions of you.', [
      req('channel', 'Channel name or thread link.'), PERIOD, LENGTH,
    ], ['what did I miss in #platform while I was out', 'catch me up on the incident thread', 'recap the last day of #design-crit']),
    tool('search', 'Find messages and files.', 'Searches Slack messages and files the user can see, with channel and author filters.', [
      QUERY, opt('channel', 'Restrict to this channel.'), opt('from', 'Author handle.'), PERIOD, LIMIT,
    ], ['where did someone post the VPN setup steps', 'dig up what Priya said about the pricing change', 'look for that screenshot of the error from last Tuesday']),
  ]),
  plugin('jira-assistant', 'Jira Assistant', 'Plugin that turns plain requests into well-formed Jira work and keeps the board tidy.', [
    tool('create_issue', 'File a Jira issue.', 'Creates a Jira issue with project, type, summary and description, filling required fields from project defaults.', [
      req('project_key', 'Jira project key, e.g. PLAT.'), req('summary', 'One-line title.'), oneOf('issue_type', 'Kind of work.', ['bug', 'story', 'task', 'epic'], true), opt('description', 'Details.'), opt('assignee', 'Account id or email.'),
    ], ['log a bug in PLAT that exports time out', 'make a story for the new onboarding flow', 'raise a ticket for the broken SSO redirect']),
    tool('transition_issue', 'Move a Jira issue through its workflow.', 'Applies a workflow transition (e.g. Start, Resolve) to an issue, optionally with a resolution and comment.', [
      req('issue_key', 'E.g. PLAT-123.'), req('transition', 'Transition name.'), opt('comment', 'Note to add.'),
    ], ['mark PLAT-4410 as resolved', 'push that bug to QA', 'close out the epic, it shipped']),
    tool('search', 'Query issues with JQL or plain words.', 'Converts plain language to JQL when needed and returns matching issues.', [
      QUERY, opt('project_key', 'Limit to one project.'), LIMIT,
    ], ['all open P1 bugs assigned to my team', 'what tickets mention the payments timeout', 'stuff in the current sprint nobody picked up']),
    tool('bulk_update', 'Change many issues at once.', 'Applies the same field change (assignee, label, sprint, fix version) to every issue matching a JQL filter.', [
      req('jql', 'Filter selecting the issues.'), req('field', 'Field to change.'), req('value', 'New value.'),
    ], ['move every unfinished ticket into next sprint', 'label all the checkout bugs with q3-cleanup', 'reassign Bob\'s open items to Carla']),
  ]),
  plugin('linear-quick', 'Linear Quick Actions', 'Fast capture and triage for Linear from any chat window.', [
    tool('create_issue', 'Add an issue to a Linear team.', 'Creates a Linear issue for a team, with priority, labels and optional cycle.', [
      req('team', 'Team key, e.g. ENG.'), req('title', 'Title.'), opt('description', 'Markdown body.'), oneOf('priority', 'Urgency.', ['urgent', 'high', 'medium', 'low']), opt('labels', 'Label names.', 'array'),
    ], ['file a Linear bug for the dark-mode contrast', 'add an ENG ticket to look at cold starts', 'capture this as a low-priority todo for the web team']),
    tool('triage_inbox', 'Work through untriaged issues.', 'Suggests priority, labels and owner for each issue in a team\'s triage queue and applies accepted suggestions.', [
      req('team', 'Team key.'), opt('apply', 'Apply the suggestions instead of only proposing them.', 'boolean'),
    ], ['sort out the pile of new incoming bugs for ENG', 'who should own the stuff sitting unassigned', 'go through the web team queue and set priorities']),
    tool('cycle_report', 'Progress of the current cycle.', 'Shows scope, completed points and at-risk issues for a team\'s active cycle.', [
      req('team', 'Team key.'), opt('include_scope_changes', 'List issues added mid-iteration.', 'boolean'),
    ], ['are we going to make it this iteration', 'how much of the sprint scope is done', 'what got added mid-sprint for ENG']),
    tool('add_comment', 'Comment on a Linear issue.', 'Adds a markdown comment to a Linear issue, optionally mentioning people.', [
      req('issue_id', 'Issue id, e.g. ENG-123.'), req('body', 'Markdown.'),
    ], ['note on ENG-881 that the fix is in staging', 'tell the web team in their ticket that design is ready', 'leave a remark on the cold-start bug']),
  ]),
  plugin('code-review-bot', 'Code Review Bot', 'Automated reviewer that checks diffs for bugs, style and missing tests.', [
    tool('review_diff', 'Critique a diff.', 'Analyzes a diff for bugs, security smells and readability and returns line-anchored comments with severities.', [
      req('diff', 'Unified diff text or PR link.'), opt('language', 'Main language of the change.'), oneOf('strictness', 'How picky to be.', ['lenient', 'normal', 'strict']),
    ], ['look for bugs in my staged changes', 'is this patch safe to merge', 'nitpick this change like a senior engineer would']),
    tool('suggest_tests', 'Propose missing tests.', 'Lists the test cases a change should have but does not, with skeletons in the project test framework.', [
      req('diff', 'Unified diff text or PR link.'), opt('framework', 'Test framework, e.g. vitest.'),
    ], ['what cases am I not covering with this PR', 'which edge cases need specs here', 'write skeletons for the untested branches']),
    tool('explain_code', 'Walk through what code does.', 'Explains a snippet or file section step by step for a reader new to it.', [
      req('code', 'Source snippet or path with line range.'), oneOf('audience', 'Who the walkthrough is for.', ['new_hire', 'senior', 'non_engineer']),
    ], ['what is this regex-heavy parser doing', 'walk me through the auth middleware', 'help a new hire make sense of this module']),
    tool('summarize', 'Explain a change for reviewers.', 'Writes a reviewer guide for a diff: intent, structure and where to look first.', [
      req('diff', 'Unified diff text or PR link.'),
    ], ['what is this 40-file change trying to do', 'where should I start reading this PR', 'orient me before I look at the refactor']),
  ]),
  plugin('test-forge', 'Test Forge', 'Generates unit tests, fixtures and property-based checks for existing code.', [
    tool('generate_unit_tests', 'Write unit tests for a function.', 'Generates unit tests for a function or module, covering happy paths, edge cases and errors.', [
      req('path', 'File containing the code.'), opt('symbol', 'Function or class to focus on.'), opt('framework', 'Test framework.'), opt('max_cases', 'Upper bound on cases.', 'integer'),
    ], ['cover parseDuration with specs', 'I need vitest coverage for the pricing helpers', 'give the date utils some proper checks']),
    tool('generate_fixtures', 'Produce realistic test data.', 'Creates fixture data matching a type, schema or example, with a fixed seed for reproducibility.', [
      req('schema', 'Type name, JSON schema or example record.'), opt('count', 'Number of records.', 'integer'), opt('seed', 'Random seed.', 'integer'),
    ], ['make 50 fake customers with addresses', 'dummy invoices shaped like our Invoice type', 'seed data for the orders table']),
    tool('find_untested_code', 'Locate code lacking coverage.', 'Combines coverage output and complexity to rank functions that most need tests.', [
      opt('path', 'Folder to analyze.'), LIMIT,
    ], ['what risky stuff has zero coverage', 'which functions most need specs', 'where are the coverage holes in src/billing']),
    tool('mutation_score', 'Measure test strength.', 'Runs mutation testing on a module and reports surviving mutants.', [
      req('path', 'Module.'), opt('max_mutants', 'Budget.', 'integer'),
    ], ['are our pricing specs actually catching bugs', 'how strong is the suite for the parser', 'which code changes would go unnoticed']),
  ]),
  plugin('dependency-doctor', 'Dependency Doctor', 'Audits third-party packages for vulnerabilities, licences and upgrade paths.', [
    tool('audit_dependencies', 'Check packages for known vulnerabilities.', 'Scans the lockfile against advisory databases and lists vulnerable packages with fixed versions.', [
      opt('path', 'Project folder.'), oneOf('min_severity', 'Lowest severity to include.', ['low', 'moderate', 'high', 'critical']),
    ], ['are any of our npm libs vulnerable', 'CVE check on the lockfile', 'anything critical in our node_modules']),
    tool('upgrade_plan', 'Plan major version bumps.', 'Orders outdated packages into safe upgrade batches with breaking-change notes from their changelogs.', [
      opt('path', 'Project folder.'), opt('include_major', 'Include major versions.', 'boolean'),
    ], ['how do we get from React 17 to 19 safely', 'what is outdated and in what order should we bump it', 'map out moving off the old webpack']),
    tool('license_check', 'Verify licences are allowed.', 'Lists package licences and flags any not on the company allow-list (e.g. GPL, AGPL).', [
      opt('path', 'Project folder.'), opt('allow', 'Extra SPDX ids to accept.', 'array'),
    ], ['do we ship anything GPL', 'is it legal to use these libs in the commercial product', 'copyleft scan before the release']),
    tool('trace_dependency', 'Explain why a package is present.', 'Shows the dependency paths that pull a package into the tree.', [
      req('package', 'Package name.'),
    ], ['why do we even have lodash 3 in here', 'who pulls in the vulnerable minimist', 'which library drags in moment']),
  ]),
  plugin('docker-helper', 'Docker Helper', 'Build, inspect and slim container images from the agent.', [
    tool('build_image', 'Build a container image.', 'Runs a docker build for a Dockerfile and tag, streaming the build output.', [
      req('context', 'Build context folder.'), req('tag', 'Image tag, e.g. api:dev.'), opt('dockerfile', 'Path to the Dockerfile.'), opt('build_args', 'Build arguments.', 'object'), opt('platform', 'Target platform, e.g. linux/arm64.'),
    ], ['package the api as a container tagged api:dev', 'make an arm64 container for the worker', 'redo the web container from the new Dockerfile']),
    tool('scan_image', 'Scan an image for CVEs.', 'Scans a local or remote image for vulnerable OS packages and libraries.', [
      req('image', 'Image reference.'), oneOf('min_severity', 'Lowest severity to include.', ['low', 'medium', 'high', 'critical']),
    ], ['is our base container full of vulns', 'trivy the api:latest tag', 'anything critical in the node:20 layer']),
    tool('slim_dockerfile', 'Suggest a smaller Dockerfile.', 'Proposes multi-stage builds, smaller bases and cache-friendly layer order to cut image size.', [
      req('dockerfile', 'Path to the Dockerfile.'),
    ], ['why is our container 2 GB', 'make this build produce something smaller', 'optimize the layers so builds are faster']),
    tool('prune', 'Free disk space from old images.', 'Removes dangling images, stopped containers and unused build cache.', [
      opt('older_than_hours', 'Only remove older objects.', 'integer'), opt('dry_run', 'Only list what would go.', 'boolean'),
    ], ['my laptop disk is full of docker junk', 'clean up old layers and stopped containers', 'reclaim space on the build agent']),
  ]),
  plugin('k8s-debugger', 'Kubernetes Debugger', 'Explains why workloads are failing and what to change, on top of read-only cluster access.', [
    tool('diagnose_pod', 'Work out why a pod is unhealthy.', 'Collects status, events, recent logs and probe config for a pod and explains the likely cause (OOMKilled, CrashLoopBackOff, ImagePullBackOff…).', [
      req('pod', 'Pod name.'), req('namespace', 'Namespace.'), opt('context', 'kubeconfig context.'),
    ], ['why does checkout-api keep crashlooping', 'figure out what is wrong with the worker in prod', 'the payments workload is stuck pending, help']),
    tool('explain_manifest', 'Explain a Kubernetes manifest.', 'Describes what a YAML manifest deploys and flags risky settings such as missing limits or privileged containers.', [
      req('manifest', 'YAML text or path.'),
    ], ['what does this deployment yaml actually do', 'anything dangerous in this helm output', 'review these k8s specs for missing limits']),
    tool('summarize', 'Digest recent cluster warnings.', 'Groups recent Warning events in a namespace and ranks the problems by impact.', [
      req('namespace', 'Namespace.'), PERIOD,
    ], ['what has been going wrong in the payments ns today', 'boil down the warning events from staging', 'anything noisy in kube-system lately']),
    tool('restart_deployment', 'Roll a deployment\'s pods.', 'Triggers a rolling restart of a deployment and watches until it is healthy.', [
      req('deployment', 'Deployment name.'), req('namespace', 'Namespace.'), opt('context', 'kubeconfig context.'),
    ], ['bounce the checkout-api workload in prod', 'cycle the worker so it picks up the new config', 'kick the search service replicas']),
  ]),
  plugin('terraform-helper', 'Terraform Helper', 'Reads plans and state to explain infrastructure changes before they land.', [
    tool('plan_summary', 'Explain a Terraform plan.', 'Turns terraform plan output into a readable list of creates, updates and destroys with risk notes.', [
      req('plan', 'Plan JSON or text output.'), opt('highlight_destroys', 'Call out deletions prominently.', 'boolean'),
    ], ['what will this infra change actually touch', 'is anything getting deleted by this TF run', 'translate this terraform output for the change board']),
    tool('detect_drift', 'Find drift between state and reality.', 'Compares Terraform state with the live cloud resources and lists manual changes.', [
      req('workspace', 'Workspace or folder.'), opt('resource_filter', 'Only resources matching this address prefix.'),
    ], ['did someone click-ops the security groups', 'what changed in AWS outside of terraform', 'is prod still matching our IaC']),
    tool('generate_module', 'Scaffold a Terraform module.', 'Generates a module with variables, outputs and a README for a described resource set.', [
      req('description', 'What the module should provision.'), oneOf('provider', 'Cloud provider.', ['aws', 'azurerm', 'google']),
    ], ['write IaC for an S3 bucket with versioning and KMS', 'scaffold infra code for a private GKE cluster', 'HCL for a standard RDS setup']),
    tool('explain_resource', 'Explain a resource in state.', 'Describes a resource in Terraform state: config, dependencies and who last changed it.', [
      req('address', 'Resource address.'), req('workspace', 'Workspace.'),
    ], ['what is aws_iam_role.deployer for', 'who changed the prod security group in TF', 'what depends on the main VPC module']),
  ]),
  plugin('sql-copilot', 'SQL Copilot', 'Writes, explains and tunes SQL against the company warehouses and databases.', [
    tool('generate_sql', 'Turn a question into SQL.', 'Writes a SQL statement for a question using the schemas of the chosen connection.', [
      req('question', 'What you want to know.'), req('connection', 'Database or warehouse connection name.'), oneOf('dialect', 'SQL dialect.', ['postgres', 'snowflake', 'bigquery', 'mysql']),
    ], ['how many orders did we get per day last month, write the query', 'give me a statement for top 10 customers by revenue', 'I need a SELECT for churned accounts in Q2']),
    tool('explain_query', 'Explain what a query does.', 'Explains a SQL statement in plain language and points out joins that may duplicate rows.', [
      req('sql', 'Statement text.'),
    ], ['what is this 200-line CTE monster doing', 'walk me through this analytics SQL', 'why might this join double count']),
    tool('optimize_query', 'Make a slow query faster.', 'Reads the plan of a statement and proposes rewrites and indexes with expected impact.', [
      req('sql', 'Statement text.'), req('connection', 'Connection name.'), opt('run_explain', 'Execute EXPLAIN ANALYZE.', 'boolean'),
    ], ['this dashboard SQL takes 40 seconds, speed it up', 'what index would help this lookup', 'tune the nightly rollup statement']),
    tool('fix_sql', 'Repair a broken statement.', 'Explains a SQL error and rewrites the statement so it runs.', [
      req('sql', 'Statement text.'), req('error', 'Error message.'), opt('dialect', 'SQL dialect.'),
    ], ['why does this say column ambiguous', 'my GROUP BY errors out, help', 'make this Snowflake statement stop failing']),
  ]),
  plugin('api-workbench', 'API Workbench', 'Postman-style collections, mocks and contract checks for internal APIs.', [
    tool('run_collection', 'Execute a saved API collection.', 'Runs every call in a collection against an environment and reports assertions that failed.', [
      req('collection', 'Collection name.'), req('environment', 'Environment, e.g. staging.'), opt('stop_on_failure', 'Stop at the first failure.', 'boolean'),
    ], ['fire the smoke suite at staging', 'are the partner endpoints all green', 'replay the checkout calls against dev']),
    tool('mock_endpoint', 'Stand up a fake endpoint.', 'Creates a temporary mock URL that returns a canned response for a method and path.', [
      req('method', 'HTTP method.'), req('path', 'Route, e.g. /v1/orders.'), req('response', 'Body to return.'), opt('status_code', 'Status to return.', 'integer'),
    ], ['fake the orders API so the frontend can work offline', 'give me a stub that returns 429', 'pretend the payment provider is down']),
    tool('contract_test', 'Check an API matches its spec.', 'Calls each operation in an OpenAPI document and validates responses against the schemas.', [
      req('spec', 'OpenAPI file or URL.'), req('base_url', 'Server to call.'),
    ], ['does staging still match the OpenAPI doc', 'verify responses against the schema', 'catch breaking differences before the partners do']),
    tool('send_request', 'Fire one API call.', 'Sends a single call from a saved collection with environment variables resolved.', [
      req('collection', 'Collection.'), req('name', 'Saved call name.'), req('environment', 'Environment.'),
    ], ['try the create-order call on staging', 'hit the login endpoint from the partner collection', 'replay that one webhook delivery against dev']),
  ]),
  plugin('log-lens', 'Log Lens', 'Plain-language exploration of application logs across Datadog, Loki and CloudWatch.', [
    tool('search', 'Find log lines by meaning or pattern.', 'Translates a question into the right log query for the backend and returns matching lines.', [
      QUERY, opt('service', 'Service name.'), PERIOD, LIMIT,
    ], ['show me errors from checkout in the last hour', 'any timeouts talking to Stripe today', 'what did the worker print right before it died']),
    tool('cluster_errors', 'Group similar errors.', 'Clusters error lines into patterns with counts and first/last seen, to spot new failure modes.', [
      opt('service', 'Service name.'), PERIOD, opt('min_count', 'Ignore patterns rarer than this.', 'integer'),
    ], ['what kinds of failures are we seeing since the deploy', 'top recurring exceptions this week', 'is this a new failure mode or an old one']),
    tool('summarize', 'Recap what the app was doing.', 'Produces a narrative of a service\'s output around a timestamp: requests, errors and restarts.', [
      req('service', 'Service name.'), req('around', 'Timestamp to center on.'), opt('window_minutes', 'Minutes each side.', 'integer'),
    ], ['what was happening in billing-api around 03:12 UTC', 'give me the story of the outage from the app output', 'tl;dr of the worker output before the crash']),
    tool('tail', 'Stream live output.', 'Streams new lines for a service matching a filter for a limited time.', [
      req('service', 'Service.'), opt('filter', 'Only lines matching this.'), opt('seconds', 'How long to follow.', 'integer'),
    ], ['follow checkout output live while I retry', 'watch the worker print in real time', 'stream errors from billing for a minute']),
  ]),
  plugin('release-train', 'Release Train', 'Release notes, version bumps and changelogs from merged work.', [
    tool('draft_release_notes', 'Write notes for a release.', 'Collects merged PRs and linked issues since the last tag and drafts customer-facing notes grouped by theme.', [
      req('repo', 'owner/name.'), opt('since_tag', 'Previous tag; defaults to the latest.'), oneOf('audience', 'Who reads them.', ['customers', 'internal', 'developers']),
    ], ['what goes in the changelog for 3.8', 'write up what shipped since v2.4.0 for customers', 'customer-facing changelog blurb for this week']),
    tool('bump_version', 'Increment the version.', 'Applies a semver bump to package manifests and creates the tag.', [
      req('repo', 'owner/name.'), oneOf('level', 'Which part to increment.', ['major', 'minor', 'patch'], true), opt('prerelease', 'Pre-release id such as rc.'),
    ], ['cut 2.5.0', 'make this a patch increment and tag it', 'roll an rc for the next minor']),
    tool('release_readiness', 'Check a release can ship.', 'Verifies CI, open blockers, migrations and feature-flag state for a release candidate.', [
      req('repo', 'owner/name.'), req('ref', 'Tag or branch of the candidate.'),
    ], ['are we good to ship the Thursday build', 'any blockers before we cut over', 'go/no-go check for the rc']),
    tool('summarize', 'Explain what changed between two versions.', 'Summarizes changes between two tags for support and sales teams.', [
      req('repo', 'owner/name.'), req('from_tag', 'Older tag.'), req('to_tag', 'Newer tag.'),
    ], ['what is different between 3.7 and 3.8 for support', 'plain-English changes since last month\'s cut', 'customer-impacting differences in the new build']),
  ]),
  plugin('perf-profiler', 'Perf Profiler', 'CPU and latency profiling for services and benchmarks.', [
    tool('profile_endpoint', 'Profile an HTTP endpoint under load.', 'Drives load at an endpoint and returns latency percentiles plus a flame graph of the hottest stacks.', [
      req('url', 'Endpoint address.'), opt('rps', 'Requests per second.', 'integer'), opt('duration_seconds', 'How long to run.', 'integer'),
    ], ['why is /search slow under load', 'flame graph the checkout route at 200 rps', 'where is the CPU going for the pricing API']),
    tool('compare_benchmarks', 'Compare two benchmark runs.', 'Diffs two benchmark result files and flags statistically significant regressions.', [
      req('baseline', 'Baseline result file.'), req('candidate', 'Candidate result file.'), opt('threshold_pct', 'Regression threshold in percent.', 'number'),
    ], ['did my change make the parser slower', 'main vs branch speed numbers', 'any regressions in the nightly perf run']),
    tool('memory_snapshot', 'Capture a heap snapshot.', 'Takes a heap snapshot of a running process and lists the largest retainers.', [
      req('service', 'Service or pid.'), opt('compare_to', 'Earlier snapshot id.'),
    ], ['what is leaking in the worker', 'why does the api grow to 4 GB', 'biggest retainers in the node process']),
  ]),
  plugin('regex-lab', 'Regex Lab', 'Build and test regular expressions from examples.', [
    tool('build_regex', 'Write a pattern from examples.', 'Synthesizes a regular expression that accepts the positive examples and rejects the negative ones.', [
      req('positive', 'Strings that must match.', 'array'), opt('negative', 'Strings that must not match.', 'array'), oneOf('flavor', 'Engine.', ['pcre', 'javascript', 'python', 're2']),
    ], ['I need something that matches order ids like ORD-2024-00123', 'pattern for UK postcodes', 'write an expression to catch these email formats but not those']),
    tool('test_regex', 'Try a pattern on samples.', 'Runs a pattern against sample strings and shows captures, so edge cases are visible.', [
      req('pattern', 'The expression.'), req('samples', 'Strings to try.', 'array'), opt('flags', 'Flags such as gi.'),
    ], ['does ^\\d{3}-\\d{4}$ accept these numbers', 'check my capture groups pull out the date parts', 'why isn\'t this matching the second line']),
    tool('explain_regex', 'Explain a pattern.', 'Breaks a regular expression into parts and explains each in plain words.', [
      req('pattern', 'The expression.'),
    ], ['what on earth does this validation pattern do', 'walk me through the email matcher', 'decode ^(?=.*\\d)(?=.*[a-z]).{8,}$']),
  ]),
  plugin('commit-scribe', 'Commit Scribe', 'Writes good commit messages and splits messy commits.', [
    tool('write_commit_message', 'Draft a commit message.', 'Reads staged changes and writes a conventional-commit style subject and body.', [
      oneOf('style', 'Message convention.', ['conventional', 'plain', 'gitmoji']), opt('ticket', 'Ticket key to reference.'),
    ], ['what should I call this changeset', 'come up with a conventional subject line for my staged stuff', 'describe these changes for the history']),
    tool('split_commit', 'Break a big commit into logical pieces.', 'Proposes how to split a large change into smaller, reviewable commits and can apply the split.', [
      req('ref', 'Commit to split.'), opt('apply', 'Rewrite history with the split.', 'boolean'),
    ], ['this 80-file change is unreviewable, break it up', 'separate the refactor from the feature', 'carve HEAD into smaller chunks']),
    tool('changelog_entry', 'Write a changelog line.', 'Writes a user-facing changelog line for the current branch.', [
      opt('audience', 'Who reads it.'),
    ], ['one-liner for CHANGES.md about this fix', 'how do I describe this feature for users', 'what goes under "Fixed" for my branch']),
  ]),
  plugin('diagram-studio', 'Diagram Studio', 'Architecture and sequence diagrams from text or code.', [
    tool('generate_diagram', 'Draw a diagram from a description.', 'Produces a Mermaid or PlantUML diagram (architecture, sequence, ER) from a description or source files.', [
      req('description', 'What to draw, or paths to read.'), oneOf('kind', 'Diagram type.', ['architecture', 'sequence', 'er', 'flowchart'], true), oneOf('syntax', 'Output syntax.', ['mermaid', 'plantuml']),
    ], ['sketch how checkout talks to payments and inventory', 'ER picture of the billing tables', 'sequence chart for the OAuth login']),
    tool('render', 'Turn diagram source into an image.', 'Renders Mermaid or PlantUML text to SVG or PNG.', [
      req('source', 'Diagram text.'), oneOf('image_format', 'Output image type.', ['svg', 'png']),
    ], ['make a PNG out of this mermaid', 'SVG of the flowchart for the design doc', 'export the sequence chart as a picture']),
    tool('diagram_from_code', 'Draw the architecture from source.', 'Reads service manifests and imports to draw how services depend on each other.', [
      req('repo', 'owner/name.'), opt('depth', 'How many levels of dependencies.', 'integer'),
    ], ['map how our microservices call each other', 'what depends on the auth service, visually', 'picture of the monorepo module graph']),
  ]),
  plugin('flag-janitor', 'Flag Janitor', 'Finds and removes stale feature flags from code and the flag service.', [
    tool('find_stale_flags', 'List flags that can be cleaned up.', 'Finds flags fully rolled out or untouched for a long time, with their code references.', [
      opt('project', 'Flag project.'), opt('min_age_days', 'Only flags older than this.', 'integer'),
    ], ['which toggles are dead weight', 'what LaunchDarkly switches have been 100% on for months', 'cleanup candidates in the web app']),
    tool('remove_flag', 'Delete a flag from code.', 'Rewrites code to keep the winning branch of a flag, deletes the dead branch and opens a PR.', [
      req('flag_key', 'Flag key.'), oneOf('keep', 'Which branch survives.', ['on', 'off'], true), opt('repo', 'owner/name.'),
    ], ['rip out new-checkout, it won', 'kill the old-search toggle and keep the enabled path', 'clean the dead experiment out of the codebase']),
    tool('export_report', 'Download flag debt.', 'Exports flags with age, owner, rollout state and code references.', [
      opt('project', 'Flag project.'), FORMAT,
    ], ['CSV of all toggles older than 90 days', 'xlsx of switch debt per team', 'inventory of every LaunchDarkly key for cleanup week']),
  ]),
  plugin('openapi-tools', 'OpenAPI Tools', 'Validate, diff and generate clients from API specifications.', [
    tool('validate_spec', 'Lint an OpenAPI document.', 'Validates an OpenAPI 3 document and reports schema errors and style-guide violations.', [
      req('spec', 'File or URL.'), opt('ruleset', 'Style ruleset name.'),
    ], ['is our API yaml well-formed', 'lint the partner API definition', 'style-guide check on the public endpoints doc']),
    tool('generate_client', 'Produce an SDK from a spec.', 'Generates a typed API client library in the chosen language.', [
      req('spec', 'File or URL.'), oneOf('language', 'Target language.', ['typescript', 'python', 'go', 'java'], true), opt('package_name', 'Name of the generated package.'),
    ], ['make a typescript SDK for the orders API', 'python bindings for the partner endpoints', 'typed wrapper for our internal REST service']),
    tool('diff_specs', 'Compare two versions of an API.', 'Lists added, removed and changed operations and flags breaking changes.', [
      req('old_spec', 'Previous version.'), req('new_spec', 'New version.'),
    ], ['will this API change break existing callers', 'what changed between v1 and v2 of the contract', 'breaking-change check before we publish']),
    tool('generate_docs', 'Publish reference documentation.', 'Renders API reference pages from a spec into the docs site.', [
      req('spec', 'File or URL.'), opt('site', 'Docs site.'),
    ], ['publish the new endpoints to developer.ourco.com', 'reference pages for the partner API', 'refresh the public API site from the yaml']),
  ]),
  plugin('incident-copilot', 'Incident Copilot', 'Helps the incident commander run an outage: timeline, comms and write-up.', [
    tool('declare_incident', 'Open a new incident.', 'Declares an incident with severity and title, creates the Slack room and pages the service owner.', [
      req('title', 'Short description of the impact.'), oneOf('severity', 'Severity level.', ['sev1', 'sev2', 'sev3', 'sev4'], true), opt('service', 'Affected service.'),
    ], ['checkout is down, kick off the outage process', 'we have a sev2 on login, spin up a war room', 'start the fire drill for the payments blip']),
    tool('draft_status_update', 'Write a stakeholder update.', 'Drafts an internal or public status post from the current timeline and impact.', [
      req('incident_id', 'Incident id.'), oneOf('audience', 'Who it is for.', ['internal', 'customers', 'executives'], true),
    ], ['write the customer-facing blurb for the outage', 'what do we tell execs right now', 'next comms post for the public health site']),
    tool('build_timeline', 'Assemble what happened when.', 'Merges alerts, deploys, Slack messages and actions into an ordered chronology for an incident.', [
      req('incident_id', 'Incident id.'), opt('include_chat', 'Pull in chat messages.', 'boolean'),
    ], ['put together the sequence of events for INC-421', 'when did the first alert fire relative to the deploy', 'chronology for the postmortem']),
    tool('summarize', 'Bring someone up to speed on an outage.', 'Writes a short catch-up for a responder joining mid-incident: impact, hypotheses, what has been tried.', [
      req('incident_id', 'Incident id.'), LENGTH,
    ], ['I just joined the bridge, what is going on', 'catch me up on the login outage', 'where are we with INC-421']),
  ]),
  plugin('oncall-buddy', 'On-call Buddy', 'Who is on call, shift swaps and paging from chat.', [
    tool('who_is_oncall', 'Find the current on-call engineer.', 'Returns who is on call now (or at a given time) for a service or team, with escalation levels.', [
      req('service_or_team', 'Service or team name.'), opt('at', 'Timestamp; defaults to now.'),
    ], ['who is carrying the pager for payments', 'which engineer covers search tonight', 'who do I ping about the data pipeline right now']),
    tool('swap_shift', 'Trade a rota slot with a teammate.', 'Creates a schedule override so a colleague covers part of your shift.', [
      req('schedule', 'Schedule name.'), req('covering_user', 'Who takes over.'), req('start', 'Start time.'), req('end', 'End time.'),
    ], ['Sam will cover my Saturday, set it up', 'trade my Tuesday night with Lee', 'get someone to take my pager during the wedding']),
    tool('page_team', 'Wake up a team.', 'Triggers a high-urgency page to a team\'s escalation policy with a message.', [
      req('team', 'Team name.'), req('message', 'What is wrong.'), oneOf('urgency', 'Urgency.', ['high', 'low']),
    ], ['get the database folks on this now', 'alert the storage squad that disks are filling', 'call in the SRE rotation']),
    tool('trigger_incident', 'Raise an incident to the pager service.', 'Creates a new incident on a service in the paging tool from chat.', [
      req('service', 'Service.'), req('title', 'What is wrong.'), oneOf('urgency', 'Urgency.', ['high', 'low']),
    ], ['open an outage on payments in PagerDuty', 'search is down, get it into the paging tool', 'declare a problem on the checkout service']),
  ]),
  plugin('sentry-triage', 'Sentry Triage', 'Plugin that triages crashes: ownership, grouping and fix hints.', [
    tool('search', 'Look up crash groups.', 'Finds Sentry issues by text, release, tag or user, across projects.', [
      QUERY, opt('project', 'Project slug.'), opt('release', 'Release version.'), LIMIT,
    ], ['any new exceptions since release 4.12', 'which crashes hit user 8812', 'TypeError undefined reading price, where']),
    tool('assign_issue', 'Give a crash to an owner.', 'Assigns an issue to a user or team using ownership rules or an explicit choice.', [
      req('issue_id', 'Sentry issue id.'), opt('assignee', 'User or team; inferred when empty.'),
    ], ['hand this crash to whoever owns checkout', 'route PROJ-1A2 to the mobile team', 'make Dana responsible for that exception']),
    tool('suggest_fix', 'Propose a fix for an exception.', 'Reads the stack trace, suspect commit and code and proposes a patch.', [
      req('issue_id', 'Sentry issue id.'), opt('open_pr', 'Open a pull request with the patch.', 'boolean'),
    ], ['how do we stop this null pointer', 'patch idea for the KeyError in pricing', 'draft a PR that resolves PROJ-9ZT']),
    tool('resolve_issue', 'Mark a crash as fixed.', 'Resolves a Sentry issue, optionally in the next release so regressions reopen it.', [
      req('issue_id', 'Sentry issue id.'), opt('in_release', 'Resolve in this release.'),
    ], ['that exception is fixed in 4.13, close it', 'mark PROJ-1A2 done', 'clear the crash we patched yesterday']),
  ]),
  plugin('datadog-assistant', 'Datadog Assistant', 'Natural-language metric questions and monitor authoring on top of Datadog.', [
    tool('query_metrics', 'Answer a question with metrics.', 'Translates a question into a Datadog metrics query and returns the series with a short reading.', [
      req('question', 'What you want to know.'), PERIOD, opt('tags', 'Tag filters like env:prod.', 'array'),
    ], ['what was p99 latency for checkout yesterday', 'CPU on the search hosts over the last week', 'did error rate go up after the 2pm deploy']),
    tool('create_monitor', 'Set up an alert from a sentence.', 'Builds a Datadog monitor (query, thresholds, notification) from a plain-language description.', [
      req('description', 'When it should fire and who to notify.'), opt('dry_run', 'Only show the definition.', 'boolean'),
    ], ['page me if checkout 5xx goes over 2% for 5 minutes', 'warn #data when the queue backs up past 10k', 'alert when disk is above 90 percent on db hosts']),
    tool('explain_alert', 'Explain why an alert fired.', 'Pulls the alert\'s metric, related events and deploys and explains the probable cause.', [
      req('alert_id', 'Alert or monitor id.'),
    ], ['why did the latency page go off at 3am', 'is this firing because of the deploy', 'what triggered the memory warning']),
    tool('mute_monitor', 'Silence a noisy monitor.', 'Mutes a Datadog monitor for a scope and duration with a reason.', [
      req('monitor_id', 'Monitor.'), opt('scope', 'Scope like host:web-3.'), opt('duration_minutes', 'How long.', 'integer'),
    ], ['shut up the disk alert on web-3 for an hour', 'silence the flapping latency page during the migration', 'quiet that alarm until tomorrow']),
  ]),
  plugin('ci-doctor', 'CI Doctor', 'Diagnoses red builds and flaky tests across CircleCI, GitHub Actions and Jenkins.', [
    tool('diagnose_build', 'Explain a failed CI run.', 'Reads logs of a failed run, finds the first real error and suggests a fix.', [
      req('run_url', 'Link to the run.'),
    ], ['why is main red', 'what broke the nightly pipeline', 'figure out the failure in my PR checks']),
    tool('retry_flaky', 'Rerun only the flaky parts.', 'Detects known-flaky jobs in a failed run and reruns just those.', [
      req('run_url', 'Link to the run.'), opt('max_attempts', 'Attempts per job.', 'integer'),
    ], ['kick the intermittent jobs again', 'redo the e2e step, it is always unstable', 'give the spotty integration suite another go']),
    tool('flaky_report', 'List the flakiest tests.', 'Ranks tests by intermittent failure rate over a period, with owners.', [
      opt('repo', 'owner/name.'), PERIOD, LIMIT,
    ], ['which specs fail randomly the most', 'top intermittent failures this month', 'who owns the unstable e2e cases']),
    tool('summarize', 'Digest the week in CI.', 'Summarizes build health: success rate, slowest pipelines, top failure causes.', [
      opt('repo', 'owner/name.'), PERIOD,
    ], ['how healthy were our builds this week', 'recap of pipeline reliability for the eng review', 'quick rundown of what kept breaking CI']),
  ]),
  plugin('migration-guard', 'Migration Guard', 'Writes and checks database schema migrations for safety.', [
    tool('generate_migration', 'Write a schema migration.', 'Generates up/down migration files for a described schema change in the project\'s framework.', [
      req('change', 'Described schema change.'), oneOf('framework', 'Migration tool.', ['prisma', 'alembic', 'rails', 'flyway', 'knex']),
    ], ['add a nullable region column to accounts', 'DDL to drop the legacy_flags table', 'introduce an index on orders.created_at']),
    tool('check_migration_safety', 'Flag risky migrations.', 'Analyzes a migration for table rewrites, long locks and backwards-incompatible changes on large tables.', [
      req('path', 'Migration file.'), opt('table_sizes', 'Known row counts per table.', 'object'),
    ], ['will this ALTER lock the orders table', 'is it ok to run this during business hours', 'anything dangerous in the new schema change']),
    tool('rollback_plan', 'Prepare how to undo a migration.', 'Generates rollback steps and data backfill scripts for a migration.', [
      req('path', 'Migration file.'),
    ], ['how do we undo the column drop if it goes wrong', 'revert steps for tonight\'s schema change', 'safety net for the orders table alteration']),
  ]),
  plugin('pr-radar', 'PR Radar', 'Keeps code review moving: stale PRs, reviewer nudges and weekly numbers.', [
    tool('list_stale_prs', 'Find PRs waiting too long.', 'Lists open pull requests with no review activity for a number of days.', [
      opt('team', 'Team slug.'), opt('min_days', 'Idle days.', 'integer'),
    ], ['what code reviews are rotting', 'anything of mine nobody has looked at in 3 days', 'stuck merges for the web team']),
    tool('nudge_reviewers', 'Remind reviewers.', 'Sends a friendly reminder to requested reviewers of the given PRs.', [
      req('pr_urls', 'Links to PRs.', 'array'), opt('message', 'Custom note.'),
    ], ['ping whoever owes me a look at 4412', 'poke the people holding up these merges', 'gently remind Ana about my change']),
    tool('export_report', 'Download review metrics.', 'Exports cycle time, review latency and PR size per team or person as a spreadsheet.', [
      opt('team', 'Team slug.'), PERIOD, FORMAT,
    ], ['give me a CSV of time-to-merge by team', 'spreadsheet of code review latency for Q2', 'numbers on how long merges take, as xlsx']),
    tool('summarize', 'Digest review activity.', 'Summarizes the week in code review: merged, waiting and blocked work per team.', [
      opt('team', 'Team slug.'), PERIOD,
    ], ['what merged this week for web', 'recap of review throughput for the eng sync', 'which changes are blocked and why']),
  ]),
  plugin('cloud-cost', 'Cloud Cost Explorer', 'Breaks down cloud spend and finds waste across AWS, Azure and GCP.', [
    tool('cost_breakdown', 'Show spend by service or team.', 'Groups cloud spend by service, account, tag or team for a period and highlights changes.', [
      PERIOD, oneOf('group_by', 'Dimension.', ['service', 'account', 'team', 'tag'], true), opt('provider', 'aws, azure or gcp.'),
    ], ['why did our AWS bill jump in March', 'how much is the data team burning per month', 'which accounts spend the most']),
    tool('find_idle_resources', 'Find unused resources.', 'Lists idle or orphaned resources (unattached volumes, idle instances, old snapshots) with monthly savings.', [
      opt('provider', 'aws, azure or gcp.'), opt('min_monthly_savings', 'Ignore smaller savings.', 'number'),
    ], ['what are we paying for that nobody uses', 'orphaned EBS disks and VMs doing nothing', 'where can we save money quickly']),
    tool('export_report', 'Download a spend spreadsheet.', 'Exports the cost breakdown with forecasts as a file for finance.', [
      PERIOD, FORMAT, RECIPIENTS,
    ], ['send finance the cloud bill breakdown as xlsx', 'CSV of spend per team for last quarter', 'email the monthly infra cost sheet to Raj']),
  ]),
  plugin('cloud-inventory', 'Cloud Inventory', 'Single inventory of everything running in every cloud account.', [
    tool('search', 'Find resources anywhere.', 'Finds cloud resources by name, tag, type or IP across all accounts and providers.', [
      QUERY, opt('resource_type', 'E.g. ec2, bucket, vm.'), opt('provider', 'aws, azure or gcp.'), LIMIT,
    ], ['what box has IP 10.2.4.17', 'which buckets are tagged team=growth', 'is there still a VM called legacy-ftp anywhere']),
    tool('tag_resources', 'Apply tags in bulk.', 'Adds or overwrites tags on all resources matching a filter.', [
      req('filter', 'Selector for resources.'), req('tags', 'Tags to apply.', 'object'), opt('dry_run', 'Only list what would change.', 'boolean'),
    ], ['label every growth bucket with cost-center 4410', 'mark all the staging boxes env=staging', 'put owner=data on the spark instances']),
    tool('export_report', 'Download the inventory.', 'Exports the inventory (optionally filtered) as a spreadsheet for audits.', [
      opt('filter', 'Selector for resources.'), FORMAT,
    ], ['CSV of all public buckets for the auditors', 'give me an xlsx of every VM we run', 'dump the asset list for compliance']),
    tool('stop_instance', 'Stop a VM from the inventory.', 'Stops a compute instance in any connected cloud by name or id.', [
      req('instance', 'Name or id.'), opt('provider', 'aws, azure or gcp.'),
    ], ['shut down the legacy-ftp box', 'power off that idle GPU machine', 'halt the test VM someone forgot']),
  ]),
  plugin('slo-tracker', 'SLO Tracker', 'Error budgets and burn rates for every service objective.', [
    tool('slo_status', 'Check budget left for a service.', 'Returns SLO attainment, remaining error budget and current burn rate for a service.', [
      req('service', 'Service name.'), PERIOD,
    ], ['how much reliability budget does checkout have left', 'are we within our availability target for search', 'can we afford a risky deploy this week']),
    tool('burn_alerts', 'List services burning budget fast.', 'Lists objectives whose burn rate exceeds a multiple of the sustainable rate.', [
      opt('min_burn_rate', 'Burn-rate multiple.', 'number'), opt('team', 'Owning team.'),
    ], ['which services are eating through their budget', 'anything at risk of missing its target this month', 'platform SLOs chewing through budget quickly']),
    tool('export_report', 'Download reliability numbers.', 'Exports SLO attainment and budget consumption per service.', [
      PERIOD, FORMAT,
    ], ['xlsx of availability per service for the quarter', 'CSV of budget burn for the reliability review', 'uptime numbers for the customer QBR']),
  ]),
  plugin('snippet-vault', 'Snippet Vault', 'Team library of reusable code snippets and commands.', [
    tool('save_snippet', 'Keep a snippet for later.', 'Stores a code snippet or shell command with title and tags in the shared library.', [
      req('title', 'Name.'), req('code', 'The snippet.'), opt('language', 'Language.'), opt('tags', 'Labels.', 'array'),
    ], ['stash this kubectl one-liner for the team', 'keep that jq trick in our library', 'file away the SQL for finding dupes']),
    tool('search', 'Find a saved snippet.', 'Looks up snippets by meaning, tag or language.', [
      QUERY, opt('language', 'Language.'), LIMIT,
    ], ['that command we use to drain a node', 'do we have something to rotate the redis password', 'the awk thing for parsing access logs']),
    tool('share_snippet', 'Send a snippet to someone.', 'Shares a stored snippet to a channel or person with syntax highlighting.', [
      req('snippet_id', 'Snippet.'), req('to', 'Channel or person.'),
    ], ['post the node-drain one-liner in #sre', 'send Tom the jq trick', 'drop the dedupe SQL to the data team']),
  ]),
  plugin('mobile-release', 'Mobile Release', 'App Store and Play Store submissions and staged rollouts.', [
    tool('submit_build', 'Send a build for store review.', 'Uploads a build to App Store Connect or Google Play and submits it for review.', [
      req('build_path', 'IPA or AAB path, or CI artifact link.'), oneOf('store', 'Target store.', ['app_store', 'play_store'], true), opt('release_notes', 'What\'s new text.'),
    ], ['push 6.3.0 to Apple for approval', 'get the Android bundle in front of Google', 'put the iOS hotfix up for App Store approval']),
    tool('review_status', 'Check where a store submission is.', 'Returns review state and any rejection reasons for a submitted version.', [
      req('version', 'App version.'), oneOf('store', 'Store.', ['app_store', 'play_store'], true),
    ], ['did Apple approve 6.3 yet', 'why did Google reject the update', 'is the iOS version still waiting']),
    tool('set_rollout_percentage', 'Change a staged rollout.', 'Sets what share of users receive a released version, or halts the rollout.', [
      req('version', 'App version.'), req('percentage', 'Share of users (0 halts).', 'integer'), oneOf('store', 'Store.', ['app_store', 'play_store'], true),
    ], ['ramp Android 6.3 to 50%', 'halt the iOS release, crashes are spiking', 'go to full availability on Play']),
  ]),
  // ── Support ──────────────────────────────────────────────────────────────────────────────
  plugin('zendesk-assist', 'Zendesk Assist', 'Agent-side helper for Zendesk: reply drafts, tagging and quick lookups.', [
    tool('draft_reply', 'Draft an answer to a ticket.', 'Writes a reply to the customer using the ticket history, help-center articles and the chosen tone.', [
      req('ticket_id', 'Zendesk ticket id.'), TONE, opt('include_article_links', 'Link relevant help articles.', 'boolean'),
    ], ['write back to the customer on #88123 explaining the refund timeline', 'help me answer this angry email politely', 'compose a response for that case about SSO errors']),
    tool('summarize', 'Condense a long ticket thread.', 'Summarizes a ticket\'s back-and-forth: the problem, what was tried and what the customer is waiting for.', [
      req('ticket_id', 'Zendesk ticket id.'), LENGTH,
    ], ['what is this 40-message case actually about', 'give me the gist before I take over #77410', 'recap where we are with that escalated customer']),
    tool('tag_ticket', 'Classify a ticket.', 'Predicts and applies contact reason, product area and sentiment labels to a ticket.', [
      req('ticket_id', 'Zendesk ticket id.'), opt('apply', 'Write the labels back to Zendesk.', 'boolean'),
    ], ['label this case with the right product area', 'categorize the incoming billing complaints', 'what contact reason fits #90211']),
    tool('search', 'Find similar past cases.', 'Finds solved tickets similar to a description or ticket, with how they were resolved.', [
      QUERY, opt('status', 'Ticket status filter.'), LIMIT,
    ], ['has anyone dealt with the CSV import encoding issue before', 'similar cases to this login loop', 'how did we resolve the last double-charge complaint']),
  ]),
  plugin('intercom-copilot', 'Intercom Copilot', 'Answers customers in Intercom Messenger and hands off cleanly to humans.', [
    tool('draft_reply', 'Suggest a Messenger answer.', 'Drafts a reply to an Intercom conversation grounded in help content.', [
      req('conversation_id', 'Intercom conversation id.'), TONE,
    ], ['what should I say to this person asking about annual pricing', 'answer the chat about resetting 2FA', 'help me respond in the live chat']),
    tool('handoff_to_agent', 'Route a bot chat to a person.', 'Transfers a conversation from the bot to a human team inbox with a context note.', [
      req('conversation_id', 'Intercom conversation id.'), req('team_inbox', 'Target inbox.'), opt('note', 'Context for the human.'),
    ], ['this chat needs a real human from billing', 'pass the enterprise prospect over to sales', 'bot cannot handle this, route it to tier 2']),
    tool('search', 'Look through conversations.', 'Finds past Intercom conversations by topic, customer or tag.', [
      QUERY, opt('customer_email', 'Only this customer.'), PERIOD, LIMIT,
    ], ['what has acme.com written to us this month', 'chats mentioning the mobile app freezing', 'find where someone asked about GDPR exports']),
  ]),
  plugin('kb-writer', 'Knowledge Base Writer', 'Keeps help-center articles complete and current.', [
    tool('draft_article', 'Write a help-center article.', 'Drafts a how-to or troubleshooting article from resolved tickets or product notes.', [
      req('topic', 'What the article covers.'), opt('source_ticket_ids', 'Tickets to learn from.', 'array'), oneOf('kind', 'Article type.', ['how_to', 'troubleshooting', 'faq', 'release_note']),
    ], ['write up how to set up SAML for customers', 'turn these solved cases into a troubleshooting page', 'FAQ entry for the new invoice layout']),
    tool('find_gaps', 'Spot missing help content.', 'Finds frequent ticket topics that no article answers well.', [
      PERIOD, LIMIT,
    ], ['what do customers keep asking that we have no doc for', 'where is self-service failing', 'topics worth a new help page']),
    tool('update_article', 'Refresh an outdated article.', 'Rewrites sections of an article that no longer match the product, showing a diff for approval.', [
      req('article_id', 'Help-center article id.'), req('what_changed', 'Description of the product change.'),
    ], ['the billing page moved, fix the guide', 'bring the API key doc in line with the new UI', 'refresh the outdated SSO instructions']),
  ]),
  plugin('macro-studio', 'Macro Studio', 'Creates and recommends canned responses for support teams.', [
    tool('create_macro', 'Save a reusable response.', 'Creates a macro with reply text and field changes from an example reply.', [
      req('title', 'Name.'), req('body', 'Reply text with placeholders.'), opt('set_tags', 'Labels the macro applies.', 'array'),
    ], ['turn this reply into something the team can reuse', 'make a canned answer for shipping delays', 'one-click response for password resets']),
    tool('suggest_macro', 'Recommend a canned response.', 'Ranks existing macros by fit for a ticket.', [
      req('ticket_id', 'Ticket id.'), LIMIT,
    ], ['which saved reply fits #55120', 'is there a canned answer for this already', 'best stock response for this refund ask']),
    tool('audit_macros', 'Find outdated canned replies.', 'Lists macros unused for months or referencing retired features.', [
      opt('min_idle_days', 'Idle threshold.', 'integer'),
    ], ['which saved replies are stale', 'canned answers that mention the old pricing', 'cleanup list for our response library']),
  ]),
  plugin('csat-insights', 'CSAT Insights', 'Analyzes satisfaction ratings and survey comments.', [
    tool('analyze_feedback', 'Find themes in customer comments.', 'Clusters CSAT and NPS comments into themes with sentiment and example quotes.', [
      PERIOD, opt('segment', 'Customer segment filter.'), opt('min_theme_size', 'Smallest theme to show.', 'integer'),
    ], ['what are unhappy customers complaining about', 'top themes in the NPS verbatims', 'why did satisfaction dip in May']),
    tool('export_report', 'Download satisfaction numbers.', 'Exports CSAT by team, agent and channel for a period.', [
      PERIOD, FORMAT, RECIPIENTS,
    ], ['send the support lead the monthly CSAT sheet', 'xlsx of satisfaction per agent', 'CSV of ratings by channel for Q3']),
    tool('trend', 'Chart satisfaction over time.', 'Returns a weekly time series of CSAT and NPS with significant changes marked.', [
      PERIOD, opt('channel', 'email, chat or phone.'),
    ], ['is customer happiness going up or down', 'weekly NPS line for this year', 'did the new chatbot hurt ratings']),
  ]),
  plugin('refund-desk', 'Refund Desk', 'Policy-aware refunds and credits for support agents.', [
    tool('check_eligibility', 'See if an order qualifies for money back.', 'Checks an order or subscription against the refund policy and returns the allowed amount and reason.', [
      req('order_or_subscription_id', 'Order or subscription id.'), opt('reason', 'Why the customer wants it.'),
    ], ['can this customer get their money back', 'is order 55-1123 still inside the return window', 'how much are we allowed to give back on this plan']),
    tool('issue_refund', 'Give money back to a customer.', 'Refunds all or part of a payment through the billing system and notes it on the ticket.', [
      req('payment_id', 'Payment or charge id.'), opt('amount', 'Partial amount; full when empty.', 'number'), req('reason', 'Reason code.'), opt('ticket_id', 'Ticket to note it on.'),
    ], ['give them back the $49 from last month', 'reverse the double charge on ch_3Nx', 'credit the customer for the outage week']),
    tool('issue_credit', 'Give account credit instead of cash.', 'Adds a goodwill credit to a customer\'s balance with reason and expiry.', [
      req('customer_id', 'Customer.'), req('amount', 'Amount.', 'number'), req('reason', 'Why.'),
    ], ['put 50 dollars on their balance as an apology', 'goodwill for the outage, as store money', 'offset next month\'s bill for the inconvenience']),
  ]),
  plugin('translate-desk', 'Translate Desk', 'Translation for multilingual support conversations.', [
    tool('translate', 'Convert text to another language.', 'Translates text while keeping product terms and placeholders intact.', [
      req('text', 'Text to convert.'), req('target_language', 'ISO language code.'), opt('glossary', 'Glossary to apply.'),
    ], ['put my reply into German', 'what is this Japanese customer saying', 'render the macro in Brazilian Portuguese']),
    tool('detect_language', 'Identify the language of text.', 'Returns the most likely language and confidence.', [
      req('text', 'Text to inspect.'),
    ], ['is this ticket French or Italian', 'is that Norwegian or Danish', 'figure out which locale the customer writes in']),
    tool('glossary_add', 'Add a term to the translation glossary.', 'Adds a product term and its approved translations so they stay consistent.', [
      req('term', 'Source term.'), req('translations', 'Language code to approved wording.', 'object'),
    ], ['always render "workspace" as "Arbeitsbereich" in German', 'keep our product name untranslated', 'fix the Japanese wording for "invoice" going forward']),
  ]),
  plugin('sentiment-radar', 'Sentiment Radar', 'Scores customer mood and flags conversations that may blow up.', [
    tool('score_sentiment', 'Rate how upset a customer is.', 'Scores the sentiment and frustration of a conversation from -1 to 1 with the driving phrases.', [
      req('conversation_id', 'Ticket or conversation id.'),
    ], ['how angry is this customer', 'is the tone in #66201 getting worse', 'mood check on the enterprise thread']),
    tool('flag_escalations', 'Find conversations likely to escalate.', 'Lists open conversations with rising frustration or churn language.', [
      opt('queue', 'Queue to scan.'), LIMIT,
    ], ['who is about to explode in the queue', 'which open cases mention cancelling', 'risky conversations I should jump on']),
    tool('trend', 'Track customer mood over time.', 'Returns weekly average customer sentiment by channel and product area.', [
      PERIOD, opt('product_area', 'Product area.'),
    ], ['are customers getting grumpier since the price change', 'weekly mood line for billing tickets', 'did the redesign improve how people feel']),
  ]),
  plugin('customer-360', 'Customer 360', 'One view of a customer across CRM, billing, support and product usage.', [
    tool('lookup_customer', 'Pull everything about a customer.', 'Returns plan, MRR, open tickets, recent usage and account owner for a customer by email, domain or id.', [
      req('identifier', 'Email, domain or customer id.'),
    ], ['who is jane@acme.com and what plan are they on', 'everything we know about globex', 'is this person a paying user']),
    tool('summarize', 'Brief on an account.', 'Writes a short account brief: relationship history, health signals and open issues.', [
      req('identifier', 'Email, domain or customer id.'), LENGTH,
    ], ['quick rundown on initech before my call', 'health of the acme relationship in a paragraph', 'what should I know about this customer']),
    tool('export_report', 'Download a customer list with health.', 'Exports a segment of customers with health scores and key metrics.', [
      opt('segment', 'Segment name.'), FORMAT,
    ], ['CSV of at-risk enterprise accounts', 'xlsx of customers with health scores for the QBR', 'spreadsheet of every account in EMEA with MRR']),
  ]),
  plugin('transcript-tools', 'Transcript Tools', 'Search, summarize and redact chat and call transcripts.', [
    tool('search', 'Find moments in transcripts.', 'Searches chat and call transcripts for phrases or topics.', [
      QUERY, PERIOD, opt('agent', 'Only this agent.'), LIMIT,
    ], ['calls where people mention switching to a competitor', 'chats in which agents promised a discount', 'where did a customer threaten legal action']),
    tool('summarize', 'Condense a call or chat.', 'Summarizes a transcript into issue, resolution and follow-ups.', [
      req('transcript_id', 'Transcript id.'), LENGTH,
    ], ['what happened on that 45-minute call', 'recap the chat with the upset reseller', 'key points from yesterday\'s escalation call']),
    tool('redact_pii', 'Remove personal data.', 'Masks card numbers, emails, phone numbers and addresses in a transcript.', [
      req('transcript_id', 'Transcript id.'), opt('entities', 'Which kinds to mask.', 'array'),
    ], ['scrub the card number out of that chat', 'mask emails and phones before sharing with engineering', 'anonymize the call text for training']),
  ]),
  plugin('sla-watch', 'SLA Watch', 'Tracks response deadlines and escalates before they are missed.', [
    tool('breaching_soon', 'List tickets about to miss SLA.', 'Returns tickets whose first-response or resolution deadline falls within the next window.', [
      opt('within_minutes', 'Window size.', 'integer'), opt('group', 'Agent group.'),
    ], ['which cases are about to go overdue', 'anything red in the next hour', 'tickets close to blowing the response target']),
    tool('escalate_ticket', 'Bump a ticket to the next tier.', 'Raises priority, reassigns to the escalation group and notifies the lead.', [
      req('ticket_id', 'Ticket id.'), req('reason', 'Why.'), oneOf('tier', 'Target tier.', ['tier2', 'tier3', 'engineering']),
    ], ['send #77001 up to engineering', 'this one needs tier 3 now', 'raise the enterprise outage case to the lead']),
    tool('export_report', 'Download SLA attainment.', 'Exports SLA attainment by policy, group and priority.', [
      PERIOD, FORMAT,
    ], ['CSV of response-time compliance for last month', 'how often did we miss targets, as a spreadsheet', 'attainment numbers per group in xlsx']),
    tool('pause_sla', 'Stop the clock on a ticket.', 'Pauses SLA timers while waiting on the customer, with a reason.', [
      req('ticket_id', 'Ticket.'), req('reason', 'Why.'),
    ], ['we are waiting on the customer for logs, freeze the timer', 'hold the deadline on #77001 until they reply', 'stop counting time on that case']),
  ]),
  plugin('returns-hub', 'Returns Hub', 'Returns, exchanges and shipping labels for the online store.', [
    tool('create_return_label', 'Make a prepaid shipping label.', 'Creates a return authorization and a prepaid carrier label for items in an order.', [
      req('order_id', 'Order id.'), req('items', 'Line items being sent back.', 'array'), oneOf('carrier', 'Carrier.', ['ups', 'fedex', 'usps', 'dhl']),
    ], ['the customer wants to send back the blue jacket', 'set up an RMA for order 1042', 'prepaid postage for the damaged mug']),
    tool('check_order_status', 'Where is an order.', 'Returns fulfillment and carrier tracking status for an order.', [
      req('order_id', 'Order id.'),
    ], ['has #1042 shipped yet', 'where is this person\'s package', 'tracking for the parcel that never arrived']),
    tool('exchange_item', 'Swap for a different variant.', 'Creates an exchange order for a different size or color and a return label for the original.', [
      req('order_id', 'Order.'), req('item', 'Line item.'), req('new_variant', 'Desired size or color.'),
    ], ['they want the jacket in a medium instead', 'swap the blue mug for the green one', 'replacement in a bigger size']),
  ]),
  plugin('support-qa', 'Support QA', 'Scores agent conversations against the quality rubric and coaches.', [
    tool('grade_conversation', 'Score an agent interaction.', 'Grades a conversation on empathy, accuracy, policy and resolution using the QA rubric.', [
      req('conversation_id', 'Ticket or conversation id.'), opt('rubric', 'Rubric name.'),
    ], ['how well did Tom handle #44012', 'rate this chat against our quality checklist', 'QA this call for tone and accuracy']),
    tool('coach_agent', 'Suggest coaching points.', 'Aggregates QA scores for an agent and proposes three concrete coaching points.', [
      req('agent', 'Agent name or id.'), PERIOD,
    ], ['what should Priya work on', 'feedback themes for the new hires on tier 1', 'prep my 1:1 with Tom about his tickets']),
    tool('export_report', 'Download QA scores.', 'Exports QA scores by agent and rubric dimension.', [
      PERIOD, FORMAT,
    ], ['CSV of quality numbers per agent', 'xlsx of rubric results for the team lead', 'monthly grading sheet']),
  ]),
  plugin('faq-bot', 'FAQ Bot', 'Answers customer questions from the help center with citations.', [
    tool('answer_question', 'Respond from help content.', 'Answers a question using only help-center content and cites the articles used.', [
      req('question', 'Customer question.'), opt('locale', 'Language of the reply.'),
    ], ['how do customers change their billing email', 'do we support SCIM, per our docs', 'what does the help site say about data retention']),
    tool('suggest_article', 'Recommend an article to send.', 'Returns the help-center articles most relevant to a ticket or question.', [
      req('text', 'Ticket text or question.'), LIMIT,
    ], ['which guide should I link for this', 'doc to send someone confused about invoices', 'best help page for the 2FA reset']),
    tool('log_unanswered', 'Record a question the bot could not answer.', 'Captures an unanswered question so the docs team can write content for it.', [
      req('question', 'Question.'), opt('context', 'Where it came from.'),
    ], ['note that people keep asking about SCIM and we had nothing', 'flag this gap in the help content', 'add this to the list of things the bot does not know']),
  ]),
  // ── Sales ────────────────────────────────────────────────────────────────────────────────
  plugin('crm-quick-actions', 'CRM Quick Actions', 'Native plugin for the in-house CRM: the five things reps do fifty times a day, without the full CRM MCP server.', [
    tool('create_contact', 'Add a person to the CRM.', 'Creates a contact with name, email, company and owner, deduplicating against existing records.', [
      req('email', 'Email address.'), opt('first_name', 'Given name.'), opt('last_name', 'Family name.'), opt('company', 'Company or account name.'), opt('owner', 'Rep who owns them.'),
    ], ['save jane.doe@initech.com as a new person on Initech', 'add the guy I just met at the conference', 'put this prospect in our address book']),
    tool('log_call', 'Record a phone conversation.', 'Logs a call against a contact or deal with outcome, duration and notes.', [
      req('related_to', 'Contact, account or deal id.'), oneOf('outcome', 'Result.', ['connected', 'voicemail', 'no_answer', 'wrong_number'], true), opt('notes', 'What was said.'), opt('duration_minutes', 'Length.', 'integer'),
    ], ['I just spoke with Dana at Globex for 20 minutes, note it', 'left a voicemail for the CFO at acme', 'jot down that the buyer wants a demo next week']),
    tool('update_deal_stage', 'Move a deal along the pipeline.', 'Sets the stage of a deal and optionally its amount and close date.', [
      req('deal_id', 'Deal or opportunity id.'), req('stage', 'Target stage.'), opt('amount', 'New value.', 'number'), opt('close_date', 'Expected close.'),
    ], ['Globex is in negotiation now', 'push the acme opp to closed won at 48k', 'the initech renewal slipped to next quarter']),
    tool('search', 'Look up CRM records.', 'Finds contacts, accounts and deals by name, email, domain or free text.', [
      QUERY, oneOf('record_type', 'Limit to one kind.', ['contact', 'account', 'deal']), LIMIT,
    ], ['who do we know at stripe.com', 'any open opps with Umbrella Corp', 'pull up the person named Kofi from the webinar']),
  ]),
  plugin('salesforce-tools', 'Salesforce Tools', 'SOQL, opportunity hygiene and summaries for Salesforce users.', [
    tool('run_soql', 'Query Salesforce with SOQL.', 'Executes a SOQL query (or writes one from a question) and returns records.', [
      req('soql_or_question', 'SOQL text or a question.'), LIMIT,
    ], ['which opps over 100k close this month', 'Accounts in Germany with no activity since January', 'SELECT the contacts at Acme with titles']),
    tool('create_opportunity', 'Open a new opportunity.', 'Creates an Opportunity on an Account with stage, amount and close date.', [
      req('account', 'Account name or id.'), req('name', 'Name.'), req('stage', 'Stage.'), opt('amount', 'Value.', 'number'), opt('close_date', 'Expected close.'),
    ], ['new deal for Hooli, 60k, discovery', 'start a pipeline entry for the Wayne Enterprises expansion', 'log a fresh oppty on Stark for next quarter']),
    tool('summarize', 'Brief on an account from Salesforce.', 'Summarizes an Account: open pipeline, recent activity, key contacts and risks.', [
      req('account', 'Account name or id.'), LENGTH,
    ], ['what is going on with Hooli', 'quick account brief for Wayne Enterprises', 'rundown of Stark before the QBR']),
    tool('update_record', 'Edit a Salesforce record.', 'Updates fields on any Salesforce object record by id.', [
      req('object', 'Object API name.'), req('record_id', 'Id.'), req('fields', 'Field values.', 'object'),
    ], ['set the Hooli opp amount to 75k', 'change the Initech account owner to Maria', 'fix the close date on that deal']),
  ]),
  plugin('hubspot-helper', 'HubSpot Helper', 'Enrichment, deals and sequences in HubSpot.', [
    tool('enrich_contact', 'Fill in missing contact details.', 'Looks up job title, company, size and socials for a HubSpot contact and writes them back.', [
      req('contact_email', 'Email address.'), opt('overwrite', 'Replace existing values.', 'boolean'),
    ], ['what is this lead\'s title and company size', 'fill in the blanks on jane@initech.com', 'get LinkedIn and role for the webinar signups']),
    tool('create_deal', 'Start a HubSpot deal.', 'Creates a deal in a pipeline and associates it with a company and contacts.', [
      req('name', 'Name.'), req('pipeline', 'Pipeline.'), opt('amount', 'Value.', 'number'), opt('company_domain', 'Company to associate.'),
    ], ['open an opportunity for initech in the SMB pipeline', 'new 12k sale for acme.com', 'track the Globex upsell in HubSpot']),
    tool('enroll_in_sequence', 'Add contacts to an email sequence.', 'Enrolls contacts into a HubSpot sequence from a chosen sender.', [
      req('sequence', 'Sequence name.'), req('contact_emails', 'Emails to enroll.', 'array'), opt('sender', 'Sending rep.'),
    ], ['put the webinar leads into the follow-up cadence', 'start the nurture drip for these five people', 'kick off automated outreach to the trial users']),
    tool('create_contact', 'Add a contact in HubSpot.', 'Creates a HubSpot contact with lifecycle stage and owner.', [
      req('email', 'Email.'), opt('firstname', 'Given name.'), opt('lifecyclestage', 'Lifecycle stage.'), opt('owner', 'Owner.'),
    ], ['save the webinar attendee jane@initech.com in HubSpot', 'new person from the booth, mark as lead', 'put Dana from Globex into our marketing database']),
  ]),
  plugin('prospector', 'Prospector', 'Finds and scores new accounts and buyers that fit the ICP.', [
    tool('find_prospects', 'Discover target buyers.', 'Finds people matching title, industry, size and region filters from the data provider.', [
      opt('titles', 'Job titles.', 'array'), opt('industries', 'Industries.', 'array'), opt('employee_range', 'Company size, e.g. 200-1000.'), opt('regions', 'Regions.', 'array'), LIMIT,
    ], ['heads of data at fintechs with 200-1000 people in Europe', 'VPs of engineering at US healthcare companies', 'new logos in our ICP for the Nordics']),
    tool('enrich_company', 'Get firmographics for a company.', 'Returns industry, headcount, revenue band, tech stack and funding for a domain.', [
      req('domain', 'Company domain.'),
    ], ['how big is initech and what do they use', 'funding and headcount for hooli.com', 'tech stack of that fintech']),
    tool('score_lead', 'Rate how good a lead is.', 'Scores a lead for fit and intent with the main reasons.', [
      req('lead_id_or_email', 'Lead id or email.'),
    ], ['is this inbound worth a rep\'s time', 'how hot is jane@initech.com', 'rank the webinar signups by quality']),
  ]),
  plugin('email-outreach', 'Email Outreach', 'Personalized sales emails and follow-ups.', [
    tool('draft_email', 'Write a personalized sales email.', 'Drafts a short outbound email using the prospect\'s role, company news and our value props.', [
      req('recipient', 'Email or CRM id.'), req('goal', 'What the email should achieve.'), TONE,
    ], ['write a cold intro to the VP data at Initech', 'follow-up after the demo with pricing', 'nudge the champion who went quiet']),
    tool('schedule_send', 'Send an email at a chosen time.', 'Queues an email to go out at a time in the recipient\'s timezone.', [
      req('draft_id', 'Draft id.'), req('send_at', 'Local time to deliver.'),
    ], ['fire this off Tuesday 8am their time', 'have it land first thing Monday', 'queue the follow-up for after their holiday']),
    tool('track_opens', 'See who engaged with an email.', 'Returns opens, clicks and replies for sent outreach.', [
      opt('campaign', 'Campaign or sequence.'), PERIOD,
    ], ['did the CFO read my note', 'who clicked the pricing link', 'which prospects engaged with last week\'s mails']),
    tool('suggest_follow_up', 'Propose the next touch.', 'Suggests when and what to send next to a prospect based on engagement.', [
      req('recipient', 'Email or CRM id.'),
    ], ['what should I send Jane next and when', 'best next nudge for the silent CFO', 'how to re-engage the prospect who opened but never replied']),
  ]),
  plugin('call-notes', 'Call Notes', 'Turns sales and customer calls into notes, next steps and CRM updates.', [
    tool('summarize', 'Write up a recorded call.', 'Summarizes a call recording: attendees, pains, objections, next steps.', [
      req('recording_id', 'Recording id or link.'), LENGTH,
    ], ['what came out of the Globex discovery call', 'recap my demo with Initech', 'key takeaways from the renewal conversation']),
    tool('extract_action_items', 'Pull next steps from a call.', 'Lists follow-ups with owners and due dates from a transcript.', [
      req('recording_id', 'Recording id or link.'),
    ], ['what did we promise the customer on that call', 'to-dos from the kickoff meeting', 'who owes what after the QBR']),
    tool('log_to_crm', 'Save call notes to the CRM.', 'Attaches the summary and next steps to the matching deal and contacts in the CRM.', [
      req('recording_id', 'Recording id or link.'), opt('deal_id', 'Deal to attach to; matched automatically when empty.'),
    ], ['put the Globex call write-up on the opportunity', 'sync these notes into Salesforce', 'attach today\'s demo summary to the account']),
    tool('search', 'Find moments across calls.', 'Searches all recorded calls for topics, competitors or phrases.', [
      QUERY, PERIOD, LIMIT,
    ], ['calls where prospects brought up Rivalsoft', 'who mentioned budget freezes this month', 'every time pricing objections came up']),
  ]),
  plugin('deal-desk', 'Deal Desk', 'Quotes, discounts and margin checks for non-standard deals.', [
    tool('generate_quote', 'Build a price proposal.', 'Produces a quote PDF from products, quantities, term and discount.', [
      req('account', 'Account.'), req('line_items', 'Products and quantities.', 'array'), opt('term_months', 'Contract length.', 'integer'), opt('discount_pct', 'Discount percent.', 'number'),
    ], ['price up 200 seats of Pro for 24 months for Hooli', 'proposal for Initech with the analytics add-on', 'send Acme numbers for the enterprise tier']),
    tool('approve_discount', 'Request sign-off on a discount.', 'Routes a discount request to the right approver based on size and margin.', [
      req('deal_id', 'Deal id.'), req('discount_pct', 'Requested percent.', 'number'), req('justification', 'Why.'),
    ], ['I need 25% off for Globex, get the VP to OK it', 'ask finance to bless a bigger concession', 'route the special pricing ask for Acme']),
    tool('check_margin', 'Check deal profitability.', 'Computes gross margin of a proposed deal including discounts and infra costs.', [
      req('deal_id', 'Deal id.'),
    ], ['are we still making money at this price', 'profitability on the Hooli proposal', 'what does the 30% concession do to GM']),
  ]),
  plugin('forecast-pro', 'Forecast Pro', 'Sales forecasting, pipeline coverage and roll-ups.', [
    tool('forecast_quarter', 'Predict the quarter\'s bookings.', 'Forecasts bookings for the quarter by team using pipeline, history and rep commits.', [
      opt('team', 'Team or region.'), opt('quarter', 'Quarter, e.g. 2025-Q1.'),
    ], ['are we going to hit the number this period', 'projected bookings for EMEA', 'what will we land by end of Q3']),
    tool('pipeline_coverage', 'Check coverage against target.', 'Computes pipeline-to-quota coverage by team and stage.', [
      opt('team', 'Team or region.'), opt('quarter', 'Quarter.'),
    ], ['do we have enough in the funnel for next quarter', '3x check for the mid-market team', 'how thin is EMEA looking']),
    tool('export_report', 'Download the sales roll-up.', 'Exports the roll-up with commits, best case and closed for leadership.', [
      opt('quarter', 'Quarter.'), FORMAT, RECIPIENTS,
    ], ['send the CRO the weekly roll-up as xlsx', 'CSV of commits by rep', 'board deck numbers for bookings']),
  ]),
  plugin('territory-planner', 'Territory Planner', 'Design and rebalance sales territories.', [
    tool('assign_territory', 'Give accounts to a rep.', 'Assigns accounts matching rules (region, size, industry) to a rep or team.', [
      req('rules', 'Account selection rules.', 'object'), req('owner', 'Rep or team.'),
    ], ['give Maria every healthcare logo in the Midwest', 'hand the DACH mid-market patch to the Berlin team', 'move fintech accounts over to Kofi']),
    tool('balance_territories', 'Even out rep books.', 'Proposes account moves so reps have similar potential and workload.', [
      req('team', 'Team.'), opt('max_moves', 'Cap on reassignments.', 'integer'),
    ], ['some reps have way more potential than others, fix it', 'even out the West books', 'fair split of accounts for the new hires']),
    tool('export_report', 'Download territory assignments.', 'Exports accounts with their territory, owner and potential.', [
      opt('team', 'Team.'), FORMAT,
    ], ['CSV of who owns which accounts', 'xlsx of the new patches for sales ops', 'account-to-rep mapping for the kickoff']),
  ]),
  plugin('competitive-intel', 'Competitive Intel', 'Competitor news, battlecards and win/loss insights.', [
    tool('search', 'Look up competitor information.', 'Finds news, pricing pages, reviews and win/loss notes about a competitor.', [
      QUERY, opt('competitor', 'Competitor name.'), PERIOD, LIMIT,
    ], ['what has Rivalsoft shipped lately', 'how does BigCo price their enterprise plan', 'why did we lose deals to Acme Analytics']),
    tool('battlecard', 'Produce a battlecard.', 'Builds a one-page battlecard: positioning, landmines, objection handling, proof points.', [
      req('competitor', 'Competitor name.'), opt('segment', 'Customer segment.'),
    ], ['how do we beat Rivalsoft in a deal', 'one-pager on handling BigCo objections', 'talk track against the cheaper alternative']),
    tool('summarize', 'Digest competitor moves.', 'Summarizes a competitor\'s recent launches, pricing changes and hires.', [
      req('competitor', 'Competitor name.'), PERIOD,
    ], ['what has BigCo been up to this quarter', 'recap Rivalsoft news for the sales kickoff', 'anything notable from our main rival lately']),
    tool('win_loss', 'Analyze wins and losses against a rival.', 'Aggregates closed deals involving a competitor and explains why we won or lost.', [
      req('competitor', 'Competitor.'), PERIOD,
    ], ['why does Rivalsoft keep beating us', 'our record against BigCo this year', 'patterns in deals where Acme showed up']),
  ]),
  plugin('meeting-prep', 'Meeting Prep', 'Briefs reps before customer meetings.', [
    tool('brief_account', 'Prepare for a customer meeting.', 'Compiles attendees\' roles, account history, open issues and talking points for an upcoming meeting.', [
      req('event_id_or_account', 'Calendar event or account.'),
    ], ['what do I need to know before the 2pm with Hooli', 'prep me for tomorrow\'s QBR', 'who are these people on my Initech invite']),
    tool('suggest_agenda', 'Propose an agenda.', 'Drafts a meeting agenda based on the deal stage and last conversations.', [
      req('event_id_or_account', 'Calendar event or account.'), opt('duration_minutes', 'Meeting length.', 'integer'),
    ], ['what should we cover in the Globex kickoff', 'outline for a 30-minute discovery', 'talking points for the exec sponsor sync']),
    tool('summarize', 'Recap the relationship so far.', 'Summarizes previous meetings and emails with an account before a new meeting.', [
      req('account', 'Account.'), PERIOD,
    ], ['what did we discuss with Hooli the last three times', 'history with the Initech champion', 'catch me up on Globex before the call']),
  ]),
  plugin('contract-builder', 'Contract Builder', 'Order forms and MSAs from approved templates, sent for e-signature.', [
    tool('generate_contract', 'Produce an agreement from a template.', 'Fills an MSA or order form template with deal terms.', [
      req('template', 'Template name.'), req('deal_id', 'Deal id.'), opt('overrides', 'Custom terms.', 'object'),
    ], ['paper for the Hooli deal', 'order form for Initech with net 45', 'standard MSA for the new logo']),
    tool('redline', 'Compare customer edits to our paper.', 'Compares a customer-edited agreement with our template and flags non-standard terms.', [
      req('document', 'Edited agreement.'), req('template', 'Our template.'),
    ], ['what did Acme legal change in our MSA', 'which of their edits are deal-breakers', 'mark up the differences in the returned order form']),
    tool('send_for_signature', 'Send a document for e-signature.', 'Sends a document to signers in order via the e-signature provider.', [
      req('document', 'Document id or file.'), req('signers', 'Signer emails in order.', 'array'), opt('message', 'Cover note.'),
    ], ['get the Hooli order form executed by their CFO', 'DocuSign this to jane@initech.com', 'route the MSA to both parties to execute']),
  ]),
  plugin('linkedin-sales', 'LinkedIn Sales', 'Sales Navigator lookups, saved leads and InMail.', [
    tool('search', 'Find people on LinkedIn.', 'Searches Sales Navigator for people or companies by title, geography and keywords.', [
      QUERY, opt('geography', 'Region.'), LIMIT,
    ], ['who is the head of IT at Initech', 'CFOs of logistics companies in Texas', 'people who moved to Hooli recently']),
    tool('save_lead', 'Save someone to a lead list.', 'Adds a profile to a Sales Navigator lead list.', [
      req('profile_url', 'Profile link.'), req('list', 'Lead list name.'),
    ], ['keep this VP on my Q3 targets', 'bookmark Jane for the Initech play', 'add these profiles to my watch group']),
    tool('send_inmail', 'Message a LinkedIn member.', 'Sends an InMail to a profile using a template or draft.', [
      req('profile_url', 'Profile link.'), req('body', 'Text.'), opt('subject', 'Subject line.'),
    ], ['reach out to that CTO on LinkedIn', 'DM Jane about the event next week', 'write to the new VP who just joined Hooli']),
  ]),
  plugin('renewals-tracker', 'Renewals Tracker', 'Upcoming renewals, churn risk and expansion signals.', [
    tool('upcoming_renewals', 'List contracts coming up for renewal.', 'Lists subscriptions renewing in a window with ARR, owner and health.', [
      opt('within_days', 'Window.', 'integer'), opt('owner', 'Account owner.'),
    ], ['whose contracts expire in the next 90 days', 'my book up for re-up this quarter', 'big accounts coming up in Q4']),
    tool('churn_risk', 'Score churn risk.', 'Ranks accounts by churn risk with the usage and support signals behind each score.', [
      opt('segment', 'Segment.'), LIMIT,
    ], ['who is likely to leave us', 'accounts with declining usage and angry tickets', 'where should CSMs focus to save ARR']),
    tool('export_report', 'Download the renewal forecast.', 'Exports renewals with risk and expansion potential.', [
      opt('quarter', 'Quarter.'), FORMAT,
    ], ['xlsx of Q1 renewals with risk for the CS review', 'CSV of re-ups and expansions', 'send finance the retention forecast sheet']),
    tool('expansion_signals', 'Find upsell opportunities.', 'Lists accounts near seat limits or heavy feature usage that suggest expansion.', [
      opt('segment', 'Segment.'), LIMIT,
    ], ['who is about to outgrow their plan', 'accounts ready for an upsell', 'customers hitting their seat cap']),
  ]),
  plugin('commission-calc', 'Commission Calculator', 'Explains rep payouts and handles disputes.', [
    tool('calculate_commission', 'Work out a rep\'s payout.', 'Calculates commission for a rep and period with accelerators and clawbacks.', [
      req('rep', 'Rep name or id.'), PERIOD,
    ], ['how much is Maria getting paid on Q2 deals', 'what would I earn if Hooli closes at 80k', 'show my accelerators this quarter']),
    tool('dispute_commission', 'Challenge a payout.', 'Opens a dispute on a commission statement line with evidence.', [
      req('statement_line_id', 'Statement line.'), req('reason', 'Why it is wrong.'),
    ], ['I was not credited for the Globex deal', 'my split on Initech looks wrong, raise it', 'the payout for March is missing a booking']),
    tool('export_report', 'Download commission statements.', 'Exports payout statements by rep for payroll processing.', [
      PERIOD, FORMAT,
    ], ['CSV of payouts for payroll this month', 'xlsx of every rep\'s statement for Q3', 'send finance the comp sheet']),
  ]),
  // ── Finance ──────────────────────────────────────────────────────────────────────────────
  plugin('invoice-assistant', 'Invoice Assistant', 'Create, chase and close out customer invoices.', [
    tool('create_invoice', 'Bill a customer.', 'Creates and optionally sends an invoice with line items, currency, terms and PO number.', [
      req('customer', 'Customer name or id.'), req('line_items', 'Descriptions, quantities and prices.', 'array'), opt('currency', 'ISO currency.'), opt('po_number', 'Customer PO reference.'), opt('send', 'Email it right away.', 'boolean'),
    ], ['charge Initech for 40 hours of consulting', 'bill acme 12k for the onboarding package', 'send Globex a statement for the March usage']),
    tool('send_reminder', 'Chase an overdue invoice.', 'Sends a payment reminder with escalating tone based on days overdue.', [
      req('invoice_id', 'Invoice id.'), TONE,
    ], ['nudge Hooli about the bill that is 30 days late', 'polite payment chaser to acme', 'follow up on INV-2231, still unpaid']),
    tool('mark_paid', 'Record a payment received.', 'Marks an invoice paid (fully or partially) with payment date and method.', [
      req('invoice_id', 'Invoice id.'), opt('amount', 'Amount received.', 'number'), opt('paid_on', 'Date received.'), oneOf('method', 'How they paid.', ['wire', 'ach', 'card', 'check']),
    ], ['Initech wired the money for INV-2231', 'acme settled half of what they owe', 'the check from Globex cleared']),
  ]),
  plugin('expense-helper', 'Expense Helper', 'Receipts, expense claims and approvals.', [
    tool('scan_receipt', 'Read a receipt photo.', 'Extracts merchant, date, amount, currency and category from a receipt image.', [
      req('image', 'Photo or PDF of the receipt.'),
    ], ['here is my taxi slip from Berlin', 'pull the numbers off this hotel bill', 'what does this crumpled lunch voucher say']),
    tool('submit_expense', 'File an expense claim.', 'Creates an expense report line with category, amount, project and attached evidence.', [
      req('amount', 'Amount.', 'number'), req('currency', 'ISO currency.'), req('category', 'Category, e.g. travel.'), opt('project', 'Project or client.'), opt('receipt_id', 'Scanned receipt.'),
    ], ['claim back the 84 euros for the client dinner', 'get me reimbursed for the conference ticket', 'put my Uber rides on the Acme project']),
    tool('approve_expense', 'Approve or reject a claim.', 'Approves or rejects a team member\'s expense report with a comment.', [
      req('report_id', 'Report id.'), oneOf('decision', 'Outcome.', ['approve', 'reject', 'return_for_changes'], true), opt('comment', 'Note to the submitter.'),
    ], ['OK Tom\'s travel claim', 'send back Priya\'s report, receipt missing', 'sign off on the team offsite spend']),
    tool('policy_check', 'Check spend against policy.', 'Checks a claim or planned purchase against the travel and expense policy.', [
      req('description', 'What was or will be bought.'), opt('amount', 'Amount.', 'number'),
    ], ['can I fly business to Singapore', 'is a 200-dollar client dinner allowed', 'what is the hotel cap in London']),
  ]),
  plugin('stripe-toolkit', 'Stripe Toolkit', 'Plugin wrappers for the handful of Stripe actions finance and support do by hand.', [
    tool('refund_payment', 'Refund a Stripe charge.', 'Refunds all or part of a Stripe payment intent or charge.', [
      req('payment_intent', 'Payment intent or charge id.'), opt('amount_cents', 'Partial amount in cents.', 'integer'), oneOf('reason', 'Reason.', ['duplicate', 'fraudulent', 'requested_by_customer']),
    ], ['give the customer back what they were charged last', 'reverse pi_3NxA, it was charged twice', 'partial money back of $20 on that order']),
    tool('search', 'Find Stripe objects.', 'Searches Stripe customers, payments and subscriptions by email, amount or metadata.', [
      QUERY, oneOf('object', 'Object type.', ['customer', 'payment_intent', 'subscription', 'invoice']), LIMIT,
    ], ['what did jane@acme.com pay us', 'charges of exactly $499 yesterday', 'the subscription with metadata org_id=4410']),
    tool('create_payment_link', 'Make a pay-by-link URL.', 'Creates a Stripe payment link for a price and quantity.', [
      req('price_id', 'Stripe price id.'), opt('quantity', 'Units.', 'integer'), opt('allow_promotion_codes', 'Allow coupons.', 'boolean'),
    ], ['URL the customer can use to buy 10 seats', 'checkout address for the workshop ticket', 'something I can email so they can pay by card']),
    tool('create_customer', 'Add a Stripe customer.', 'Creates a Stripe customer with email, name and metadata.', [
      req('email', 'Email.'), opt('name', 'Name.'), opt('metadata', 'Key/value pairs.', 'object'),
    ], ['set up Initech as a payer in Stripe', 'new billing profile for jane@acme.com', 'register the reseller so we can charge them']),
  ]),
  plugin('ap-automation', 'AP Automation', 'Supplier bills from inbox to payment run.', [
    tool('capture_bill', 'Read a supplier bill.', 'Extracts vendor, amounts, tax, due date and PO from an emailed or uploaded bill and creates a draft.', [
      req('document', 'PDF or email id.'),
    ], ['process the AWS invoice that landed in ap@', 'key in this supplier PDF', 'get the office rent document into the books']),
    tool('match_po', 'Three-way match a bill.', 'Matches a bill to its purchase order and goods receipt and lists discrepancies.', [
      req('bill_id', 'Bill id.'),
    ], ['does the Dell bill line up with what we ordered', 'check quantities against the purchase order and receipt', 'why is this vendor charge 10% over']),
    tool('schedule_payment', 'Queue a supplier payment.', 'Adds approved bills to a payment run on a chosen date and method.', [
      req('bill_ids', 'Bills.', 'array'), req('pay_on', 'Date.'), oneOf('method', 'Method.', ['ach', 'wire', 'check']),
    ], ['pay the three Dell bills on Friday', 'put the contractor invoices in next week\'s run', 'wire the landlord on the 1st']),
  ]),
  plugin('month-end-close', 'Month-End Close', 'Close checklist, reconciliations and status for controllers.', [
    tool('close_status', 'Show where the close stands.', 'Lists close checklist items by owner with state and blockers.', [
      opt('period', 'Accounting month, e.g. 2025-03.'), opt('entity', 'Legal entity.'),
    ], ['how far along is the March month-end', 'what is blocking the books for the UK entity', 'who still owes me their reconciliations']),
    tool('reconcile_account', 'Reconcile a GL account.', 'Matches GL balance to the sub-ledger or bank statement and lists unreconciled items.', [
      req('account', 'GL account.'), req('period', 'Accounting month.'),
    ], ['tie out the operating cash for March', 'why does AR not agree with the aging', 'match the bank statement to the books']),
    tool('export_report', 'Download the close package.', 'Exports trial balance, flux analysis and reconciliation status for review.', [
      req('period', 'Accounting month.'), FORMAT, RECIPIENTS,
    ], ['send the controller the March package', 'trial balance and flux in xlsx', 'PDF of the close binder for the auditors']),
    tool('flux_analysis', 'Explain month-over-month swings.', 'Finds accounts with large month-over-month changes and drafts explanations from transactions.', [
      req('period', 'Accounting month.'), opt('threshold_pct', 'Change threshold.', 'number'),
    ], ['why did professional fees jump in March', 'big movers on the P&L this month', 'commentary for swings over 10%']),
  ]),
  plugin('fpa-models', 'FP&A Models', 'Driver-based forecasts and variance analysis.', [
    tool('build_forecast', 'Create a driver-based forecast.', 'Builds a revenue and opex forecast from drivers such as headcount, price and conversion.', [
      req('drivers', 'Driver assumptions.', 'object'), opt('months', 'Horizon in months.', 'integer'), opt('scenario', 'Scenario name.'),
    ], ['model next year if we hire 40 engineers', 'what does revenue look like with a 5% price increase', 'downside plan with slower pipeline conversion']),
    tool('variance_analysis', 'Explain actuals vs plan.', 'Compares actuals to budget or forecast by department and explains the biggest variances.', [
      PERIOD, opt('department', 'Department.'), opt('threshold_pct', 'Only variances above this percent.', 'number'),
    ], ['why is marketing over budget in Q2', 'where did we beat plan last month', 'explain the opex miss to the CFO']),
    tool('export_report', 'Download the forecast model.', 'Exports the forecast or variance tables for board and leadership decks.', [
      opt('scenario', 'Scenario name.'), FORMAT,
    ], ['xlsx of the base and downside plan', 'give the board deck numbers as a spreadsheet', 'CSV of budget vs actual by team']),
  ]),
  plugin('tax-helper', 'Tax Helper', 'Sales tax, VAT and tax-ID checks.', [
    tool('calculate_tax', 'Work out tax on a sale.', 'Computes sales tax or VAT for a transaction by ship-to address and product code.', [
      req('amount', 'Net amount.', 'number'), req('ship_to', 'Address or country/region.'), opt('product_code', 'Product tax code.'),
    ], ['how much VAT on a 1,000 euro SaaS sale to Spain', 'what Texas levies on a shipment to Austin', 'GST on this order to Sydney']),
    tool('validate_vat_number', 'Verify a VAT or tax ID.', 'Checks a VAT/GST/ABN number against the official registry.', [
      req('tax_id', 'The number.'), opt('country', 'Country code.'),
    ], ['is DE811907980 a real registration', 'check the Australian ABN the customer gave us', 'can we reverse-charge this EU buyer']),
    tool('filing_calendar', 'Upcoming tax deadlines.', 'Lists upcoming filing and payment deadlines by jurisdiction.', [
      opt('jurisdictions', 'Countries or states.', 'array'), opt('within_days', 'Window.', 'integer'),
    ], ['what returns are due this month', 'next VAT deadline in Germany', 'state sales tax due dates for Q3']),
  ]),
  plugin('payroll-checks', 'Payroll Checks', 'Pre-run payroll review for anomalies.', [
    tool('preview_payroll', 'Preview the upcoming pay run.', 'Shows gross-to-net totals for the next payroll versus the previous one, by entity.', [
      opt('entity', 'Legal entity.'), opt('pay_date', 'Pay date.'),
    ], ['what is going out on the 25th', 'compare this month\'s salaries to last month', 'total cost of the next pay run in the UK']),
    tool('flag_anomalies', 'Find unusual pay changes.', 'Flags employees whose pay changed unusually, duplicates and missing deductions.', [
      opt('entity', 'Legal entity.'), opt('threshold_pct', 'Change threshold.', 'number'),
    ], ['anyone getting paid double by mistake', 'weird salary jumps before we run', 'missing tax deductions this cycle']),
    tool('export_report', 'Download the payroll register.', 'Exports the payroll register with variances for approval.', [
      opt('entity', 'Legal entity.'), FORMAT,
    ], ['xlsx of this month\'s pay run for the CFO', 'CSV of salary changes since last cycle', 'register for sign-off']),
  ]),
  plugin('budget-tracker', 'Budget Tracker', 'Department budgets, spend to date and budget requests.', [
    tool('budget_vs_actual', 'Show spend against budget.', 'Returns budget, actuals, commitments and remaining amount for a department or cost center.', [
      req('department', 'Department or cost center.'), PERIOD,
    ], ['how much does design have left to spend this year', 'are we over on software subscriptions', 'remaining travel money for sales']),
    tool('request_budget', 'Ask for extra money.', 'Submits a budget increase request with amount, justification and timing.', [
      req('department', 'Department.'), req('amount', 'Amount.', 'number'), req('justification', 'Why.'),
    ], ['I need another 20k for contractors', 'ask finance for more conference funding', 'we want to raise the tooling allowance']),
    tool('export_report', 'Download budget status.', 'Exports budget, actuals and commitments by department for finance reviews.', [
      PERIOD, FORMAT,
    ], ['xlsx of spend vs plan for every team', 'CSV of remaining money by cost center', 'send me the department money sheet for the QBR']),
  ]),
  plugin('treasury-desk', 'Treasury Desk', 'Cash positions and FX.', [
    tool('cash_position', 'Show cash across banks.', 'Aggregates balances across bank accounts and currencies with a 13-week outlook.', [
      opt('currency', 'Report currency.'), opt('include_forecast', 'Add the 13-week outlook.', 'boolean'),
    ], ['how much money do we have in the bank today', 'runway by currency', 'liquidity outlook for the next quarter']),
    tool('fx_convert', 'Convert between currencies.', 'Converts an amount using today\'s or a historical rate.', [
      req('amount', 'Amount.', 'number'), req('from', 'Source currency.'), req('to', 'Target currency.'), opt('date', 'Rate date.'),
    ], ['what is 12,000 GBP in dollars', 'yen amount of the invoice at last month-end rate', 'euro value of our SGD balance']),
    tool('forecast_cash', 'Project cash flow.', 'Forecasts receipts and payments for the next weeks by currency.', [
      opt('weeks', 'Horizon.', 'integer'), opt('currency', 'Currency.'),
    ], ['will we dip below the minimum balance in August', 'expected inflows and outflows for 13 weeks', 'runway if collections slow by 20%']),
  ]),
  plugin('procurement', 'Procurement', 'Purchase requests, vendor quotes and buying guidance.', [
    tool('create_purchase_request', 'Ask to buy something.', 'Submits a purchase request with vendor, amount, cost center and business case for approval.', [
      req('item', 'What to buy.'), req('amount', 'Estimated cost.', 'number'), opt('vendor', 'Preferred supplier.'), req('cost_center', 'Cost center.'),
    ], ['we need 10 new MacBooks for the new hires', 'get approval to buy a Figma enterprise seat pack', 'start the paperwork to order monitors']),
    tool('compare_quotes', 'Compare supplier offers.', 'Normalizes several vendor quotes and compares price, terms and risk.', [
      req('quotes', 'Quote documents.', 'array'),
    ], ['which of these three laptop offers is best', 'side-by-side of the security vendors\' pricing', 'who gave us better terms']),
    tool('search', 'Find approved vendors and contracts.', 'Looks up approved suppliers, existing contracts and preferred catalog items.', [
      QUERY, LIMIT,
    ], ['do we already have a deal with Miro', 'approved supplier for office chairs', 'is there a contract with Snowflake and when does it end']),
    tool('renewal_alerts', 'Upcoming vendor renewals.', 'Lists supplier contracts renewing soon with spend and notice deadlines.', [
      opt('within_days', 'Window.', 'integer'),
    ], ['which SaaS contracts roll over automatically next quarter', 'notice deadlines we might miss', 'suppliers up for negotiation soon']),
  ]),
  plugin('spend-analytics', 'Spend Analytics', 'Where the money goes, by vendor and category.', [
    tool('top_vendors', 'Rank suppliers by spend.', 'Ranks vendors by spend for a period with growth and contract status.', [
      PERIOD, LIMIT, opt('category', 'Spend category.'),
    ], ['who are we paying the most', 'biggest SaaS bills this year', 'fastest growing supplier costs']),
    tool('find_duplicate_payments', 'Catch double payments.', 'Finds likely duplicate supplier payments by amount, date and reference similarity.', [
      PERIOD, opt('min_amount', 'Ignore smaller amounts.', 'number'),
    ], ['did we pay any bill twice', 'possible double charges from vendors last quarter', 'money we may be able to claw back']),
    tool('export_report', 'Download spend data.', 'Exports spend by vendor, category and department.', [
      PERIOD, FORMAT,
    ], ['CSV of vendor costs for the CFO', 'xlsx of software expenditure by team', 'spreadsheet of all supplier payments this year']),
  ]),
  plugin('rev-rec', 'Revenue Recognition', 'ASC 606 schedules and deferred revenue.', [
    tool('revenue_schedule', 'Show how a contract is recognized.', 'Builds the recognition schedule for a contract\'s performance obligations.', [
      req('contract_id', 'Contract id.'),
    ], ['when do we book the Hooli deal as income', 'how does the 3-year prepaid deal hit the P&L', 'spread of the implementation fee over time']),
    tool('export_report', 'Download deferred revenue.', 'Exports the deferred revenue waterfall by month.', [
      PERIOD, FORMAT,
    ], ['waterfall of deferred income for the auditors', 'xlsx of unearned balances by month', 'CSV of what rolls into income next year']),
    tool('summarize', 'Explain a contract\'s revenue treatment.', 'Explains performance obligations, allocation and timing for a contract in plain language.', [
      req('contract_id', 'Contract.'),
    ], ['why is the Hooli deal booked over 36 months', 'how did we allocate the bundle price', 'plain-English treatment of the services add-on']),
  ]),
  plugin('audit-prep', 'Audit Prep', 'Evidence requests and sampling for financial audits.', [
    tool('collect_evidence', 'Gather documents for an audit ask.', 'Collects invoices, approvals and bank proof for a list of sampled transactions.', [
      req('request_id', 'Auditor request id.'), opt('transaction_ids', 'Transactions.', 'array'),
    ], ['pull the backup for the 25 items the auditors picked', 'get the PBC docs together for revenue', 'find approvals for these payments']),
    tool('sample_transactions', 'Pick a statistical sample.', 'Selects a random or monetary-unit sample of transactions from a population.', [
      req('population', 'Account or query.'), req('size', 'Number of items.', 'integer'), oneOf('method', 'Sampling approach.', ['random', 'monetary_unit', 'stratified']),
    ], ['choose 40 journal postings to test', 'give me a random pick of AP payments', 'MUS selection on revenue lines']),
    tool('search', 'Find prior audit requests.', 'Searches past auditor requests and the evidence we supplied for them.', [
      QUERY, opt('year', 'Audit year.', 'integer'), LIMIT,
    ], ['what did we give the auditors for revenue cutoff last year', 'previous PBC items about payroll', 'did they ask for bank confirmations before']),
  ]),
  // ── HR and recruiting ────────────────────────────────────────────────────────────────────
  plugin('hr-helpdesk', 'HR Helpdesk', 'Answers people-policy questions and opens HR cases.', [
    tool('answer_policy_question', 'Answer from the employee handbook.', 'Answers an HR question from the handbook and local policies for the employee\'s country, citing sections.', [
      req('question', 'Employee question.'), opt('country', 'Employee country.'),
    ], ['how many days of parental leave do I get in Germany', 'can I work from abroad for a month', 'what is the rule on side gigs']),
    tool('open_case', 'Raise a confidential HR case.', 'Opens a case with People Ops, with category and confidentiality level.', [
      req('summary', 'What it is about.'), oneOf('category', 'Kind.', ['payroll', 'benefits', 'leave', 'workplace_concern', 'other'], true), opt('confidential', 'Restrict visibility.', 'boolean'),
    ], ['my last paycheck was short, flag it to people ops', 'I need to report a workplace concern privately', 'get someone in HR to look at my leave paperwork']),
    tool('search', 'Find HR documents and forms.', 'Finds HR forms, policies and guides on the intranet.', [
      QUERY, LIMIT,
    ], ['where is the relocation form', 'the travel insurance guide', 'sabbatical application document']),
  ]),
  plugin('pto-planner', 'PTO Planner', 'Vacation requests, balances and team coverage.', [
    tool('request_time_off', 'Book leave.', 'Submits a leave booking for a date range and type to the manager for approval.', [
      req('start_date', 'First day.'), req('end_date', 'Last day.'), oneOf('leave_type', 'Type.', ['vacation', 'sick', 'parental', 'unpaid', 'bereavement'], true), opt('note', 'Note for the manager.'),
    ], ['book me out the week of Aug 12', 'I am sick tomorrow, put it in', 'take Friday as a vacation day']),
    tool('check_balance', 'See remaining leave.', 'Returns remaining vacation, sick and carry-over days for the user or a report.', [
      opt('employee', 'Employee; defaults to me.'),
    ], ['how many vacation days do I have left', 'does Tom still have PTO to burn before year end', 'my carry-over days']),
    tool('team_calendar', 'Show who is out.', 'Shows planned absences for a team over a date range.', [
      req('team', 'Team.'), PERIOD,
    ], ['who on platform is away over Christmas', 'is anyone on my squad off next week', 'absences in support during August']),
    tool('cancel_time_off', 'Withdraw a leave booking.', 'Cancels an approved or pending leave booking and restores the balance.', [
      req('request_id', 'Booking.'),
    ], ['I am not going away next week after all, undo it', 'withdraw my Friday vacation', 'scrap the leave I booked for August']),
  ]),
  plugin('onboarding-buddy', 'Onboarding Buddy', 'New-hire plans, buddies and day-one setup.', [
    tool('create_onboarding_plan', 'Build a 30-60-90 plan.', 'Generates a role-specific onboarding plan with milestones, people to meet and starter work.', [
      req('employee', 'New hire.'), req('role', 'Role.'), opt('start_date', 'Start date.'),
    ], ['first 90 days for our new backend engineer', 'ramp-up schedule for the AE starting Monday', 'what should the new designer do in week one']),
    tool('assign_buddy', 'Pair a new hire with a buddy.', 'Picks a buddy from the same org with capacity and introduces them.', [
      req('employee', 'New hire.'), opt('buddy', 'Preferred buddy.'),
    ], ['find a mentor for Ana who starts next week', 'pair the new SRE with someone experienced', 'who can show Raj the ropes']),
    tool('provision_accounts', 'Set up day-one access.', 'Requests laptop, email, SSO apps and group memberships for a new hire based on role.', [
      req('employee', 'New hire.'), opt('extra_apps', 'Apps beyond the role default.', 'array'),
    ], ['get Ana her laptop, email and Slack before Monday', 'make sure the new analyst can log into Looker', 'set up the standard engineer kit for Raj']),
  ]),
  plugin('offboarding', 'Offboarding', 'Leaver checklists and access removal.', [
    tool('start_offboarding', 'Kick off a departure checklist.', 'Creates the leaver checklist: equipment return, knowledge transfer, final pay and exit interview.', [
      req('employee', 'Leaver.'), req('last_day', 'Last working day.'),
    ], ['Tom is leaving on the 30th, set things in motion', 'exit steps for the contractor whose gig ends Friday', 'handle the leaver process for Priya']),
    tool('revoke_access', 'Remove someone\'s access.', 'Suspends SSO, revokes app sessions and transfers file ownership for a departing person.', [
      req('employee', 'Person.'), opt('effective_at', 'When; immediately when empty.'), opt('transfer_files_to', 'New owner of their docs.'),
    ], ['cut off Tom\'s logins at 5pm', 'lock out the fired contractor right now', 'disable everything for the leaver and hand their drive to their manager']),
    tool('knowledge_transfer', 'Plan the hand-over of a leaver\'s work.', 'Lists a leaver\'s owned systems, docs, tickets and recurring meetings and proposes new owners.', [
      req('employee', 'Leaver.'),
    ], ['what does Tom own that needs a new home', 'who should inherit Priya\'s tickets and dashboards', 'hand-over checklist for the departing SRE']),
  ]),
  plugin('performance-coach', 'Performance Coach', 'Reviews, goals and feedback for managers and employees.', [
    tool('draft_review', 'Write a performance review.', 'Drafts a review from goals, peer feedback and accomplishments with ratings rationale.', [
      req('employee', 'Employee.'), req('cycle', 'Review cycle.'), TONE,
    ], ['help me write Ana\'s H1 appraisal', 'first pass at my self-assessment', 'eval for Raj based on his peer input']),
    tool('summarize', 'Condense peer feedback.', 'Summarizes all feedback on an employee into strengths, growth areas and quotes.', [
      req('employee', 'Employee.'), req('cycle', 'Review cycle.'),
    ], ['what are peers saying about Raj', 'themes in the 360 input for my team', 'boil down the comments on Ana']),
    tool('suggest_goals', 'Propose goals.', 'Suggests measurable goals aligned to team OKRs and the person\'s level.', [
      req('employee', 'Employee.'), opt('focus', 'Growth area.'),
    ], ['what should Ana aim for next half', 'OKRs for a senior engineer moving to staff', 'objectives for my new PM']),
    tool('calibration_prep', 'Prepare calibration material.', 'Builds a calibration sheet with proposed ratings, evidence and distribution per manager.', [
      req('org', 'Org.'), req('cycle', 'Review cycle.'),
    ], ['get my ratings ready for the rating-alignment session', 'distribution of scores across my managers', 'evidence pack for the promo committee']),
  ]),
  plugin('org-chart', 'Org Chart', 'Reporting lines and who-does-what.', [
    tool('find_manager', 'Who someone reports to.', 'Returns the reporting chain of a person up to the CEO.', [
      req('employee', 'Person.'),
    ], ['who is Tom\'s boss', 'reporting chain for the new VP', 'whose team is Priya on']),
    tool('list_reports', 'Show someone\'s team.', 'Lists direct and optionally indirect reports of a person.', [
      req('manager', 'Manager.'), opt('include_indirect', 'Include the whole subtree.', 'boolean'),
    ], ['who works under Sarah', 'everyone in the CTO org', 'how big is Raj\'s team']),
    tool('search', 'Find people by skill or role.', 'Finds employees by name, title, team, location or skills.', [
      QUERY, opt('location', 'Office or country.'), LIMIT,
    ], ['who speaks Japanese in sales', 'Kafka experts in Berlin', 'the designer who did the onboarding flow']),
  ]),
  plugin('comp-planner', 'Comp Planner', 'Salary benchmarks and raise modelling.', [
    tool('salary_benchmark', 'Compare pay to market.', 'Returns market percentiles for a role, level and location.', [
      req('role', 'Role.'), req('level', 'Level.'), req('location', 'Location.'),
    ], ['what does a senior SRE earn in Amsterdam', 'is our offer for the L5 PM competitive', 'market pay for data analysts in Austin']),
    tool('model_raise', 'Simulate merit increases.', 'Models the cost of a merit cycle under a budget percentage and distribution.', [
      req('team', 'Team or org.'), req('budget_pct', 'Merit budget percent.', 'number'),
    ], ['what if we give engineering a 4% merit pool', 'cost of bumping everyone below band midpoint', 'scenarios for this year\'s pay increases']),
    tool('band_check', 'Check pay against bands.', 'Flags employees paid below or above the band for their level and location.', [
      opt('team', 'Team or org.'),
    ], ['who on my team is underpaid for their level', 'people outside the range in sales', 'pay equity outliers in engineering']),
  ]),
  plugin('learning-hub', 'Learning Hub', 'Courses, enrollments and completion tracking.', [
    tool('recommend_courses', 'Suggest training.', 'Recommends courses for a person\'s role, goals and skill gaps.', [
      req('employee', 'Person.'), opt('topic', 'Topic of interest.'),
    ], ['what should I take to get better at SQL', 'classes for a first-time manager', 'upskilling options for the support team on AI']),
    tool('enroll', 'Sign someone up for a course.', 'Enrolls people in a course or learning path with a due date.', [
      req('course', 'Course id or name.'), req('employees', 'People.', 'array'), opt('due_date', 'Complete by.'),
    ], ['sign the new managers up for feedback basics', 'put my team on the security awareness module', 'register Ana for the AWS cert prep']),
    tool('track_completion', 'Check mandatory training.', 'Shows completion of required training per team with overdue people.', [
      opt('course', 'Course.'), opt('team', 'Team.'),
    ], ['who has not done the harassment prevention module', 'is my team compliant on security awareness', 'overdue mandatory learning in sales']),
  ]),
  plugin('pulse-surveys', 'Pulse Surveys', 'Engagement surveys and results.', [
    tool('create_survey', 'Set up a pulse survey.', 'Creates an anonymous survey from question templates and sends it to a population.', [
      req('title', 'Name.'), req('questions', 'Questions or template ids.', 'array'), req('audience', 'Who receives it.'),
    ], ['ask engineering how they feel about the return-to-office plan', 'quick eNPS for the support org', 'questionnaire about the new on-call setup']),
    tool('analyze_results', 'Read engagement results.', 'Scores results by driver, compares with last time and surfaces comment themes.', [
      req('survey_id', 'Survey.'), opt('group_by', 'Break down by team or location.'),
    ], ['how did the engagement numbers come out', 'what are people unhappy about in sales', 'compare morale to last quarter']),
    tool('export_report', 'Download survey results.', 'Exports results for a survey with anonymity thresholds applied.', [
      req('survey_id', 'Survey.'), FORMAT,
    ], ['xlsx of the pulse numbers for leadership', 'PDF of the engagement readout', 'CSV of scores by department']),
  ]),
  plugin('benefits-guide', 'Benefits Guide', 'Explains benefit plans and enrollment choices.', [
    tool('compare_plans', 'Compare health plans.', 'Compares premiums, deductibles and coverage of benefit options for a family situation.', [
      opt('country', 'Country.'), opt('dependents', 'Number of dependents.', 'integer'),
    ], ['PPO or HSA for a family of four', 'which medical option is cheapest if I rarely see a doctor', 'dental coverage differences']),
    tool('answer_question', 'Explain a benefit.', 'Answers questions about perks, insurance and retirement using plan documents.', [
      req('question', 'Question.'), opt('country', 'Country.'),
    ], ['does our insurance cover physiotherapy', 'how does the 401k match work', 'is there a gym stipend']),
    tool('enrollment_status', 'Check benefit elections.', 'Shows current benefit elections, dependents covered and open-enrollment deadlines for an employee.', [
      opt('employee', 'Employee; defaults to me.'),
    ], ['what health plan am I on right now', 'is my partner covered on my insurance', 'when does open season close']),
  ]),
  plugin('people-analytics', 'People Analytics', 'Headcount, attrition and diversity metrics.', [
    tool('headcount_report', 'Count people by org.', 'Returns headcount, hires and departures by org, location and level for a date.', [
      opt('as_of', 'Date.'), opt('group_by', 'Dimension.'),
    ], ['how many people are in engineering right now', 'staff numbers by country', 'how many hires did we make this quarter']),
    tool('attrition_report', 'Show who is leaving.', 'Computes voluntary and involuntary attrition with tenure and manager breakdowns.', [
      PERIOD, opt('org', 'Org.'),
    ], ['are we losing more engineers than last year', 'regretted departures in sales', 'turnover by manager']),
    tool('export_report', 'Download people metrics.', 'Exports headcount and attrition tables with small-group suppression.', [
      PERIOD, FORMAT,
    ], ['xlsx of staff numbers for the board', 'CSV of turnover by team', 'HR metrics pack for the QBR']),
    tool('diversity_report', 'Representation metrics.', 'Returns representation by level and org with small-group suppression.', [
      opt('org', 'Org.'), opt('as_of', 'Date.'),
    ], ['gender split by level in engineering', 'how representative is leadership', 'demographics of this year\'s hires']),
  ]),
  plugin('employee-directory', 'Employee Directory', 'Profiles, contact details and office locations.', [
    tool('search', 'Find a colleague.', 'Finds colleagues by name, team, title or location.', [
      QUERY, LIMIT,
    ], ['who is Priya in finance', 'the person handling security reviews', 'someone on the Dublin office front desk']),
    tool('lookup_profile', 'Show a colleague\'s card.', 'Returns title, team, manager, location, timezone and contact channels.', [
      req('person', 'Name, email or handle.'),
    ], ['what timezone is Kofi in', 'Tom\'s phone and desk location', 'what does Sarah do here']),
    tool('whos_out', 'See who is away today.', 'Lists colleagues who are on leave or traveling today in a team or office.', [
      opt('team', 'Team.'), opt('office', 'Office.'),
    ], ['is anyone on platform on vacation today', 'who is traveling from the Berlin office', 'absent colleagues in finance']),
  ]),
  plugin('recruiter-copilot', 'Recruiter Copilot', 'Sourcing, outreach and candidate summaries for recruiters.', [
    tool('source_candidates', 'Find people for an open role.', 'Searches talent sources for people matching a job\'s requirements and ranks them.', [
      req('job_id', 'Open role.'), opt('locations', 'Locations.', 'array'), LIMIT,
    ], ['find me senior Go engineers in Lisbon', 'who could fill the staff designer opening', 'talent for the Berlin data role']),
    tool('draft_outreach', 'Write a recruiting message.', 'Drafts a personal outreach message to a prospect for a role.', [
      req('prospect', 'Profile or email.'), req('job_id', 'Role.'), TONE,
    ], ['write to this engineer about our platform opening', 'warm note to a silver medalist from last year', 'pitch the PM role to Jane']),
    tool('summarize', 'Condense an applicant\'s background.', 'Summarizes a resume and interview notes against the job requirements.', [
      req('candidate_id', 'Applicant.'), opt('job_id', 'Role to compare against.'),
    ], ['quick read on Jane before the debrief', 'how does this CV stack up against the requirements', 'give me the gist of Raj\'s background']),
    tool('search', 'Find past applicants.', 'Searches previous applicants and prospects in the ATS by skills and history.', [
      QUERY, LIMIT,
    ], ['former finalists for data roles', 'people we liked but could not hire last year', 'Go engineers already in our ATS']),
  ]),
  plugin('interview-kit', 'Interview Kit', 'Questions, scheduling and scorecard summaries for hiring loops.', [
    tool('generate_questions', 'Prepare interview questions.', 'Generates structured questions and rubrics for a competency and level.', [
      req('competency', 'Competency.'), req('level', 'Level.'), opt('count', 'How many.', 'integer'),
    ], ['system design prompts for a senior backend hire', 'behavioral probes for a first-time manager', 'what to ask a staff designer about craft']),
    tool('schedule_interview', 'Book an interview loop.', 'Finds slots that work for the applicant and panel and sends invites.', [
      req('candidate_id', 'Applicant.'), req('interviewers', 'Panel.', 'array'), opt('duration_minutes', 'Length.', 'integer'),
    ], ['set up Jane\'s onsite with the platform panel', 'find an hour for Raj with Sarah and Tom', 'book the final round next week']),
    tool('summarize', 'Digest the panel\'s scorecards.', 'Summarizes scorecards into consensus, disagreements and open questions for the debrief.', [
      req('candidate_id', 'Applicant.'),
    ], ['where did the panel land on Jane', 'are the interviewers aligned on Raj', 'hire/no-hire rundown for the debrief']),
  ]),
  plugin('job-description-studio', 'Job Description Studio', 'Inclusive, accurate job descriptions.', [
    tool('write_job_description', 'Draft a posting.', 'Writes a job description from role, level, team and must-haves in the company voice.', [
      req('role', 'Role.'), req('level', 'Level.'), opt('must_haves', 'Requirements.', 'array'), opt('location', 'Location or remote.'),
    ], ['ad for a senior data engineer, remote EU', 'draft the opening for a support lead', 'posting text for the new PM role']),
    tool('check_bias', 'Check wording for bias.', 'Flags gendered, exclusionary or jargon-heavy wording and suggests alternatives.', [
      req('text', 'Posting text.'),
    ], ['is our "rockstar ninja" ad off-putting', 'make this listing more inclusive', 'any exclusionary wording in the SRE ad']),
    tool('search', 'Find past postings.', 'Finds previous job descriptions for similar roles as a starting point.', [
      QUERY, LIMIT,
    ], ['what did our last SRE ad look like', 'old postings for support leads', 'examples of how we advertised designer roles']),
  ]),
  plugin('offer-letters', 'Offer Letters', 'Offer letters from approved comp.', [
    tool('generate_offer', 'Produce an offer letter.', 'Creates an offer letter with salary, equity, start date and location-specific terms.', [
      req('candidate_id', 'Applicant.'), req('salary', 'Base salary.', 'number'), opt('equity', 'Equity grant.'), req('start_date', 'Start date.'),
    ], ['draft Jane\'s paperwork at 160k with 4k options', 'put together the package doc for Raj', 'formal letter for the approved designer hire']),
    tool('send_offer', 'Send an offer for signature.', 'Sends the offer letter for e-signature with an expiry date.', [
      req('offer_id', 'Offer.'), opt('expires_on', 'Deadline.'),
    ], ['get Jane\'s letter out to her today', 'get Raj his paperwork to sign by Friday', 'release the approved package to the applicant']),
    tool('offer_status', 'Track outstanding offers.', 'Lists offers out with their state, expiry and last activity.', [
      opt('recruiter', 'Recruiter.'),
    ], ['has Jane accepted yet', 'which candidates are sitting on our paperwork', 'pending packages expiring this week']),
  ]),
  plugin('resume-screener', 'Resume Screener', 'First-pass screening against job requirements.', [
    tool('screen_resume', 'Check a CV against a role.', 'Scores a resume against must-haves and nice-to-haves, with evidence quotes.', [
      req('resume', 'CV file or applicant id.'), req('job_id', 'Role.'),
    ], ['does this CV meet the bar for the SRE opening', 'is Jane qualified for the staff role', 'quick fit check on this applicant']),
    tool('rank_candidates', 'Order applicants by fit.', 'Ranks all new applicants for a role by fit score.', [
      req('job_id', 'Role.'), LIMIT,
    ], ['who are the top 10 applicants for the data role', 'best people in this week\'s inbound for design', 'order the PM pile by qualification']),
    tool('summarize', 'Digest a CV.', 'Condenses a resume into experience highlights, skills and gaps.', [
      req('resume', 'CV file or applicant id.'),
    ], ['give me the gist of this applicant', 'three bullets on Raj\'s background', 'what stands out in the PM\'s CV']),
  ]),
  plugin('referral-portal', 'Referral Portal', 'Employee referrals and bonus status.', [
    tool('submit_referral', 'Recommend someone for a job.', 'Submits a referral with the person\'s details, role and how you know them.', [
      req('name', 'Person.'), req('email', 'Their email.'), req('job_id', 'Role.'), opt('relationship', 'How you know them.'),
    ], ['my old colleague would be great for the SRE opening', 'put my friend Dana forward for design', 'recommend Kofi for the data job']),
    tool('referral_status', 'Check on a referral.', 'Shows pipeline stage and bonus eligibility of your referrals.', [
      opt('referral_id', 'Specific referral.'),
    ], ['what happened with the person I put forward', 'did Dana get an interview', 'when do I get my bonus for Kofi']),
    tool('open_roles', 'List jobs you could refer for.', 'Lists open roles with referral bonus amounts, filterable by team and location.', [
      opt('team', 'Team.'), opt('location', 'Location.'),
    ], ['what positions can I put friends forward for', 'any engineering vacancies in Lisbon', 'which jobs pay the highest bonus']),
  ]),
  // ── Legal ────────────────────────────────────────────────────────────────────────────────
  plugin('contract-review', 'Contract Review', 'First-pass legal review of inbound agreements against the playbook.', [
    tool('review_contract', 'Check an agreement against our playbook.', 'Flags clauses that deviate from the legal playbook (liability, indemnity, termination, data protection) with suggested fallbacks.', [
      req('document', 'Agreement file.'), oneOf('contract_type', 'Kind of agreement.', ['msa', 'nda', 'dpa', 'vendor', 'partner']), opt('our_side', 'Customer or vendor side.'),
    ], ['anything nasty in this vendor MSA', 'is the liability cap in their paper acceptable', 'go through the DPA the customer sent']),
    tool('compare_clauses', 'Compare clause wording.', 'Compares a clause across two documents or against the standard clause and explains the differences.', [
      req('clause', 'Clause name, e.g. indemnification.'), req('documents', 'Two or more documents.', 'array'),
    ], ['how does their indemnity differ from ours', 'termination terms in v1 vs v3 of the draft', 'did they weaken the confidentiality section']),
    tool('summarize', 'Plain-language digest of an agreement.', 'Summarizes key terms: parties, term, fees, renewal, termination, liability and obligations.', [
      req('document', 'Agreement file.'), LENGTH,
    ], ['what are we actually signing up for with this SOW', 'key terms of the Snowflake order form', 'tl;dr of the partner agreement for the sales team']),
  ]),
  plugin('nda-generator', 'NDA Generator', 'Self-serve mutual and one-way NDAs.', [
    tool('generate_nda', 'Produce an NDA.', 'Creates a mutual or one-way NDA from the approved template for a counterparty.', [
      req('counterparty', 'Other party legal name.'), oneOf('kind', 'Direction.', ['mutual', 'one_way'], true), opt('governing_law', 'Jurisdiction.'),
    ], ['we need a mutual confidentiality agreement with Initech', 'paper so the agency can see our roadmap', 'one-way confidentiality doc for the candidate take-home']),
    tool('send_for_signature', 'Send for e-signature.', 'Sends the document to the counterparty signer and our signatory.', [
      req('document', 'Document id.'), req('signer_email', 'Counterparty signer.'),
    ], ['get Initech to execute the mutual', 'DocuSign it to their counsel', 'route it to legal@agency.com to execute']),
    tool('search', 'Find signed NDAs.', 'Looks up executed NDAs by counterparty and expiry.', [
      QUERY, LIMIT,
    ], ['do we already have a confidentiality agreement with Initech', 'when does the Hooli mutual expire', 'signed paper with the design agency']),
  ]),
  plugin('legal-research', 'Legal Research', 'Case law, regulations and citations.', [
    tool('search', 'Look up laws and cases.', 'Searches statutes, regulations and case law by jurisdiction and topic.', [
      QUERY, opt('jurisdiction', 'Jurisdiction.'), PERIOD, LIMIT,
    ], ['what does the EU AI Act say about chatbots', 'California rules on auto-renewal', 'precedent on non-competes in New York']),
    tool('summarize', 'Digest a ruling or regulation.', 'Summarizes a decision or regulation: holding, reasoning, obligations and effective dates.', [
      req('citation_or_url', 'Citation or link.'), LENGTH,
    ], ['what does Schrems II mean for us', 'the gist of the new SEC cyber disclosure rule', 'explain the DMA obligations in a paragraph']),
    tool('cite_check', 'Verify citations.', 'Checks that citations in a memo exist, are quoted accurately and are still good law.', [
      req('document', 'Memo or brief.'),
    ], ['are the authorities in this memo real', 'validate the case references before filing', 'has any of these rulings been overturned']),
    tool('track_regulation', 'Follow a regulation\'s progress.', 'Watches a bill or regulation and alerts on amendments and effective dates.', [
      req('regulation', 'Name or citation.'), opt('jurisdiction', 'Jurisdiction.'),
    ], ['tell me when the AI Act obligations kick in', 'keep tabs on the Colorado privacy bill', 'follow amendments to DORA']),
  ]),
  plugin('clause-library', 'Clause Library', 'Approved clause language and fallbacks.', [
    tool('search', 'Find approved clause language.', 'Finds approved clauses and fallback positions by topic.', [
      QUERY, opt('contract_type', 'Agreement type.'), LIMIT,
    ], ['our standard limitation of liability language', 'fallback if they reject the 12-month cap', 'approved wording for data breach notice']),
    tool('insert_clause', 'Put a clause into a draft.', 'Inserts an approved clause at a section of a draft, with tracked changes.', [
      req('document', 'Draft.'), req('clause_id', 'Clause.'), req('section', 'Section heading or number.'),
    ], ['add our standard AI-use language to section 9', 'drop the SLA exhibit text into the MSA', 'put the audit-rights wording in the DPA']),
    tool('propose_fallback', 'Offer an alternative position.', 'Returns the approved fallback wording when a counterparty rejects our standard clause.', [
      req('clause_id', 'Clause.'), opt('counterparty_text', 'Their proposed wording.'),
    ], ['they rejected our liability cap, what can we give', 'next-best wording on indemnity', 'acceptable compromise on the audit rights']),
  ]),
  plugin('compliance-tracker', 'Compliance Tracker', 'Policy checks, exceptions and compliance status.', [
    tool('check_policy', 'Is this allowed by policy.', 'Checks a planned action (tool purchase, data transfer, gift) against company policies.', [
      req('description', 'What is planned.'),
    ], ['can I send customer data to this new AI vendor', 'am I allowed to accept a 150-dollar gift', 'is it ok to store PII in this spreadsheet']),
    tool('log_exception', 'Record an approved deviation.', 'Records an approved policy exception with owner, expiry and compensating controls.', [
      req('policy', 'Policy.'), req('justification', 'Why.'), req('expires_on', 'Expiry.'), opt('owner', 'Owner.'),
    ], ['note that marketing may use the unvetted tool until June', 'write down the waiver for the legacy server', 'track the temporary deviation for the vendor']),
    tool('export_report', 'Download compliance status.', 'Exports control status, open exceptions and overdue attestations.', [
      opt('framework', 'Framework, e.g. SOC 2.'), FORMAT,
    ], ['xlsx of open waivers for the audit committee', 'PDF of SOC 2 status', 'CSV of overdue attestations']),
  ]),
  plugin('privacy-requests', 'Privacy Requests', 'GDPR/CCPA data subject requests end to end.', [
    tool('handle_dsar', 'Start a data subject request.', 'Opens a DSAR, verifies identity and locates the person\'s data across systems.', [
      req('email', 'Data subject email.'), oneOf('request_type', 'Kind.', ['access', 'deletion', 'correction', 'portability'], true),
    ], ['a customer wants to know what we hold on them', 'GDPR ask from jane@example.com', 'someone invoked their CCPA rights']),
    tool('delete_personal_data', 'Erase a person\'s data.', 'Deletes or anonymizes a person\'s records across connected systems and produces a certificate.', [
      req('dsar_id', 'Request id.'), opt('dry_run', 'List what would be removed.', 'boolean'),
    ], ['forget this user everywhere', 'wipe jane@example.com from all systems', 'right-to-be-forgotten for ticket 4410']),
    tool('export_user_data', 'Package a person\'s data.', 'Builds a machine-readable archive of a person\'s data for an access or portability request.', [
      req('dsar_id', 'Request id.'), oneOf('format', 'Archive format.', ['json', 'csv', 'zip']),
    ], ['give the customer a copy of everything we have on them', 'build the takeout archive for the GDPR ask', 'package up her records for portability']),
    tool('request_status', 'Track data subject requests.', 'Lists open DSARs with deadline, stage and blockers.', [
      opt('overdue_only', 'Only late ones.', 'boolean'),
    ], ['which GDPR asks are about to miss the 30 days', 'where is jane@example.com\'s erasure', 'open CCPA items']),
  ]),
  plugin('trademark-watch', 'Trademark Watch', 'Clearance searches and watch notices.', [
    tool('search', 'Check a name against registries.', 'Searches trademark registries for identical and similar marks in classes and regions.', [
      QUERY, opt('classes', 'Nice classes.', 'array'), opt('regions', 'Registries, e.g. USPTO, EUIPO.', 'array'),
    ], ['can we call the new product Nimbus', 'is anyone using a name like ours in the EU', 'clearance for the new logo wordmark']),
    tool('watch_mark', 'Monitor for conflicting filings.', 'Sets up alerts for new filings confusingly similar to one of our marks.', [
      req('mark', 'Our mark.'), opt('regions', 'Registries.', 'array'),
    ], ['alert me if someone files something like our brand', 'keep an eye on lookalike registrations', 'notify legal about copycat filings']),
    tool('renewal_deadlines', 'List marks due for renewal.', 'Lists our registered marks with renewal and declaration deadlines.', [
      opt('within_days', 'Window.', 'integer'),
    ], ['which of our brands need re-filing soon', 'due dates on our EU registrations', 'anything lapsing this year']),
  ]),
  plugin('e-signature', 'E-Signature', 'Envelopes, signers and signing status.', [
    tool('send_for_signature', 'Create and send an envelope.', 'Sends one or more documents to signers in a routing order with reminders.', [
      req('documents', 'Files.', 'array'), req('signers', 'Signer emails in order.', 'array'), opt('reminder_days', 'Days between reminders.', 'integer'),
    ], ['get both founders to put their names on the lease', 'DocuSign the SOW to the customer then our CFO', 'route this contract to three people to execute']),
    tool('check_status', 'See who has signed.', 'Returns the state of an envelope and who still needs to act.', [
      req('envelope_id', 'Envelope.'),
    ], ['has the customer executed the order form yet', 'who is holding up the MSA', 'is the offer letter back']),
    tool('void_envelope', 'Cancel a sent envelope.', 'Voids an envelope that has not been completed, with a reason sent to signers.', [
      req('envelope_id', 'Envelope.'), req('reason', 'Why.'),
    ], ['cancel the contract I sent by mistake', 'pull back the outdated order form', 'kill the pending paperwork, terms changed']),
  ]),

  // ── Marketing ────────────────────────────────────────────────────────────────────────────
  plugin('content-writer', 'Content Writer', 'Blog posts, rewrites and summaries in the brand voice.', [
    tool('draft_blog_post', 'Write a blog article.', 'Drafts a blog article from a brief, outline or notes with SEO headings.', [
      req('brief', 'Topic and angle.'), opt('target_keyword', 'Primary keyword.'), LENGTH, TONE,
    ], ['write something for the site about our SOC 2 journey', 'turn my notes into a piece on pricing transparency', 'article about the new integrations launch']),
    tool('rewrite', 'Rework copy.', 'Rewrites text for a new audience, length or tone while keeping facts intact.', [
      req('text', 'Source copy.'), opt('audience', 'New audience.'), TONE, LENGTH,
    ], ['make this launch email less salesy', 'turn the engineering doc into something a CFO can follow', 'shorten the homepage hero copy']),
    tool('summarize', 'Condense long content.', 'Summarizes a document or URL into key points for social or newsletter use.', [
      req('source', 'Text or link.'), LENGTH,
    ], ['tl;dr of the analyst report for LinkedIn', 'three bullets from the whitepaper', 'newsletter-sized recap of the case study']),
    tool('search', 'Find existing content.', 'Finds published blog posts, case studies and whitepapers on a topic.', [
      QUERY, LIMIT,
    ], ['have we written about SOC 2 before', 'customer stories in healthcare', 'older articles on pricing we can link']),
  ]),
  plugin('seo-toolkit', 'SEO Toolkit', 'Keyword research, page audits and rank tracking.', [
    tool('keyword_research', 'Find terms to target.', 'Suggests keywords with volume, difficulty and intent for a topic.', [
      req('topic', 'Topic.'), opt('country', 'Market.'), LIMIT,
    ], ['what do people google when looking for expense software', 'long-tail ideas around incident management', 'terms we could rank for in Germany']),
    tool('audit_page', 'Check a page for SEO issues.', 'Audits a URL for titles, meta, headings, speed, schema and internal links.', [
      req('url', 'Page.'),
    ], ['why is /pricing not showing up on Google', 'technical check on our new landing', 'what is wrong with the blog article\'s SEO basics']),
    tool('track_rankings', 'Monitor positions.', 'Returns current search positions and changes for tracked keywords.', [
      opt('keywords', 'Keywords.', 'array'), PERIOD,
    ], ['where do we show up for "incident management software"', 'did we drop on Google after the redesign', 'position changes this month']),
  ]),
  plugin('social-scheduler', 'Social Scheduler', 'Plan and publish posts to LinkedIn, X and Instagram.', [
    tool('schedule_post', 'Queue a social post.', 'Schedules a post with text and media to one or more social accounts.', [
      req('text', 'Post copy.'), req('channels', 'Accounts.', 'array'), req('publish_at', 'Time.'), opt('media', 'Images or video.', 'array'),
    ], ['put the launch announcement on LinkedIn Tuesday 9am', 'tweet the webinar reminder tomorrow', 'line up the Instagram carousel for Friday']),
    tool('suggest_hashtags', 'Recommend tags for a post.', 'Suggests relevant, non-spammy hashtags for the copy and network.', [
      req('text', 'Post copy.'), oneOf('network', 'Network.', ['linkedin', 'x', 'instagram', 'tiktok'], true),
    ], ['what # should go on the launch tweet', 'labels for the hiring post on LinkedIn', 'trending labels for our Instagram reel']),
    tool('export_report', 'Download social performance.', 'Exports impressions, engagement and follower growth per channel.', [
      PERIOD, FORMAT,
    ], ['CSV of how our posts did last month', 'xlsx of LinkedIn engagement for the QBR', 'social numbers for the marketing review']),
    tool('draft_post', 'Write social copy.', 'Drafts post copy per network from a link or announcement.', [
      req('source', 'Link or announcement.'), opt('networks', 'Networks.', 'array'), TONE,
    ], ['write a LinkedIn blurb for the new case study', 'tweet-sized version of the launch news', 'Instagram caption for the team photo']),
  ]),
  plugin('campaign-analytics', 'Campaign Analytics', 'Performance and attribution across marketing channels.', [
    tool('campaign_performance', 'How a campaign did.', 'Returns reach, clicks, conversions, CAC and pipeline for a campaign.', [
      req('campaign', 'Campaign.'), PERIOD,
    ], ['did the spring promo pay off', 'leads and pipeline from the webinar series', 'cost per signup for the Google push']),
    tool('attribution', 'Credit revenue to channels.', 'Attributes pipeline and revenue to channels under a chosen model.', [
      oneOf('model', 'Attribution model.', ['first_touch', 'last_touch', 'linear', 'w_shaped'], true), PERIOD,
    ], ['which channels actually drive deals', 'where did our closed-won come from', 'is paid social worth it compared to events']),
    tool('export_report', 'Download channel metrics.', 'Exports channel and campaign metrics for the marketing review.', [
      PERIOD, FORMAT, RECIPIENTS,
    ], ['send the CMO the monthly numbers', 'xlsx of spend and pipeline by channel', 'CSV of every campaign this quarter']),
  ]),
  plugin('email-builder', 'Email Builder', 'Responsive marketing emails with pre-send checks.', [
    tool('build_email', 'Create a marketing email.', 'Builds a responsive email from a brief and the brand template, with subject line options.', [
      req('brief', 'What the email is about.'), opt('template', 'Template.'), opt('subject_options', 'How many subject lines to propose.', 'integer'),
    ], ['newsletter for the March product updates', 'promo mail for the Black Friday offer', 'invite to our customer summit']),
    tool('spam_check', 'Test deliverability.', 'Scores content for spam filters and checks links, images and authentication.', [
      req('email_id', 'Draft.'),
    ], ['will this land in the junk folder', 'deliverability test before the big blast', 'any broken links or words that trip filters']),
    tool('send_test', 'Send a proof.', 'Sends a proof of a draft to reviewers on several clients.', [
      req('email_id', 'Draft.'), req('recipients', 'Reviewers.', 'array'),
    ], ['proof it to me and Sarah', 'let the team preview the newsletter in their inbox', 'fire a sample to the QA list']),
  ]),
  plugin('brand-guard', 'Brand Guard', 'Checks copy and visuals against the brand guidelines.', [
    tool('check_brand_voice', 'Review copy for voice.', 'Flags wording that violates brand voice, terminology and style rules.', [
      req('text', 'Copy.'),
    ], ['does this sound like us', 'are we using the product names correctly here', 'style-guide pass on the press release']),
    tool('check_visual', 'Review a visual for brand rules.', 'Checks colors, logo use, clear space and typography in an image or design.', [
      req('image', 'Image or design link.'),
    ], ['is the logo used right on this banner', 'are these the approved colors', 'does the partner slide respect our guidelines']),
    tool('rewrite_on_brand', 'Fix copy to match the voice.', 'Rewrites copy so it follows brand voice, terminology and capitalization rules.', [
      req('text', 'Copy.'), opt('channel', 'Where it will appear.'),
    ], ['make this press release sound like us', 'correct the product naming in the deck text', 'tone this down to our house style']),
  ]),
  plugin('webinar-manager', 'Webinar Manager', 'Webinar setup, registrants and follow-up.', [
    tool('create_webinar', 'Set up an online event.', 'Creates a webinar with title, speakers, time and registration page.', [
      req('title', 'Title.'), req('starts_at', 'Start time.'), opt('speakers', 'Speakers.', 'array'), opt('duration_minutes', 'Length.', 'integer'),
    ], ['set up a live session on the AI features for June 12', 'online event with our CTO and a customer', 'registration page for the partner training']),
    tool('export_attendees', 'Download the attendee list.', 'Exports registrants and attendees with watch time and questions asked.', [
      req('webinar_id', 'Event.'), FORMAT,
    ], ['who showed up to yesterday\'s session', 'CSV of registrants for sales follow-up', 'list of people who asked questions']),
    tool('send_follow_up', 'Email attendees after the event.', 'Sends the recording and next steps to attendees and a different note to no-shows.', [
      req('webinar_id', 'Event.'), opt('include_recording', 'Attach the replay link.', 'boolean'),
    ], ['mail everyone the replay and slides', 'different note for people who registered but did not show', 'thank-you message after the partner training']),
  ]),
  plugin('experiment-lab', 'Experiment Lab', 'A/B tests for pages, emails and pricing.', [
    tool('create_experiment', 'Set up an A/B test.', 'Creates an experiment with variants, traffic split and primary metric.', [
      req('name', 'Name.'), req('variants', 'Variant descriptions.', 'array'), req('metric', 'Primary metric.'), opt('traffic_pct', 'Share of traffic.', 'number'),
    ], ['test two headlines on the pricing page', 'split the signup flow 50/50 with the shorter form', 'try a green vs blue CTA']),
    tool('significance', 'Is the result real.', 'Computes lift, confidence interval and whether the test reached significance.', [
      req('experiment_id', 'Test.'),
    ], ['did variant B actually win', 'can we call the headline test yet', 'is the lift on signups statistically solid']),
    tool('stop_experiment', 'End a test and ship a winner.', 'Stops an experiment and rolls out the chosen variant to all traffic.', [
      req('experiment_id', 'Test.'), req('winner', 'Variant to ship.'),
    ], ['variant B won, ship it to everyone', 'wrap the headline test and keep the control', 'kill the pricing split and go with the cheaper plan']),
  ]),
  plugin('press-monitor', 'Press Monitor', 'Media mentions, sentiment and alerts.', [
    tool('search', 'Find press mentions.', 'Searches news, blogs and podcasts for mentions of a company or topic.', [
      QUERY, PERIOD, LIMIT,
    ], ['any articles about our outage', 'what are journalists writing about the acquisition', 'podcast mentions of our CEO']),
    tool('summarize', 'Digest coverage.', 'Summarizes coverage of a topic with sentiment and top outlets.', [
      req('topic', 'Topic or company.'), PERIOD,
    ], ['how did the launch land in the media', 'tone of the coverage this week', 'recap of the press reaction to the layoffs']),
    tool('set_alert', 'Get notified of new mentions.', 'Creates an alert for new coverage matching a query.', [
      req('query', 'What to watch.'), oneOf('frequency', 'How often.', ['realtime', 'daily', 'weekly']),
    ], ['ping me when we are in the news', 'daily digest of competitor coverage', 'watch for stories mentioning the breach']),
  ]),
  plugin('landing-pages', 'Landing Pages', 'Campaign pages without engineering help.', [
    tool('create_landing_page', 'Build a campaign page.', 'Builds a page from a template with copy, form and tracking.', [
      req('campaign', 'Campaign.'), req('headline', 'Headline.'), opt('template', 'Template.'), opt('form_fields', 'Fields to capture.', 'array'),
    ], ['spin up a signup microsite for the summit', 'site for the ebook download', 'a quick site for the partner promo']),
    tool('publish', 'Put a page live.', 'Publishes a page to a path on the marketing domain.', [
      req('page_id', 'Page.'), req('path', 'URL path.'),
    ], ['make the summit microsite live at /summit', 'go live with the ebook site', 'push the promo landing to production']),
    tool('page_stats', 'Check conversion on a page.', 'Returns visits, conversion rate and form drop-off for a campaign page.', [
      req('page_id', 'Page.'), PERIOD,
    ], ['how many people signed up from the summit microsite', 'conversion on the ebook site', 'where do visitors abandon the form']),
  ]),
  plugin('ads-manager', 'Ads Manager', 'Paid campaigns on Google, Meta and LinkedIn.', [
    tool('create_ad', 'Launch a paid ad.', 'Creates an ad with creative, audience and budget on a network.', [
      req('network', 'Network.'), req('creative', 'Copy and media.'), req('audience', 'Targeting.'), req('daily_budget', 'Budget per day.', 'number'),
    ], ['run a LinkedIn sponsored post targeting CFOs', 'Google search promo for "expense software"', 'Meta retargeting for cart abandoners']),
    tool('adjust_budget', 'Change spend on a campaign.', 'Raises or lowers the daily budget of a paid campaign.', [
      req('campaign_id', 'Campaign.'), req('daily_budget', 'New amount.', 'number'),
    ], ['double what we spend on the LinkedIn push', 'cut the Meta spend in half', 'put 500 a day behind the search campaign']),
    tool('pause_campaign', 'Stop a paid campaign.', 'Pauses a paid campaign and reports spend to date.', [
      req('campaign_id', 'Campaign.'), opt('reason', 'Why.'),
    ], ['stop the Facebook promo, it is burning money', 'halt all LinkedIn spend until Monday', 'turn off the retargeting ads']),
  ]),
  plugin('influencer-crm', 'Influencer CRM', 'Creators, partnerships and deliverables.', [
    tool('find_influencers', 'Discover creators.', 'Finds creators by niche, audience size, region and engagement.', [
      req('niche', 'Niche.'), opt('min_followers', 'Minimum followers.', 'integer'), opt('region', 'Region.'),
    ], ['developer YouTubers with 50k+ subscribers', 'fintech creators on TikTok in the UK', 'who talks about productivity tools on Instagram']),
    tool('track_deliverables', 'Check creator commitments.', 'Shows contracted posts per creator and whether they went out on time.', [
      opt('campaign', 'Campaign.'),
    ], ['did all the creators post for the launch', 'which partnerships are late', 'content owed to us this month']),
    tool('export_report', 'Download creator performance.', 'Exports reach, engagement and cost per creator for a campaign.', [
      opt('campaign', 'Campaign.'), FORMAT,
    ], ['CSV of creator results for the launch', 'xlsx of cost per view by partner', 'numbers on our YouTube partnerships']),
  ]),
  // ── Design ───────────────────────────────────────────────────────────────────────────────
  plugin('figma-helper', 'Figma Helper', 'Handoff helpers on top of Figma files.', [
    tool('export_assets', 'Export icons and images from a file.', 'Exports marked layers or frames as SVG/PNG at the requested scales into a folder.', [
      req('file_url', 'Figma file link.'), opt('node_ids', 'Specific layers.', 'array'), oneOf('image_format', 'Output type.', ['svg', 'png', 'pdf']), opt('scales', 'Scales like 1x, 2x.', 'array'),
    ], ['pull all the icons out of the design system doc as SVG', 'get 2x PNGs of the onboarding screens', 'download the logo variants from the mockup']),
    tool('inspect_frame', 'Get specs for a frame.', 'Returns dimensions, spacing, colors, fonts and tokens used in a frame for implementation.', [
      req('file_url', 'Figma file link.'), req('node_id', 'Frame.'),
    ], ['what padding and font does the pricing card use', 'CSS values for the header in the mockup', 'which tokens does this screen rely on']),
    tool('summarize', 'Digest design comments.', 'Groups open comments on a file into themes with who is waiting on whom.', [
      req('file_url', 'Figma file link.'), opt('unresolved_only', 'Skip resolved threads.', 'boolean'),
    ], ['what feedback is still open on the checkout mockups', 'recap the review remarks from PM on the new nav', 'who is waiting on design in that doc']),
    tool('compare_versions', 'Show what changed in a design.', 'Compares two versions of a file and highlights changed frames.', [
      req('file_url', 'Figma file link.'), req('from_version', 'Older version.'), opt('to_version', 'Newer version; latest when empty.'),
    ], ['what did the designer change since Monday', 'diff the onboarding screens between reviews', 'which screens moved after the crit']),
  ]),
  plugin('image-studio', 'Image Studio', 'Generate and edit images for marketing and product.', [
    tool('generate_image', 'Create a picture from a prompt.', 'Generates images from a text prompt with style and aspect ratio options.', [
      req('prompt', 'What to depict.'), oneOf('style', 'Look.', ['photo', 'illustration', '3d', 'flat']), opt('aspect_ratio', 'E.g. 16:9.'), opt('count', 'How many.', 'integer'),
    ], ['hero art of a friendly robot sorting invoices', 'illustration for the blog article about on-call', 'a flat-style banner for the summit']),
    tool('remove_background', 'Cut out the subject.', 'Removes the background from a photo and returns a transparent PNG.', [
      req('image', 'Photo.'),
    ], ['make the headshot transparent', 'isolate the product shot for the store', 'drop the backdrop behind the laptop photo']),
    tool('resize_image', 'Change dimensions.', 'Resizes or crops a picture for given dimensions or social presets.', [
      req('image', 'Picture.'), opt('width', 'Pixels.', 'integer'), opt('height', 'Pixels.', 'integer'), opt('preset', 'Preset such as linkedin_banner.'),
    ], ['make this fit a LinkedIn banner', 'crop the photo square for Instagram', 'shrink the screenshot to 1200 wide']),
    tool('upscale_image', 'Increase resolution.', 'Upscales a picture 2x or 4x with detail enhancement.', [
      req('image', 'Picture.'), oneOf('factor', 'Scale.', ['2x', '4x']),
    ], ['this logo is too blurry for print, make it sharper', 'bigger version of the product photo', 'enhance the low-res screenshot']),
  ]),
  plugin('icon-finder', 'Icon Finder', 'Licensed icon search and download.', [
    tool('search', 'Find icons.', 'Searches licensed icon sets by concept and style.', [
      QUERY, oneOf('style', 'Style.', ['outline', 'filled', 'duotone']), LIMIT,
    ], ['a shield glyph for the security section', 'outline symbols for upload and download', 'something that says "webhook"']),
    tool('download_icon', 'Save an icon to the project.', 'Downloads an icon as SVG with our stroke width and color tokens applied.', [
      req('icon_id', 'Icon.'), opt('color_token', 'Design token for color.'), opt('size', 'Pixels.', 'integer'),
    ], ['grab that shield glyph in brand blue', 'put the upload symbol in our assets at 24px', 'save the chosen glyph as SVG']),
  ]),
  plugin('a11y-checker', 'Accessibility Checker', 'WCAG checks for pages and designs.', [
    tool('audit_contrast', 'Check color contrast.', 'Checks text and UI contrast ratios against WCAG AA/AAA for a page or design.', [
      req('target', 'URL or design link.'), oneOf('level', 'Conformance level.', ['AA', 'AAA']),
    ], ['is the grey text on the pricing site readable enough', 'WCAG ratio check on the new buttons', 'will low-vision users be able to read this banner']),
    tool('check_alt_text', 'Find images without descriptions.', 'Lists images lacking meaningful alternative text and proposes descriptions.', [
      req('url', 'Page.'),
    ], ['which pictures on the homepage have no descriptions for screen readers', 'write descriptions for the blog images', 'screen reader pass on the docs site']),
    tool('export_report', 'Download the accessibility audit.', 'Exports WCAG findings with severity and affected elements.', [
      req('target', 'URL or design link.'), FORMAT,
    ], ['PDF of the WCAG findings for the VPAT', 'CSV of issues for the frontend backlog', 'give legal the conformance audit']),
    tool('keyboard_check', 'Test keyboard navigation.', 'Tabs through a page and reports focus traps, missing focus styles and unreachable controls.', [
      req('url', 'Page.'),
    ], ['can you use the checkout without a mouse', 'focus order problems on the signup form', 'are there traps in the modal']),
  ]),
  plugin('deck-maker', 'Deck Maker', 'Slide decks from outlines and documents.', [
    tool('create_deck', 'Build a slide deck.', 'Generates slides in the company template from an outline or document.', [
      req('source', 'Outline, doc or notes.'), opt('slide_count', 'Target slides.', 'integer'), opt('template', 'Template.'),
    ], ['turn the Q3 plan doc into 10 slides', 'presentation for the customer kickoff', 'make a board pack from these bullets']),
    tool('outline_deck', 'Propose a storyline.', 'Drafts a slide-by-slide storyline with headline messages.', [
      req('goal', 'What the presentation must achieve.'), req('audience', 'Who it is for.'),
    ], ['how should I structure the pitch to the CFO', 'storyline for the all-hands on reorg', 'what goes on each slide for the QBR']),
    tool('summarize', 'Condense a slide deck.', 'Summarizes a presentation into its key messages and numbers.', [
      req('deck', 'Presentation file.'), LENGTH,
    ], ['what is the board presentation saying in five bullets', 'gist of the vendor pitch slides', 'key numbers from the all-hands pack']),
  ]),
  plugin('brand-assets', 'Brand Assets', 'Approved logos, photos and templates.', [
    tool('search', 'Find approved assets.', 'Finds logos, photography, templates and fonts in the brand library.', [
      QUERY, oneOf('asset_type', 'Type.', ['logo', 'photo', 'template', 'font', 'video']), LIMIT,
    ], ['the dark-mode logo', 'team photos from the offsite we are allowed to use', 'the official slide template']),
    tool('share_asset', 'Send an asset to someone outside.', 'Creates an expiring link to an approved asset for a partner or press contact.', [
      req('asset_id', 'Asset.'), req('email', 'Recipient.'), opt('expires_in_days', 'Link lifetime.', 'integer'),
    ], ['send the press kit to the TechCrunch reporter', 'give our partner the logo pack', 'let the agency download the product shots']),
  ]),
  plugin('video-editor', 'Video Editor', 'Quick edits, captions and transcripts for videos.', [
    tool('trim_clip', 'Cut a video.', 'Trims a video to a start and end time and exports it.', [
      req('video', 'File or link.'), req('start', 'Start timestamp.'), req('end', 'End timestamp.'),
    ], ['cut the demo recording to minutes 3 through 7', 'keep just the customer quote from the interview', 'shorten the webinar replay for social']),
    tool('add_captions', 'Burn in subtitles.', 'Generates subtitles and burns them in or exports an SRT.', [
      req('video', 'File or link.'), opt('language', 'Language.'), opt('burn_in', 'Render into the picture.', 'boolean'),
    ], ['subtitles on the launch film', 'SRT file for the webinar replay', 'make the LinkedIn teaser watchable on mute']),
    tool('transcribe', 'Get the text of a recording.', 'Produces a speaker-labelled transcript of a video or audio file.', [
      req('media', 'File or link.'), opt('speakers', 'Expected number of speakers.', 'integer'),
    ], ['what was said in the customer interview video', 'text of the podcast episode', 'written version of the all-hands recording']),
    tool('summarize', 'Digest a video.', 'Summarizes a video into chapters with timestamps.', [
      req('video', 'File or link.'),
    ], ['chapters for the webinar replay', 'what happens in this 40-minute demo recording', 'gist of the customer interview footage']),
  ]),

  // ── Data ─────────────────────────────────────────────────────────────────────────────────
  plugin('notebook-runner', 'Notebook Runner', 'Run and schedule Jupyter and Databricks notebooks.', [
    tool('run_notebook', 'Execute a notebook with parameters.', 'Runs a notebook top to bottom with parameters and returns outputs and errors.', [
      req('path', 'Notebook.'), opt('parameters', 'Parameter values.', 'object'), opt('cluster', 'Compute to use.'),
    ], ['rerun the churn analysis with March data', 'execute the cohort workbook for the EU segment', 'refresh the pricing study']),
    tool('schedule_notebook', 'Run a notebook on a schedule.', 'Schedules a notebook with a cron expression and alerting on failure.', [
      req('path', 'Notebook.'), req('cron', 'Cron expression.'), opt('alert_email', 'Who to notify on failure.'),
    ], ['have the churn analysis refresh every Monday 6am', 'nightly execution of the KPI workbook', 'automate the weekly cohort refresh']),
    tool('convert_to_job', 'Productionize a notebook.', 'Turns a notebook into a parameterized pipeline job with tests and a repo PR.', [
      req('path', 'Notebook.'), req('repo', 'Target repo.'),
    ], ['make the prototype analysis a real pipeline', 'move this exploratory workbook into production', 'turn the scratch code into a scheduled ETL']),
  ]),
  plugin('csv-tools', 'CSV Tools', 'Clean, merge and profile spreadsheets and CSVs.', [
    tool('clean_csv', 'Tidy a messy spreadsheet.', 'Normalizes headers, trims whitespace, fixes dates and encodings and removes duplicate rows.', [
      req('file', 'CSV or XLSX.'), opt('date_format', 'Target date format.'), opt('dedupe_on', 'Columns that identify a row.', 'array'),
    ], ['fix the dates and duplicates in this export', 'tidy up the attendee sheet from the event', 'this spreadsheet has weird encoding, sort it out']),
    tool('merge_csv', 'Join two tables.', 'Joins two files on key columns with a chosen join type.', [
      req('left', 'First file.'), req('right', 'Second file.'), req('on', 'Key columns.', 'array'), oneOf('how', 'Join type.', ['inner', 'left', 'outer']),
    ], ['combine the leads sheet with the CRM dump on email', 'match these two vendor lists by tax ID', 'vlookup the region into the orders file']),
    tool('profile_dataset', 'Describe a dataset.', 'Returns column types, null rates, distinct counts and outliers.', [
      req('file', 'CSV, XLSX or table.'),
    ], ['what is in this file and how clean is it', 'null rates and weird values in the orders extract', 'quick stats on every column']),
    tool('convert_format', 'Change file type.', 'Converts between CSV, XLSX, JSON and Parquet.', [
      req('file', 'Source.'), oneOf('to', 'Target type.', ['csv', 'xlsx', 'json', 'parquet'], true),
    ], ['turn this xlsx into JSON', 'parquet version of the export please', 'I need the spreadsheet as plain comma-separated']),
  ]),
  plugin('chart-maker', 'Chart Maker', 'Charts from data or questions.', [
    tool('create_chart', 'Plot data.', 'Creates a bar, line, scatter or pie visualization from data or a query.', [
      req('data', 'File, table or query.'), oneOf('chart_type', 'Kind.', ['bar', 'line', 'scatter', 'pie', 'area'], true), opt('x', 'X column.'), opt('y', 'Y column.'), opt('title', 'Title.'),
    ], ['line graph of weekly signups this year', 'bar plot of revenue by region', 'visualize churn vs tenure']),
    tool('export_chart', 'Save a visualization as an image.', 'Renders a visualization to PNG or SVG at a size for slides or docs.', [
      req('chart_id', 'Visualization.'), oneOf('image_format', 'Type.', ['png', 'svg']), opt('width', 'Pixels.', 'integer'),
    ], ['PNG of the signup graph for the deck', 'SVG of the revenue plot for the blog', 'picture of that visual at slide size']),
    tool('suggest_chart', 'Recommend a visualization.', 'Suggests the best visualization type and encodings for a dataset and question.', [
      req('data', 'File, table or query.'), opt('question', 'What the viewer should learn.'),
    ], ['how should I visualize retention by cohort', 'best way to show revenue mix', 'what graph fits this funnel data']),
  ]),
  plugin('sql-reports', 'SQL Reports', 'Saved queries, scheduled deliveries and exports from the warehouse.', [
    tool('run_saved_query', 'Execute a saved warehouse query.', 'Runs a saved query with parameters and returns the first rows.', [
      req('query_name', 'Saved query.'), opt('parameters', 'Parameter values.', 'object'), LIMIT,
    ], ['refresh the weekly active users numbers', 'execute the churn-by-plan SQL for EMEA', 'give me today\'s results of the revenue-by-country statement']),
    tool('export_report', 'Download query results.', 'Runs a saved query and exports all rows to a file or sends it by email.', [
      req('query_name', 'Saved query.'), FORMAT, RECIPIENTS,
    ], ['email finance the bookings data as xlsx', 'CSV of all enterprise accounts with usage', 'full dump of the churn SQL results']),
    tool('schedule_delivery', 'Send results on a schedule.', 'Schedules a saved query\'s results to be emailed or posted to Slack.', [
      req('query_name', 'Saved query.'), req('cron', 'Cron expression.'), RECIPIENTS,
    ], ['send the WAU numbers to #growth every Monday', 'email the CFO the bookings table daily', 'weekly drop of the churn numbers to the CS leads']),
  ]),
  plugin('data-catalog', 'Data Catalog', 'Find, understand and trust warehouse tables.', [
    tool('search', 'Find datasets.', 'Finds tables, columns and dashboards by meaning, tag or owner.', [
      QUERY, opt('domain', 'Data domain.'), LIMIT,
    ], ['which table has subscription MRR', 'where do we store marketing touchpoints', 'is there a curated orders dataset']),
    tool('describe_table', 'Explain a table.', 'Returns the description, columns, owner, freshness and popular queries of a table.', [
      req('table', 'Fully qualified name.'),
    ], ['what is in analytics.fct_orders', 'who owns dim_customers and is it fresh', 'meaning of the columns in the revenue model']),
    tool('lineage', 'Trace upstream and downstream.', 'Shows sources feeding a table and dashboards that depend on it.', [
      req('table', 'Fully qualified name.'), oneOf('direction', 'Which way.', ['upstream', 'downstream', 'both']),
    ], ['what breaks if I drop this column', 'where does the MRR number come from', 'which dashboards read from fct_orders']),
    tool('request_access', 'Ask for access to a dataset.', 'Requests read access to a table or schema from its owner with a justification.', [
      req('table', 'Table or schema.'), req('justification', 'Why.'),
    ], ['I need to query the finance marts', 'get me read on raw_stripe', 'ask the owner if I can use the HR tables']),
  ]),
  plugin('data-quality', 'Data Quality', 'Checks and alerts on warehouse data.', [
    tool('run_checks', 'Validate a table.', 'Runs freshness, volume, null and uniqueness checks on a table and reports failures.', [
      req('table', 'Fully qualified name.'), opt('checks', 'Specific checks.', 'array'),
    ], ['is yesterday\'s orders data complete', 'are there duplicate customer ids in dim_customers', 'sanity test the revenue model before the board meeting']),
    tool('profile_dataset', 'Profile a table\'s columns.', 'Computes distributions and anomalies per column compared with the last 30 days.', [
      req('table', 'Fully qualified name.'),
    ], ['did anything weird happen to the events table', 'distribution drift in the signup data', 'column stats for fct_payments']),
    tool('alert_owner', 'Notify a table owner.', 'Sends the owner of a table an issue description and opens a ticket.', [
      req('table', 'Fully qualified name.'), req('issue', 'What is wrong.'),
    ], ['tell whoever owns fct_orders that yesterday is missing', 'let the data team know about the dupes', 'ping whoever maintains the revenue model']),
  ]),
  plugin('ml-experiments', 'ML Experiments', 'Experiment tracking, registry and deployment for models.', [
    tool('compare_runs', 'Compare training runs.', 'Compares metrics, parameters and artifacts across experiment runs.', [
      req('run_ids', 'Runs.', 'array'), opt('metrics', 'Metrics to show.', 'array'),
    ], ['which churn model did best on AUC', 'hyperparameters of the top three trials', 'did the new features help the ranking model']),
    tool('register_model', 'Promote a model to the registry.', 'Registers a run\'s artifact as a new model version with stage and notes.', [
      req('run_id', 'Run.'), req('name', 'Registry name.'), oneOf('stage', 'Stage.', ['staging', 'production', 'archived']),
    ], ['save the best churn predictor as v7', 'promote that trial to staging', 'archive the old ranking version']),
    tool('deploy_model', 'Serve a model behind an endpoint.', 'Deploys a model version to a serving endpoint with traffic split.', [
      req('name', 'Registry name.'), req('version', 'Version.'), opt('traffic_pct', 'Share of traffic.', 'integer'),
    ], ['put churn v7 live at 10% traffic', 'serve the new ranker in staging', 'roll the fraud scorer to everyone']),
  ]),
  plugin('spreadsheet-ai', 'Spreadsheet AI', 'Formulas, pivots and explanations inside spreadsheets.', [
    tool('fill_formula', 'Write a spreadsheet formula.', 'Writes a formula for a described calculation and fills it down a column.', [
      req('sheet', 'Spreadsheet and tab.'), req('description', 'What to calculate.'), req('target_column', 'Column to fill.'),
    ], ['compute days between order and ship date in column F', 'XLOOKUP the region from the other tab', 'running total of revenue next to each month']),
    tool('pivot', 'Build a pivot table.', 'Creates a pivot table with rows, columns, values and aggregation.', [
      req('sheet', 'Spreadsheet and tab.'), req('rows', 'Row fields.', 'array'), req('values', 'Value fields.', 'array'), oneOf('aggregation', 'Function.', ['sum', 'count', 'average', 'max', 'min']),
    ], ['revenue by region and month, crosstab style', 'count of deals per rep per stage', 'average ticket time by team']),
    tool('summarize', 'Explain what a sheet shows.', 'Describes the contents, trends and outliers of a sheet in plain language.', [
      req('sheet', 'Spreadsheet and tab.'),
    ], ['what does this budget tab tell us', 'key takeaways from the survey results sheet', 'anything odd in the forecast tab']),
    tool('clean_data', 'Tidy a sheet.', 'Fixes types, trims spaces, splits columns and removes duplicates in a sheet.', [
      req('sheet', 'Spreadsheet and tab.'), opt('operations', 'Specific fixes.', 'array'),
    ], ['split the full-name column into first and last', 'the dates in column C are text, fix them', 'get rid of repeated rows in the leads tab']),
  ]),
  plugin('dbt-helper', 'dbt Helper', 'Model explanations, docs and runs for dbt projects.', [
    tool('explain_model', 'Explain a dbt model.', 'Explains a dbt model\'s logic, grain, upstream sources and tests.', [
      req('model', 'Model name.'),
    ], ['what does fct_revenue actually compute', 'grain of the customers mart', 'how is active user defined in our transforms']),
    tool('generate_docs', 'Write model documentation.', 'Generates YAML descriptions for models and columns from SQL and lineage.', [
      req('models', 'Models.', 'array'),
    ], ['add descriptions to the finance marts', 'document every column in stg_stripe', 'fill the empty YAML for the new models']),
    tool('build_models', 'Run and test selected models.', 'Runs dbt build for a selection and reports failures.', [
      req('select', 'dbt selector.'), opt('full_refresh', 'Rebuild incrementals from scratch.', 'boolean'),
    ], ['recompute fct_orders and everything downstream', 'full refresh of the sessions table', 'run the finance folder with its checks']),
  ]),
  plugin('metrics-layer', 'Metrics Layer', 'Governed business metric definitions.', [
    tool('get_metric', 'Fetch a governed metric.', 'Returns values for a defined metric with dimensions and time grain.', [
      req('metric', 'Metric name.'), opt('dimensions', 'Group-by dimensions.', 'array'), oneOf('grain', 'Time grain.', ['day', 'week', 'month', 'quarter']), PERIOD,
    ], ['official ARR by month this year', 'net revenue retention by segment', 'weekly active teams since January']),
    tool('define_metric', 'Add a governed definition.', 'Proposes a new metric definition with SQL, owner and description for review.', [
      req('name', 'Name.'), req('expression', 'Calculation.'), req('owner', 'Owner.'),
    ], ['make "activated account" an official number', 'add a canonical gross margin calculation', 'register what we mean by churned logo']),
    tool('search', 'Find a metric definition.', 'Finds governed metrics by name, synonym or description.', [
      QUERY, LIMIT,
    ], ['do we have an official number for activation', 'which definition of churn is canonical', 'is there a governed NRR']),
  ]),
  plugin('survey-analysis', 'Survey Analysis', 'Coding and summarizing open-ended survey answers.', [
    tool('code_open_answers', 'Tag free-text answers with themes.', 'Applies a codebook (or derives one) to open-ended answers and counts themes.', [
      req('responses', 'Answers file or survey id.'), opt('codebook', 'Existing codebook.'),
    ], ['bucket the 2,000 comments from the user study', 'what themes are in the "why did you cancel" field', 'categorize the feature-request responses']),
    tool('summarize', 'Digest survey findings.', 'Writes a findings memo with key stats, themes and quotes.', [
      req('survey_id', 'Survey.'), LENGTH,
    ], ['one-pager on what the user research found', 'headline results of the pricing study', 'key quotes and numbers from the customer poll']),
    tool('crosstab', 'Break answers down by group.', 'Cross-tabulates closed answers by respondent attributes with significance markers.', [
      req('survey_id', 'Survey.'), req('question', 'Question id.'), req('by', 'Attribute to split by.'),
    ], ['do enterprise customers answer differently from SMB', 'split satisfaction by region', 'NPS by plan tier']),
  ]),
  plugin('forecast-lab', 'Forecast Lab', 'Time-series forecasting and anomaly detection.', [
    tool('forecast_series', 'Predict a time series.', 'Fits a forecasting model to a series and returns predictions with intervals.', [
      req('series', 'Table, query or file.'), req('horizon', 'Periods ahead.', 'integer'), oneOf('model', 'Method.', ['auto', 'prophet', 'arima', 'ets']),
    ], ['project signups for the next 12 weeks', 'how many support tickets should we expect in December', 'predict warehouse load for Black Friday']),
    tool('detect_anomalies', 'Find unusual points.', 'Flags anomalous points in a series with expected ranges.', [
      req('series', 'Table, query or file.'), opt('sensitivity', 'Between 0 and 1.', 'number'),
    ], ['anything odd in daily revenue lately', 'spikes in the error counts', 'which days did traffic look abnormal']),
    tool('backtest', 'Check forecast accuracy.', 'Backtests a forecasting model over past periods and reports MAPE and bias.', [
      req('series', 'Table, query or file.'), opt('folds', 'Number of backtest windows.', 'integer'),
    ], ['how accurate would the model have been last year', 'error rate of our signup predictions', 'does the projection method over- or under-shoot']),
  ]),
  // ── Security ─────────────────────────────────────────────────────────────────────────────
  plugin('vuln-triage', 'Vuln Triage', 'Prioritizes vulnerabilities by exploitability and exposure and turns them into tickets.', [
    tool('prioritize_vulns', 'Rank vulnerabilities by real risk.', 'Ranks open vulnerabilities using CVSS, EPSS, known exploitation and internet exposure.', [
      opt('asset_filter', 'Which assets to include.'), LIMIT,
    ], ['which CVEs should we actually fix first', 'what is exploitable and internet-facing', 'top ten security holes this week']),
    tool('create_fix_ticket', 'Open remediation work.', 'Creates a ticket for the owning team with affected assets, fix version and deadline by severity.', [
      req('vulnerability_id', 'CVE or finding id.'), opt('team', 'Owning team; inferred when empty.'), opt('due_date', 'Deadline.'),
    ], ['get the platform team to patch log4shell on the search hosts', 'file work for the openssl CVE', 'assign the critical nginx issue with a 7-day deadline']),
    tool('explain_cve', 'Explain a CVE in plain words.', 'Explains what a CVE allows, prerequisites, whether we are affected and mitigations.', [
      req('cve_id', 'CVE identifier.'),
    ], ['what does 2024-3094 let an attacker do', 'are we exposed to the xz backdoor', 'how bad is the new Chrome zero-day for us']),
    tool('export_report', 'Download the vulnerability backlog.', 'Exports open vulnerabilities with age, SLA status and owner.', [
      opt('min_severity', 'Lowest severity.'), FORMAT,
    ], ['xlsx of overdue criticals for the CISO', 'CSV of open CVEs by team', 'PDF of patch SLA status for the audit']),
  ]),
  plugin('access-reviewer', 'Access Reviewer', 'Quarterly access reviews and least-privilege cleanups.', [
    tool('list_access', 'Show who can get into what.', 'Lists users with access to an application or the applications a user can reach, with last login.', [
      opt('application', 'App.'), opt('user', 'Person.'),
    ], ['who has admin in the production AWS', 'what apps can the contractor log into', 'people with Salesforce who never use it']),
    tool('revoke_access', 'Remove a grant.', 'Removes a user\'s role or app assignment and records the justification.', [
      req('user', 'Person.'), req('application', 'App.'), opt('role', 'Specific role.'), req('justification', 'Why.'),
    ], ['take Snowflake admin away from Tom', 'kick the intern out of the prod console', 'drop unused Figma seats']),
    tool('start_review', 'Launch an access certification.', 'Starts a review campaign asking managers to confirm or remove their reports\' access.', [
      req('applications', 'Apps in scope.', 'array'), req('due_date', 'Deadline.'),
    ], ['kick off the quarterly recert for finance systems', 'have managers confirm who needs GitHub admin', 'SOX user attestation for NetSuite']),
    tool('export_report', 'Download review evidence.', 'Exports decisions, approvers and timestamps of a review campaign for auditors.', [
      req('campaign_id', 'Campaign.'), FORMAT,
    ], ['evidence pack of the Q2 recert for the auditors', 'CSV of who approved which grants', 'PDF of the SOX attestation results']),
  ]),
  plugin('phish-analyzer', 'Phish Analyzer', 'Inspects suspicious emails reported by employees.', [
    tool('analyze_email', 'Check if an email is malicious.', 'Analyzes headers, links and attachments of a reported email and returns a verdict.', [
      req('message', 'Raw email or message id.'),
    ], ['is this "invoice overdue" mail legit', 'someone got a weird DocuSign link, check it', 'verdict on the message pretending to be the CEO']),
    tool('report_phish', 'Block and purge a phishing campaign.', 'Blocks sender and URLs and removes copies of the email from all mailboxes.', [
      req('message', 'Raw email or message id.'), opt('notify_recipients', 'Warn people who received it.', 'boolean'),
    ], ['pull that fake payroll mail from everyone\'s inbox', 'block the sender pretending to be IT', 'purge the credential-harvesting campaign']),
    tool('search', 'Find who received a message.', 'Finds deliveries of messages matching sender, subject or URL across mailboxes.', [
      QUERY, PERIOD, LIMIT,
    ], ['who else got the fake DocuSign', 'did anyone click the bit.ly link from that sender', 'how widespread is the gift-card scam']),
  ]),
  plugin('secrets-scanner', 'Secrets Scanner', 'Finds and rotates leaked credentials.', [
    tool('scan_repo', 'Look for committed credentials.', 'Scans a repository\'s history for API keys, tokens and private keys.', [
      req('repo', 'owner/name.'), opt('include_history', 'Scan all commits.', 'boolean'),
    ], ['did anyone commit AWS keys to the payments codebase', 'check the big shared codebase for tokens in history', 'leaked passwords in the infra project']),
    tool('rotate_secret', 'Replace a leaked credential.', 'Rotates a credential in the secret manager and updates dependent services.', [
      req('secret_name', 'Secret.'), opt('revoke_old', 'Revoke the old value immediately.', 'boolean'),
    ], ['the Stripe key leaked, swap it now', 'issue a new database password for the API', 'cycle the GitHub token that was posted in Slack']),
    tool('verify_leak', 'Check if an exposed credential is live.', 'Tests whether a found credential is still valid and what it can access.', [
      req('finding_id', 'Finding.'),
    ], ['is that key in the public gist still working', 'what could someone do with the exposed token', 'does the exposed password still get in']),
    tool('export_report', 'Download exposed credentials.', 'Exports findings with status, owner and rotation state.', [
      opt('repo', 'owner/name.'), FORMAT,
    ], ['CSV of leaked keys still not rotated', 'xlsx of exposures for the security review', 'list of committed tokens by team']),
  ]),
  plugin('threat-intel', 'Threat Intel', 'IOC lookups and enrichment.', [
    tool('lookup_ioc', 'Check an indicator.', 'Looks up an IP, domain, URL or hash across threat feeds and returns reputation and context.', [
      req('indicator', 'IP, domain, URL or hash.'),
    ], ['is 185.220.101.4 known bad', 'reputation of this sketchy domain', 'has anyone seen this file hash before']),
    tool('search', 'Find threat reports.', 'Searches threat reports and advisories by actor, malware or technique.', [
      QUERY, PERIOD, LIMIT,
    ], ['latest on Scattered Spider tactics', 'campaigns targeting SaaS admins this month', 'MITRE T1566 writeups']),
    tool('enrich_ip', 'Add context to an address.', 'Returns geolocation, ASN, hosting provider and open ports for an IP.', [
      req('ip', 'Address.'),
    ], ['where is this login coming from', 'whose network is 45.83.64.1', 'is this a VPN or residential address']),
  ]),
  plugin('soc-assistant', 'SOC Assistant', 'Alert triage and response for the security operations center.', [
    tool('triage_alert', 'Assess a security alert.', 'Gathers context for an alert (user, host, process tree, related alerts) and recommends a disposition.', [
      req('alert_id', 'Alert.'),
    ], ['is this impossible-travel thing a real attack', 'look into the EDR hit on Tom\'s laptop', 'false positive or not: the mass download warning']),
    tool('contain_host', 'Isolate a machine.', 'Network-isolates an endpoint through the EDR, keeping the management channel.', [
      req('host', 'Hostname or id.'), req('reason', 'Why.'),
    ], ['cut Tom\'s laptop off the network', 'quarantine the infected build server', 'isolate the box beaconing to that C2']),
    tool('summarize', 'Digest an investigation.', 'Summarizes an investigation\'s findings, scope and actions for the incident record.', [
      req('case_id', 'Case.'), LENGTH,
    ], ['write up what we found on the compromised account', 'recap the phishing investigation for the CISO', 'where are we with case 4410']),
    tool('hunt', 'Run a threat hunt query.', 'Runs a hunting query across EDR and log data for a technique or indicator.', [
      QUERY, PERIOD,
    ], ['any powershell downloading from pastebin this month', 'look across endpoints for that hash', 'signs of lateral movement from the build server']),
  ]),
  plugin('policy-writer', 'Policy Writer', 'Security policies and control mappings.', [
    tool('draft_policy', 'Write a security policy.', 'Drafts a policy from a template aligned to a framework, tailored to company size and stack.', [
      req('topic', 'Policy topic.'), oneOf('framework', 'Framework.', ['soc2', 'iso27001', 'nist_csf', 'hipaa']),
    ], ['we need an acceptable use document for AI tools', 'write our incident response rules for SOC 2', 'vendor management standard for ISO']),
    tool('map_controls', 'Map controls across frameworks.', 'Maps our controls to requirements of one or more frameworks and shows gaps.', [
      req('frameworks', 'Frameworks.', 'array'),
    ], ['what do we still lack for ISO 27001 if we have SOC 2', 'crosswalk our requirements to NIST', 'gaps for HIPAA']),
    tool('review_policy', 'Critique an existing policy.', 'Reviews a policy for gaps, outdated references and conflicts with other policies.', [
      req('document', 'Policy document.'), opt('framework', 'Framework to check against.'),
    ], ['is our password standard still sensible', 'gaps in the data retention document', 'does the BYOD rule conflict with the MDM one']),
  ]),
  plugin('vendor-risk', 'Vendor Risk', 'Third-party security assessments.', [
    tool('assess_vendor', 'Evaluate a supplier\'s security.', 'Reviews a vendor\'s SOC 2 report, questionnaire and public posture and scores risk.', [
      req('vendor', 'Vendor.'), opt('documents', 'Reports provided.', 'array'), oneOf('data_access', 'Data they will touch.', ['none', 'internal', 'confidential', 'customer_pii']),
    ], ['is it safe to give this AI startup our customer data', 'review the SOC 2 from the new payroll provider', 'how risky is Acme Analytics as a processor']),
    tool('send_questionnaire', 'Ask a vendor for security answers.', 'Sends a security questionnaire (SIG Lite, CAIQ or custom) with a deadline.', [
      req('vendor', 'Vendor.'), req('contact_email', 'Vendor contact.'), oneOf('template', 'Template.', ['sig_lite', 'caiq', 'custom']),
    ], ['get the security survey over to the new CRM supplier', 'CAIQ to the hosting provider', 'ask the agency about their security practices']),
    tool('export_report', 'Download third-party risk.', 'Exports vendors with tier, risk score and review dates.', [
      FORMAT,
    ], ['xlsx of high-risk suppliers for the board', 'CSV of overdue supplier reviews', 'third-party register PDF for auditors']),
  ]),

  // ── Productivity and IT ──────────────────────────────────────────────────────────────────
  plugin('meeting-notes', 'Meeting Notes', 'Transcripts, notes and follow-ups for any meeting.', [
    tool('transcribe', 'Turn a recording into text.', 'Transcribes a meeting recording with speaker labels and timestamps.', [
      req('recording', 'File or link.'), opt('language', 'Spoken language.'),
    ], ['written version of the design review recording', 'what exactly did the customer say at 14:30 in the call', 'text of yesterday\'s all-hands']),
    tool('summarize', 'Notes from a meeting.', 'Summarizes a meeting into decisions, discussion points and open questions.', [
      req('recording_or_transcript', 'Recording or transcript.'), LENGTH,
    ], ['what did I miss in the planning sync', 'notes from the 1:1 with my manager', 'recap of the architecture review']),
    tool('extract_action_items', 'List follow-ups.', 'Extracts follow-ups with owners and due dates and can push them to the tracker.', [
      req('recording_or_transcript', 'Recording or transcript.'), opt('push_to', 'Tracker to create them in.'),
    ], ['who agreed to do what in the retro', 'to-dos from the kickoff into Jira', 'follow-ups I own from today\'s standup']),
    tool('search', 'Find things said in past meetings.', 'Searches transcripts and notes of past meetings.', [
      QUERY, PERIOD, LIMIT,
    ], ['when did we decide to drop IE support', 'what did the CFO say about hiring in the last staff meeting', 'mentions of the migration in standups']),
  ]),
  plugin('calendar-assistant', 'Calendar Assistant', 'Finds time, books and declines meetings.', [
    tool('find_time', 'Find a slot for several people.', 'Finds common free slots for attendees across time zones within working hours.', [
      req('attendees', 'People.', 'array'), req('duration_minutes', 'Length.', 'integer'), opt('within_days', 'Search window.', 'integer'),
    ], ['when can Sarah, Tom and I all meet this week', 'an hour that works for London and SF', 'first open 30 minutes with the CFO']),
    tool('schedule_meeting', 'Book a meeting.', 'Creates an event with attendees, agenda, video link and room.', [
      req('title', 'Title.'), req('attendees', 'People.', 'array'), req('start', 'Start time.'), opt('duration_minutes', 'Length.', 'integer'), opt('room', 'Room.'),
    ], ['set up a 30-minute sync with Priya tomorrow at 10', 'put the design review on everyone\'s calendar for Thursday', 'book a room and a Zoom for the offsite prep']),
    tool('decline_meeting', 'Say no to an invite.', 'Declines an event with an optional note and proposed new time.', [
      req('event_id', 'Event.'), opt('note', 'Message to the organizer.'), opt('propose_time', 'Alternative time.'),
    ], ['skip the 4pm, I am heads-down', 'tell the organizer I cannot make Friday and suggest Monday', 'bow out of the optional all-hands rehearsal']),
    tool('focus_blocks', 'Protect focus time.', 'Adds recurring no-meeting blocks to the calendar.', [
      req('days', 'Weekdays.', 'array'), req('start', 'Start time.'), req('end', 'End time.'),
    ], ['keep my mornings free for deep work', 'reserve Tuesday and Thursday afternoons for coding', 'hold heads-down time every day 9 to 11']),
  ]),
  plugin('it-helpdesk', 'IT Helpdesk', 'Self-service IT: passwords, software and device issues.', [
    tool('reset_password', 'Reset a login.', 'Resets the SSO password or MFA enrollment for the requester after verification.', [
      req('user', 'Person.'), oneOf('what', 'Credential type.', ['password', 'mfa', 'both'], true),
    ], ['I am locked out of Okta', 'my authenticator app is on my old phone', 'forgot my laptop login']),
    tool('request_software', 'Ask for an app or licence.', 'Requests installation or a licence for an application, routed for approval if needed.', [
      req('application', 'App.'), opt('justification', 'Why.'),
    ], ['I need Adobe Illustrator', 'can I get a Tableau seat', 'install Docker Desktop on my machine']),
    tool('search', 'Find IT how-to guides.', 'Searches IT knowledge articles.', [
      QUERY, LIMIT,
    ], ['how do I connect to the office VPN', 'setting up the printer on the 4th floor', 'guide for enrolling a new phone']),
    tool('report_device_issue', 'Log a hardware problem.', 'Opens a hardware ticket with device details pulled from MDM.', [
      req('description', 'What is wrong.'), opt('device', 'Device; inferred when empty.'),
    ], ['my laptop battery dies in an hour', 'the screen flickers on my MacBook', 'keyboard stopped working after the update']),
  ]),
  plugin('travel-booker', 'Travel Booker', 'Policy-compliant business travel.', [
    tool('search_flights', 'Look for flights.', 'Searches flights within travel policy for route, dates and cabin.', [
      req('origin', 'From.'), req('destination', 'To.'), req('depart_date', 'Departure.'), opt('return_date', 'Return.'), oneOf('cabin', 'Cabin.', ['economy', 'premium_economy', 'business']),
    ], ['cheapest way to get to Berlin next Tuesday', 'options SFO to JFK for the offsite', 'morning departures to London on the 12th']),
    tool('book_hotel', 'Reserve a hotel.', 'Books a hotel within the city rate cap near an address.', [
      req('city', 'City.'), req('check_in', 'Arrival date.'), req('check_out', 'Departure date.'), opt('near', 'Address to be close to.'),
    ], ['somewhere to stay near the Berlin office for 3 nights', 'a room in London for the conference', 'accommodation close to the customer site']),
    tool('trip_itinerary', 'Show an upcoming trip.', 'Returns bookings, confirmation numbers and policy status for a trip.', [
      opt('trip_id', 'Trip; next one when empty.'),
    ], ['what time is my flight on Monday', 'confirmation number for the Berlin stay', 'details of next week\'s journey']),
    tool('cancel_booking', 'Cancel a trip segment.', 'Cancels a flight or hotel booking and reports refund or credit.', [
      req('booking_id', 'Booking.'),
    ], ['the Berlin meeting moved, scrap the hotel', 'drop my Thursday flight', 'undo the London reservation']),
  ]),
  plugin('doc-translator', 'Doc Translator', 'Translates whole documents keeping layout.', [
    tool('translate', 'Convert a document to another language.', 'Translates a DOCX, PDF or slide deck preserving formatting and glossary terms.', [
      req('document', 'File.'), req('target_language', 'Language code.'),
    ], ['put the contract into French', 'Japanese version of the onboarding deck', 'Spanish copy of the user manual']),
    tool('summarize', 'Gist of a foreign-language file.', 'Summarizes a document in another language directly in English.', [
      req('document', 'File.'), LENGTH,
    ], ['what does this German tender say', 'key points of the Japanese partner proposal in English', 'rundown of the Portuguese regulation PDF']),
    tool('detect_language', 'Identify a file\'s tongue.', 'Detects which language a file is written in, per section if mixed.', [
      req('document', 'File.'),
    ], ['is this PDF in Dutch or Flemish', 'which locale is the supplier form written in', 'what tongue is that scanned letter']),
  ]),
  plugin('inbox-assistant', 'Inbox Assistant', 'Email triage and drafting for busy people.', [
    tool('triage_inbox', 'Sort unread email.', 'Classifies unread email into needs-reply, FYI, newsletters and can-ignore, with one-line digests.', [
      opt('since', 'Only mail newer than this.'), LIMIT,
    ], ['what in my mail actually needs me', 'go through my unread and tell me what matters', 'clear the junk from this morning\'s messages']),
    tool('draft_reply', 'Write an email answer.', 'Drafts a reply to a message in the user\'s voice.', [
      req('message_id', 'Email.'), req('intent', 'What the answer should say.'), TONE,
    ], ['tell the vendor we need another week', 'politely say no to the conference invite', 'answer Tom saying Thursday works']),
    tool('summarize', 'Digest an email thread.', 'Summarizes a long email thread: who wants what and what is pending.', [
      req('thread_id', 'Thread.'),
    ], ['what is this 30-message chain about', 'catch me up on the procurement back-and-forth', 'gist of the legal email thread']),
    tool('unsubscribe', 'Stop newsletters.', 'Unsubscribes from mailing lists matching a sender or category.', [
      req('sender_or_category', 'Sender address or category.'),
    ], ['stop all these webinar promos', 'get me off the vendor marketing lists', 'no more mail from that conference organizer']),
  ]),
  plugin('wiki-assistant', 'Wiki Assistant', 'Answers from Confluence and Notion with citations.', [
    tool('answer_question', 'Answer from internal docs.', 'Answers a question using internal wiki pages and cites them.', [
      req('question', 'Question.'), opt('space', 'Restrict to a space.'),
    ], ['how do we request a new AWS account', 'what is our on-call compensation', 'steps to rotate the signing keys per the runbook']),
    tool('search', 'Find internal pages.', 'Searches wiki pages across Confluence and Notion.', [
      QUERY, opt('space', 'Space.'), LIMIT,
    ], ['the architecture decision record for Kafka', 'onboarding page for the data team', 'where is the holiday calendar doc']),
    tool('find_stale_pages', 'Spot outdated docs.', 'Lists pages not updated for a long time that are still visited, with owners.', [
      opt('space', 'Space.'), opt('min_age_days', 'Age threshold.', 'integer'),
    ], ['which runbooks are probably out of date', 'docs nobody has touched in a year but people still read', 'cleanup candidates in the platform space']),
    tool('create_page', 'Write a new wiki page.', 'Creates a wiki page in a space from markdown or a template.', [
      req('space', 'Space.'), req('title', 'Title.'), req('body', 'Markdown.'), opt('parent', 'Parent page.'),
    ], ['put the new runbook in the SRE space', 'start a doc for the Q3 planning notes in Confluence', 'add an onboarding guide under the data team area']),
  ]),
  plugin('status-reporter', 'Status Reporter', 'Weekly status updates from trackers and repos.', [
    tool('weekly_update', 'Write a team status update.', 'Drafts a weekly update from closed tickets, merged PRs and milestones.', [
      req('team', 'Team.'), opt('highlights', 'Things to emphasize.', 'array'), TONE,
    ], ['write my team\'s Friday note for leadership', 'what did platform ship these last five days, in prose', 'draft the progress email for the exec sync']),
    tool('project_health', 'Assess a project\'s health.', 'Scores a project on scope, schedule and risks from tracker data and recent discussion.', [
      req('project', 'Project.'),
    ], ['is the billing migration on track', 'red/yellow/green for the SSO initiative', 'risks on the data platform rebuild']),
    tool('export_report', 'Download portfolio status.', 'Exports status across projects for a portfolio review.', [
      opt('portfolio', 'Portfolio.'), FORMAT,
    ], ['xlsx of every initiative and its RAG', 'PDF for the quarterly portfolio review', 'CSV of milestones and dates']),
  ]),
  plugin('okr-tracker', 'OKR Tracker', 'Objectives, key results and check-ins.', [
    tool('check_in', 'Update progress on a key result.', 'Records the current value and confidence for a key result with a note.', [
      req('key_result_id', 'KR.'), req('value', 'Current value.', 'number'), oneOf('confidence', 'Confidence.', ['on_track', 'at_risk', 'off_track']), opt('note', 'Comment.'),
    ], ['NPS is at 42 now, log it on my KR', 'we are at 60% of the activation target', 'mark the latency goal as at risk']),
    tool('draft_okrs', 'Propose objectives.', 'Drafts objectives and measurable key results aligned to parent goals.', [
      req('team', 'Team.'), opt('parent_objective', 'Company objective to ladder up to.'),
    ], ['help my team set goals for next quarter', 'measurable targets for support tied to retention', 'what should platform aim for in H2']),
    tool('progress_overview', 'See progress across a team.', 'Shows objectives with key results, progress and confidence for a team or company.', [
      opt('team', 'Team.'), opt('quarter', 'Quarter.'),
    ], ['how is the company doing on its goals', 'which targets are off track in sales', 'engineering goal scorecard this quarter']),
    tool('summarize', 'Digest goal progress.', 'Summarizes progress and risks across objectives for a leadership update.', [
      opt('team', 'Team.'), opt('quarter', 'Quarter.'),
    ], ['how are we doing on goals in a paragraph', 'one-paragraph update for the board on targets', 'what is slipping this quarter']),
  ]),
];
