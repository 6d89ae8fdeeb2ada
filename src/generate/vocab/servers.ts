/**
 * The monster company's 100 MCP servers. The first seven (and their tool counts) come from the
 * seed article; the rest are real-sounding products or internal services of the archetypes in
 * `archetypes.ts`, several per archetype so the same operation exists on many servers.
 */
import type { ServerSpec } from './types.ts';

export const SERVERS: readonly ServerSpec[] = [
  // The seed article's seven, in order, with fixed sizes.
  { name: 'crm', display: 'CRM', archetype: 'crm', aliases: ['the CRM', 'sales system'], description: 'In-house customer relationship management platform: accounts, contacts, leads, deals, quotes and every sales workflow the company runs.', size: 1400 },
  { name: 'aws', display: 'AWS', archetype: 'cloud', aliases: ['Amazon Web Services', 'amazon'], description: 'Amazon Web Services control plane covering compute, storage, networking, IAM, serverless, databases and billing.', size: 1100 },
  { name: 'kubernetes', display: 'Kubernetes', archetype: 'kubernetes', aliases: ['k8s', 'kube', 'kubectl'], description: 'Kubernetes API access for the production and staging clusters: workloads, networking, config, RBAC and storage.', size: 850 },
  { name: 'datadog', display: 'Datadog', archetype: 'observability', aliases: ['DD', 'dd'], description: 'Datadog monitoring: metrics, monitors, dashboards, logs, APM traces, SLOs and synthetics.', size: 600 },
  { name: 'clickup', display: 'ClickUp', archetype: 'project_management', aliases: ['CU'], description: 'ClickUp workspace management — spaces, folders, lists, tasks, docs, goals and time tracking.', size: 300 },
  { name: 'github', display: 'GitHub', archetype: 'vcs', aliases: ['gh'], description: 'GitHub repositories, pull requests, issues, Actions workflows, releases and organization settings.', size: 220 },
  { name: 'slack', display: 'Slack', archetype: 'chat', aliases: [], description: 'Slack workspace access: read and post messages, manage channels, threads, reactions and user groups.', size: 180 },

  // crm
  { name: 'salesforce', display: 'Salesforce', archetype: 'crm', aliases: ['SFDC', 'SF'], description: 'Salesforce Sales Cloud objects — Accounts, Contacts, Leads, Opportunities, Cases — plus SOQL queries and reports.' },
  { name: 'hubspot', display: 'HubSpot', archetype: 'crm', aliases: [], description: 'HubSpot CRM: companies, contacts, deals, tickets, engagements and marketing lists.' },
  { name: 'pipedrive', display: 'Pipedrive', archetype: 'crm', aliases: [], description: 'Deal-centric sales pipeline tool for small sales teams; persons, organizations, deals and activities.' },

  // cloud
  { name: 'azure', display: 'Microsoft Azure', archetype: 'cloud', aliases: ['az'], description: 'Azure Resource Manager operations across subscriptions: VMs, storage accounts, VNets, Key Vault and Functions.' },
  { name: 'gcp', display: 'Google Cloud', archetype: 'cloud', aliases: ['GCP', 'google cloud platform', 'gcloud'], description: 'Google Cloud projects — Compute Engine, Cloud Storage, IAM, Cloud Run, Pub/Sub and Cloud SQL.' },
  { name: 'digitalocean', display: 'DigitalOcean', archetype: 'cloud', aliases: ['DO'], description: 'Droplets, Spaces, managed databases and load balancers on DigitalOcean (legacy marketing sites).' },

  // kubernetes
  { name: 'openshift', display: 'OpenShift', archetype: 'kubernetes', aliases: ['OCP'], description: 'Red Hat OpenShift clusters in the on-prem datacenter: projects, deployments, routes and operators.' },
  { name: 'rancher', display: 'Rancher', archetype: 'kubernetes', aliases: [], description: 'Rancher multi-cluster management for the edge and retail-store Kubernetes fleet.' },
  { name: 'eks-platform', display: 'Platform EKS', archetype: 'kubernetes', aliases: ['platform cluster', 'eks'], description: 'Internal platform team wrapper around the shared EKS clusters with guardrails and namespace self-service.' },

  // observability
  { name: 'new-relic', display: 'New Relic', archetype: 'observability', aliases: ['NR', 'newrelic'], description: 'New Relic APM, infrastructure, logs and alert policies via NerdGraph.' },
  { name: 'grafana', display: 'Grafana', archetype: 'observability', aliases: ['grafana cloud'], description: 'Grafana dashboards, folders, alert rules, contact points and data sources.' },
  { name: 'prometheus', display: 'Prometheus', archetype: 'observability', aliases: ['prom', 'PromQL'], description: 'Query Prometheus metrics, inspect scrape targets, recording rules and Alertmanager silences.' },
  { name: 'splunk', display: 'Splunk', archetype: 'observability', aliases: [], description: 'Splunk Enterprise search, saved searches, indexes and alerts for security and ops logs.' },

  // project_management
  { name: 'jira', display: 'Jira', archetype: 'project_management', aliases: ['JIRA', 'Atlassian Jira'], description: 'Jira Software projects, issues, epics, sprints, boards and workflows.' },
  { name: 'linear', display: 'Linear', archetype: 'project_management', aliases: [], description: 'Linear issues, cycles, projects, roadmaps and team triage for product engineering.' },
  { name: 'asana', display: 'Asana', archetype: 'project_management', aliases: [], description: 'Asana tasks, projects, portfolios and goals, mostly used by marketing and ops.' },
  { name: 'trello', display: 'Trello', archetype: 'project_management', aliases: [], description: 'Trello boards, lists, cards and checklists for lightweight team planning.' },
  { name: 'monday', display: 'monday.com', archetype: 'project_management', aliases: ['monday'], description: 'monday.com boards, items, subitems, columns and automations.' },

  // vcs
  { name: 'gitlab', display: 'GitLab', archetype: 'vcs', aliases: ['GL'], description: 'Self-managed GitLab: projects, merge requests, issues, pipelines and groups.' },
  { name: 'bitbucket', display: 'Bitbucket', archetype: 'vcs', aliases: ['BB'], description: 'Bitbucket Cloud repositories, pull requests, branch restrictions and Pipelines for the legacy Java teams.' },
  { name: 'gitea', display: 'Gitea', archetype: 'vcs', aliases: [], description: 'Lightweight self-hosted git service used for the firmware and hardware repos.' },

  // chat
  { name: 'microsoft-teams', display: 'Microsoft Teams', archetype: 'chat', aliases: ['Teams', 'MS Teams'], description: 'Microsoft Teams chats, channels, meetings and tabs via Microsoft Graph.' },
  { name: 'discord', display: 'Discord', archetype: 'chat', aliases: [], description: 'Community Discord server for developer relations: channels, threads, roles and moderation.' },

  // support
  { name: 'zendesk', display: 'Zendesk', archetype: 'support', aliases: ['ZD'], description: 'Zendesk Support and Guide: tickets, users, organizations, macros, views and help center articles.' },
  { name: 'intercom', display: 'Intercom', archetype: 'support', aliases: [], description: 'Intercom conversations, contacts, inbox assignment and Fin bot content.' },
  { name: 'freshdesk', display: 'Freshdesk', archetype: 'support', aliases: [], description: 'Freshdesk ticketing for the SMB customer segment, with canned responses and SLA policies.' },
  { name: 'front', display: 'Front', archetype: 'support', aliases: ['frontapp'], description: 'Shared inboxes in Front for partner support and billing questions.' },

  // docs
  { name: 'notion', display: 'Notion', archetype: 'docs', aliases: [], description: 'Notion pages, databases, blocks and comments across the company workspace.' },
  { name: 'confluence', display: 'Confluence', archetype: 'docs', aliases: ['wiki', 'conf'], description: 'Confluence spaces, pages, blog posts, labels and page restrictions.' },
  { name: 'coda', display: 'Coda', archetype: 'docs', aliases: [], description: 'Coda docs, tables, rows and formulas used for planning rituals.' },

  // file_storage
  { name: 'google-drive', display: 'Google Drive', archetype: 'file_storage', aliases: ['gdrive', 'Drive'], description: 'Google Drive files, folders, shared drives, permissions and revisions.' },
  { name: 'dropbox', display: 'Dropbox', archetype: 'file_storage', aliases: [], description: 'Dropbox Business folders, shared links, file requests and team spaces.' },
  { name: 'box', display: 'Box', archetype: 'file_storage', aliases: [], description: 'Box content cloud with collaborations, metadata templates, retention and legal holds.' },
  { name: 'onedrive', display: 'OneDrive', archetype: 'file_storage', aliases: ['SharePoint'], description: 'OneDrive and SharePoint document libraries via Microsoft Graph.' },

  // incident
  { name: 'pagerduty', display: 'PagerDuty', archetype: 'incident', aliases: ['PD', 'the pager'], description: 'PagerDuty incidents, services, escalation policies, schedules and on-call lookups.' },
  { name: 'opsgenie', display: 'Opsgenie', archetype: 'incident', aliases: [], description: 'Opsgenie alerts, on-call rotations and routing rules for the infrastructure teams.' },
  { name: 'incident-io', display: 'incident.io', archetype: 'incident', aliases: ['incident io'], description: 'Slack-native incident declaration, roles, status updates, postmortems and follow-ups.' },

  // error_tracking
  { name: 'sentry', display: 'Sentry', archetype: 'error_tracking', aliases: [], description: 'Sentry issues, events, releases, alert rules and performance data.' },
  { name: 'rollbar', display: 'Rollbar', archetype: 'error_tracking', aliases: [], description: 'Rollbar item tracking and deploy correlation for the legacy Rails monolith.' },
  { name: 'bugsnag', display: 'Bugsnag', archetype: 'error_tracking', aliases: [], description: 'Mobile crash reporting and stability scores for the iOS and Android apps.' },

  // ci_cd
  { name: 'circleci', display: 'CircleCI', archetype: 'ci_cd', aliases: ['circle'], description: 'CircleCI pipelines, workflows, jobs, contexts and insights.' },
  { name: 'jenkins', display: 'Jenkins', archetype: 'ci_cd', aliases: [], description: 'On-prem Jenkins controller: jobs, builds, nodes, credentials and plugins.' },
  { name: 'argocd', display: 'Argo CD', archetype: 'ci_cd', aliases: ['argo', 'Argo'], description: 'GitOps delivery with Argo CD: applications, projects, syncs, rollbacks and repo connections.' },
  { name: 'buildkite', display: 'Buildkite', archetype: 'ci_cd', aliases: [], description: 'Buildkite pipelines, builds and agent queues for the monorepo.' },
  { name: 'terraform-cloud', display: 'Terraform Cloud', archetype: 'ci_cd', aliases: ['TFC', 'terraform', 'HCP Terraform'], description: 'Terraform Cloud workspaces, runs, plans, state versions, variable sets and policy sets.' },

  // database
  { name: 'postgres', display: 'PostgreSQL', archetype: 'database', aliases: ['postgresql', 'pg', 'psql'], description: 'Read-mostly access to the production Postgres fleet: schemas, queries, locks, replicas and backups.' },
  { name: 'mongodb', display: 'MongoDB Atlas', archetype: 'database', aliases: ['mongo', 'Atlas'], description: 'MongoDB Atlas clusters, databases, collections, documents and aggregation pipelines.' },
  { name: 'redis', display: 'Redis', archetype: 'database', aliases: ['redis cache'], description: 'Inspect and manage keys, memory and replication on the shared Redis clusters.' },

  // data_platform
  { name: 'snowflake', display: 'Snowflake', archetype: 'data_platform', aliases: ['the warehouse', 'snow'], description: 'Snowflake warehouses, databases, schemas, tables, stages, tasks and query history.' },
  { name: 'bigquery', display: 'BigQuery', archetype: 'data_platform', aliases: ['BQ'], description: 'BigQuery datasets, tables, jobs and scheduled queries in the analytics GCP project.' },
  { name: 'databricks', display: 'Databricks', archetype: 'data_platform', aliases: [], description: 'Databricks clusters, jobs, notebooks, SQL warehouses and Unity Catalog objects.' },
  { name: 'airflow', display: 'Apache Airflow', archetype: 'data_platform', aliases: ['MWAA', 'airflow'], description: 'Airflow DAGs, DAG runs, task instances, connections, variables and pools.' },
  { name: 'dbt-cloud', display: 'dbt Cloud', archetype: 'data_platform', aliases: ['dbt'], description: 'dbt Cloud projects, jobs, runs, models, sources and lineage.' },

  // billing
  { name: 'stripe', display: 'Stripe', archetype: 'billing', aliases: [], description: 'Stripe customers, subscriptions, invoices, payment intents, refunds, disputes and payouts.' },
  { name: 'chargebee', display: 'Chargebee', archetype: 'billing', aliases: ['CB'], description: 'Chargebee subscription billing: plans, add-ons, coupons, invoices and dunning.' },
  { name: 'billing-internal', display: 'Billing Service (internal)', archetype: 'billing', aliases: ['billing', 'billing svc', 'the billing service'], description: 'Internal billing service that owns usage metering, entitlements and enterprise invoicing.' },

  // accounting
  { name: 'quickbooks', display: 'QuickBooks Online', archetype: 'accounting', aliases: ['QBO', 'QuickBooks'], description: 'QuickBooks Online books for the US subsidiaries: invoices, bills, vendors and journal entries.' },
  { name: 'xero', display: 'Xero', archetype: 'accounting', aliases: [], description: 'Xero accounting for the UK and ANZ entities, including bank feeds and reconciliation.' },
  { name: 'netsuite', display: 'NetSuite', archetype: 'accounting', aliases: ['NS', 'Oracle NetSuite'], description: 'NetSuite ERP general ledger, purchase orders, subsidiaries and consolidated financial reports.' },

  // hr
  { name: 'workday', display: 'Workday', archetype: 'hr', aliases: ['WD'], description: 'Workday HCM: workers, positions, organizations, time off, compensation and payroll results.' },
  { name: 'bamboohr', display: 'BambooHR', archetype: 'hr', aliases: ['bamboo'], description: 'BambooHR employee directory, time-off requests and onboarding for the acquired startups.' },
  { name: 'hr-portal', display: 'HR Portal (internal)', archetype: 'hr', aliases: ['the HR portal', 'people portal'], description: 'Internal people portal aggregating org charts, policies, reviews and employee documents.' },

  // recruiting
  { name: 'greenhouse', display: 'Greenhouse', archetype: 'recruiting', aliases: ['GH Recruiting'], description: 'Greenhouse candidates, applications, jobs, interviews, scorecards and offers.' },
  { name: 'lever', display: 'Lever', archetype: 'recruiting', aliases: [], description: 'Lever opportunities, postings, feedback and referrals for the EMEA hiring team.' },

  // identity
  { name: 'okta', display: 'Okta', archetype: 'identity', aliases: [], description: 'Okta workforce identity: users, groups, app assignments, policies, factors and system log.' },
  { name: 'auth0', display: 'Auth0', archetype: 'identity', aliases: [], description: 'Customer identity on Auth0 — users, connections, organizations, actions and applications.' },
  { name: 'entra-id', display: 'Microsoft Entra ID', archetype: 'identity', aliases: ['Azure AD', 'AAD', 'Entra'], description: 'Entra ID (Azure AD) users, groups, app registrations and conditional access.' },

  // marketing
  { name: 'mailchimp', display: 'Mailchimp', archetype: 'marketing', aliases: [], description: 'Mailchimp audiences, campaigns, templates and automations for the newsletter.' },
  { name: 'marketo', display: 'Marketo Engage', archetype: 'marketing', aliases: ['Marketo'], description: 'Marketo leads, smart campaigns, programs, forms and landing pages.' },
  { name: 'braze', display: 'Braze', archetype: 'marketing', aliases: [], description: 'Braze canvases, campaigns, segments, push and in-app messaging for the mobile apps.' },

  // messaging
  { name: 'twilio', display: 'Twilio', archetype: 'messaging', aliases: [], description: 'Twilio programmable SMS and voice: messages, calls, phone numbers, Verify and Studio flows.' },
  { name: 'sendgrid', display: 'SendGrid', archetype: 'messaging', aliases: ['Twilio SendGrid'], description: 'Transactional email through SendGrid: sends, templates, suppressions and stats.' },

  // ecommerce
  { name: 'shopify', display: 'Shopify', archetype: 'ecommerce', aliases: [], description: 'Shopify Admin API for the merch store: products, orders, customers, inventory and discounts.' },
  { name: 'bigcommerce', display: 'BigCommerce', archetype: 'ecommerce', aliases: ['BC'], description: 'BigCommerce storefront for B2B spare parts: catalog, carts, orders and price lists.' },

  // analytics
  { name: 'segment', display: 'Segment', archetype: 'analytics', aliases: ['Twilio Segment'], description: 'Segment sources, destinations, tracking plans, audiences and profiles.' },
  { name: 'mixpanel', display: 'Mixpanel', archetype: 'analytics', aliases: [], description: 'Mixpanel events, funnels, cohorts, retention reports and user profiles.' },
  { name: 'amplitude', display: 'Amplitude', archetype: 'analytics', aliases: ['amp'], description: 'Amplitude charts, cohorts, experiments and taxonomy for product analytics.' },

  // bi
  { name: 'looker', display: 'Looker', archetype: 'bi', aliases: [], description: 'Looker dashboards, Looks, explores, LookML models and scheduled deliveries.' },
  { name: 'tableau', display: 'Tableau', archetype: 'bi', aliases: [], description: 'Tableau Server workbooks, views, data sources, extracts and subscriptions.' },
  { name: 'metabase', display: 'Metabase', archetype: 'bi', aliases: [], description: 'Self-hosted Metabase questions, dashboards and collections used by ops teams.' },

  // design
  { name: 'figma', display: 'Figma', archetype: 'design', aliases: [], description: 'Figma files, components, styles, comments, versions and dev resources.' },
  { name: 'miro', display: 'Miro', archetype: 'design', aliases: [], description: 'Miro boards, sticky notes, frames and connectors for workshops and retros.' },

  // security
  { name: 'snyk', display: 'Snyk', archetype: 'security', aliases: [], description: 'Snyk projects, vulnerabilities, license issues, ignores and SBOM exports.' },
  { name: 'crowdstrike', display: 'CrowdStrike Falcon', archetype: 'security', aliases: ['Falcon', 'CS'], description: 'CrowdStrike Falcon detections, hosts, containment and IOC management.' },
  { name: 'wiz', display: 'Wiz', archetype: 'security', aliases: [], description: 'Wiz cloud security posture: issues, attack paths, cloud resources and controls.' },

  // calendar
  { name: 'google-calendar', display: 'Google Calendar', archetype: 'calendar', aliases: ['gcal', 'GCal'], description: 'Google Calendar events, calendars, free/busy lookups and room resources.' },
  { name: 'zoom', display: 'Zoom', archetype: 'calendar', aliases: [], description: 'Zoom meetings, webinars, cloud recordings, transcripts and participants.' },
  { name: 'calendly', display: 'Calendly', archetype: 'calendar', aliases: [], description: 'Calendly event types, scheduled events, invitees and routing forms for sales demos.' },

  // feature_flags
  { name: 'launchdarkly', display: 'LaunchDarkly', archetype: 'feature_flags', aliases: ['LD'], description: 'LaunchDarkly flags, environments, segments, targeting and experiments.' },
  { name: 'statsig', display: 'Statsig', archetype: 'feature_flags', aliases: [], description: 'Statsig gates, dynamic configs, experiments and layers for the growth team.' },

  // itsm
  { name: 'servicenow', display: 'ServiceNow', archetype: 'itsm', aliases: ['SNOW', 'SN'], description: 'ServiceNow ITSM: incidents, requests, changes, problems, CMDB and knowledge base.' },
  { name: 'freshservice', display: 'Freshservice', archetype: 'itsm', aliases: [], description: 'Freshservice IT help desk and asset management for the retail stores.' },
  { name: 'jira-service-management', display: 'Jira Service Management', archetype: 'itsm', aliases: ['JSM', 'Jira Service Desk'], description: 'Jira Service Management queues, request types, SLAs and approvals for internal IT.' },
];
