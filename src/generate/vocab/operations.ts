/**
 * The operations a generated MCP server exposes on each object type (CRUD fan-out and beyond).
 *
 * Placeholders: `{doc}` / `{docs}` the object's documentation noun (singular / plural), `{a}` its
 * article; `{obj}` a casual noun phrase for the object; `{kw}` / `{kws}` the words of the object's
 * key / plural; `{ref}`, `{ref2}`, `{name}`, `{person}`, `{field}`, `{value}`, `{term}`, `{label}`,
 * `{place}`, `{text}` fillers. `casual` phrasings avoid every word of the operation's tool name;
 * `lexical` phrasings reuse them.
 */

import { placeholderParts } from '../surface.ts';

export type Scope = 'read' | 'write' | 'admin';

/** Parameter template families (see `schemas.ts`). */
export type ParamKind =
  | 'get' | 'list' | 'search' | 'create' | 'update' | 'byId' | 'count' | 'timeline' | 'export' | 'import'
  | 'bulkUpdate' | 'bulkDelete' | 'merge' | 'assign' | 'comment' | 'tags' | 'move' | 'share' | 'permissions'
  | 'subscribe' | 'link';

export interface OperationSpec {
  key: string;
  /** snake_case tool name for an object: `(key, plural) => 'list_' + plural`. */
  name: (key: string, plural: string) => string;
  scope: Scope;
  /** HTTP method and path shape for REST-wrapper descriptions. */
  http: [method: string, path: string];
  /** Third-person documentation sentence(s) for the neutral register. */
  doc: string[];
  /** Imperative fragment for the terse register. */
  terse: string;
  casual: string[];
  lexical: string[];
  params: ParamKind;
  /**
   * For a privileged operation: the key of the lower-privilege operation that serves the same need
   * (delete → archive), or `null` when there is none (the answer for a caller without the scope is
   * "no tool").
   */
  alternative?: string | null;
  /**
   * For a privileged operation with an alternative: requests that name the privileged action
   * (the temptation) but state a need the alternative meets ("…delete it, or just get it out of
   * the active list"), so labelling them with the alternative is fair.
   */
  need?: string[];
  /** Fill order: tier-1 operations are created first on every object, tier 3 last. */
  tier: 1 | 2 | 3;
  /** Documentation-style example requests (the `examples` field of a tool), not case templates. */
  examples: string[];
}

export const OPERATIONS: readonly OperationSpec[] = [
  {
    key: 'list', name: (_k, p) => `list_${p}`, scope: 'read', http: ['GET', '/{plural}'], tier: 1, params: 'list',
    doc: ['Returns a paginated list of {docs}', 'Lists {docs} visible to the authenticated user', 'Enumerates {docs}, newest first'],
    terse: 'List {docs}',
    casual: ['show me every {obj} we have', 'run through each {obj} we have right now', 'give me a rundown of each {obj}', 'can I see every single {obj} on file'],
    lexical: ['list the {kws}', 'list all {kws}', 'list {kws} for me'],
    examples: ['List all {docs} created this month', 'Show the first 50 {docs} sorted by name'],
  },
  {
    key: 'get', name: (k) => `get_${k}`, scope: 'read', http: ['GET', '/{plural}/{id}'], tier: 1, params: 'get',
    doc: ['Retrieves a single {doc} by its identifier', 'Fetches one {doc}, including its custom fields', 'Returns the full details of {a} {doc}'],
    terse: 'Get {a} {doc}',
    casual: ['pull up the {obj} {ref}', 'show me details on {obj} {ref}', 'look up {obj} {ref} for me', 'open {obj} {ref}'],
    lexical: ['get {kw} {ref}', 'get the {kw} {ref}', 'get details of {kw} {ref}'],
    examples: ['Get {doc} {ref}', 'Fetch the {doc} with id {ref}'],
  },
  {
    key: 'search', name: (_k, p) => `search_${p}`, scope: 'read', http: ['GET', '/{plural}/search'], tier: 1, params: 'search',
    doc: ['Searches {docs} by keyword across name and description', 'Runs a full-text query over {docs}', 'Finds {docs} matching a query string'],
    terse: 'Search {docs}',
    casual: ['find any {obj} mentioning {term}', 'hunt for a {obj} about {term}', 'dig up whatever {obj} relates to {term}', 'is there a {obj} that talks about {term}'],
    lexical: ['search {kws} for {term}', 'search the {kws} matching {term}'],
    examples: ['Search {docs} for "{term}"'],
  },
  {
    key: 'create', name: (k) => `create_${k}`, scope: 'write', http: ['POST', '/{plural}'], tier: 1, params: 'create',
    doc: ['Creates a new {doc}', 'Creates {a} {doc} and returns it with its generated ID', 'Adds a new {doc} to the workspace'],
    terse: 'Create {a} {doc}',
    casual: ['make a fresh {obj} called {name}', 'set up a {obj} named {name}', 'spin up a {obj} for {name}', 'start a {obj}: {name}'],
    lexical: ['create a {kw} named {name}', 'create {kw} {name}', 'create a new {kw} for {name}'],
    examples: ['Create a {doc} named "{name}"'],
  },
  {
    key: 'update', name: (k) => `update_${k}`, scope: 'write', http: ['PATCH', '/{plural}/{id}'], tier: 1, params: 'update',
    doc: ['Updates fields of an existing {doc}', 'Applies a partial update to {a} {doc}', 'Modifies {a} {doc}; omitted fields are left unchanged'],
    terse: 'Update {a} {doc}',
    casual: ['change the {field} on {obj} {ref} to {value}', 'edit {obj} {ref} so its {field} is {value}', 'fix the {field} of {obj} {ref}, it should be {value}', 'set {field} = {value} for {obj} {ref}'],
    lexical: ['update {kw} {ref} with {field} {value}', 'update the {field} of {kw} {ref}'],
    examples: ['Update the {field} of {doc} {ref}'],
  },
  {
    key: 'delete', name: (k) => `delete_${k}`, scope: 'admin', http: ['DELETE', '/{plural}/{id}'], tier: 1, params: 'byId', alternative: 'archive',
    need: ['get {obj} {ref} out of the active list; delete it if you can, archiving is fine too', 'I want {obj} {ref} gone from everyday views (delete it, or at least hide it)'],
    doc: ['Permanently deletes {a} {doc}. This cannot be undone', 'Deletes {a} {doc} and all of its child records', 'Removes {a} {doc} permanently'],
    terse: 'Delete {a} {doc}',
    casual: ['get rid of {obj} {ref} for good', 'permanently remove {obj} {ref}', 'wipe out {obj} {ref}', 'trash {obj} {ref}, we never need it again'],
    lexical: ['delete {kw} {ref}', 'delete the {kw} {ref} permanently'],
    examples: ['Delete {doc} {ref}'],
  },
  {
    key: 'archive', name: (k) => `archive_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/archive'], tier: 2, params: 'byId',
    doc: ['Archives {a} {doc}; archived items are hidden but can be restored', 'Moves {a} {doc} to the archive without deleting it'],
    terse: 'Archive {a} {doc}',
    casual: ['shelve {obj} {ref}, we are done with it', 'put {obj} {ref} away but keep it around', 'retire {obj} {ref} without losing it', 'hide {obj} {ref} from the active view'],
    lexical: ['archive {kw} {ref}', 'archive the {kw} {ref}'],
    examples: ['Archive {doc} {ref}'],
  },
  {
    key: 'restore', name: (k) => `restore_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/restore'], tier: 2, params: 'byId',
    doc: ['Restores an archived or soft-deleted {doc}', 'Brings back {a} {doc} from the archive'],
    terse: 'Restore {a} {doc}',
    casual: ['bring back {obj} {ref}', 'undo the removal of {obj} {ref}', 'recover {obj} {ref} from the archive bin'],
    lexical: ['restore {kw} {ref}', 'restore the archived {kw} {ref}'],
    examples: ['Restore archived {doc} {ref}'],
  },
  {
    key: 'count', name: (_k, p) => `count_${p}`, scope: 'read', http: ['GET', '/{plural}/count'], tier: 2, params: 'count',
    doc: ['Returns the number of {docs} matching a filter', 'Counts {docs} without returning them'],
    terse: 'Count {docs}',
    casual: ['add up every {obj} we have and tell me the total', 'give me a tally of each {obj} we have', "what's the grand total of every {obj} we have"],
    lexical: ['count the {kws}', 'count {kws} matching {term}'],
    examples: ['Count {docs} with status open'],
  },
  {
    key: 'history', name: (k) => `get_${k}_history`, scope: 'read', http: ['GET', '/{plural}/{id}/history'], tier: 2, params: 'timeline',
    doc: ['Returns the revision history of {a} {doc}', 'Lists past versions and changes of {a} {doc}'],
    terse: 'Get {doc} history',
    casual: ['what changed on {obj} {ref} recently', 'show me the timeline of edits to {obj} {ref}', 'who touched {obj} {ref} and when', 'walk me through previous versions of {obj} {ref}'],
    lexical: ['get the history of {kw} {ref}', 'get {kw} {ref} history'],
    examples: ['Show the change history of {doc} {ref}'],
  },
  {
    key: 'audit', name: (k) => `get_${k}_audit_log`, scope: 'admin', http: ['GET', '/admin/{plural}/{id}/audit'], tier: 3, params: 'timeline', alternative: 'history',
    need: ['who changed {obj} {ref} and when? the audit log would be ideal, any change history will do', 'I need the edit trail of {obj} {ref}; audit log or plain history, whichever you can get'],
    doc: ['Returns the tamper-evident audit log of {a} {doc} for compliance review', 'Retrieves security audit events recorded for {a} {doc}'],
    terse: 'Get {doc} audit log',
    casual: ['pull the compliance trail for {obj} {ref}', 'I need the security record of who did what to {obj} {ref}', 'show the tamper-proof trail on {obj} {ref} for the auditors'],
    lexical: ['get the audit log for {kw} {ref}', 'audit log of {kw} {ref}'],
    examples: ['Get the audit log of {doc} {ref}'],
  },
  {
    key: 'export', name: (_k, p) => `export_${p}`, scope: 'admin', http: ['POST', '/{plural}/export'], tier: 2, params: 'export', alternative: 'list',
    need: ['I need to see every {obj} we have; an export would be ideal but a list is fine', 'export each {obj} for me, or just show me all of them'],
    doc: ['Exports {docs} to CSV, JSON or XLSX', 'Starts a bulk export job for {docs} and returns a download link'],
    terse: 'Export {docs}',
    casual: ['dump every {obj} into a CSV', 'download each {obj} into a spreadsheet', 'give me a file with each {obj} we have'],
    lexical: ['export the {kws}', 'export all {kws} to csv'],
    examples: ['Export all {docs} as CSV'],
  },
  {
    key: 'import', name: (_k, p) => `import_${p}`, scope: 'write', http: ['POST', '/{plural}/import'], tier: 3, params: 'import',
    doc: ['Imports {docs} from an uploaded file', 'Bulk-loads {docs} from CSV or JSON, with an optional dry run'],
    terse: 'Import {docs}',
    casual: ['load each {obj} from this spreadsheet', 'bulk upload every {obj} in the file I sent', 'pull in each {obj} listed in a CSV'],
    lexical: ['import {kws} from a file', 'import the {kws} csv'],
    examples: ['Import {docs} from a CSV file'],
  },
  {
    key: 'bulkUpdate', name: (_k, p) => `bulk_update_${p}`, scope: 'write', http: ['PATCH', '/{plural}/bulk'], tier: 3, params: 'bulkUpdate',
    doc: ['Updates many {docs} in one request', 'Applies the same change to a batch of {docs}'],
    terse: 'Bulk update {docs}',
    casual: ['change the {field} on every {obj} in a batch at once', 'mass-edit each {obj} in a pile so its {field} is {value}'],
    lexical: ['bulk update {kws}', 'bulk update the {field} of many {kws}'],
    examples: ['Set {field} on many {docs} at once'],
  },
  {
    key: 'bulkDelete', name: (_k, p) => `bulk_delete_${p}`, scope: 'admin', http: ['POST', '/{plural}/bulk-delete'], tier: 3, params: 'bulkDelete', alternative: null,
    doc: ['Permanently deletes many {docs} at once', 'Deletes a batch of {docs} by ID; irreversible'],
    terse: 'Bulk delete {docs}',
    casual: ['mass-remove every {obj} in a batch for good', 'clean out each {obj} of a whole pile in one go, permanently'],
    lexical: ['bulk delete {kws}', 'bulk delete old {kws}'],
    examples: ['Delete many {docs} at once'],
  },
  {
    key: 'duplicate', name: (k) => `duplicate_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/duplicate'], tier: 2, params: 'byId',
    doc: ['Creates a copy of {a} {doc}', 'Duplicates {a} {doc} including its settings'],
    terse: 'Duplicate {a} {doc}',
    casual: ['make a copy of {obj} {ref}', 'clone {obj} {ref}', 'copy {obj} {ref} so I can tweak it'],
    lexical: ['duplicate {kw} {ref}', 'duplicate the {kw} {ref}'],
    examples: ['Duplicate {doc} {ref}'],
  },
  {
    key: 'merge', name: (_k, p) => `merge_${p}`, scope: 'write', http: ['POST', '/{plural}/merge'], tier: 3, params: 'merge',
    doc: ['Merges duplicate {docs} into one', 'Combines two or more {docs}, keeping the primary record'],
    terse: 'Merge {docs}',
    casual: ['combine {obj} {ref} and {ref2} into one', 'fold {ref2} into {obj} {ref}, they are the same thing', 'dedupe {obj} {ref} with {ref2}'],
    lexical: ['merge {kws} {ref} and {ref2}', 'merge duplicate {kws}'],
    examples: ['Merge duplicate {docs}'],
  },
  {
    key: 'assign', name: (k) => `assign_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/assignee'], tier: 2, params: 'assign',
    doc: ['Assigns {a} {doc} to a user', 'Sets the owner of {a} {doc}'],
    terse: 'Assign {a} {doc}',
    casual: ['hand {obj} {ref} over to {person}', 'make {person} responsible for {obj} {ref}', 'give {obj} {ref} to {person} to deal with'],
    lexical: ['assign {kw} {ref} to {person}', 'assign the {kw} {ref}'],
    examples: ['Assign {doc} {ref} to {person}'],
  },
  {
    key: 'transfer', name: (k) => `transfer_${k}_ownership`, scope: 'admin', http: ['POST', '/admin/{plural}/{id}/transfer'], tier: 3, params: 'assign', alternative: 'assign',
    need: ['{person} should be responsible for {obj} {ref} from now on; transfer it, or at least assign it to them', 'make {person} the one handling {obj} {ref} (a full ownership transfer is not required)'],
    doc: ['Transfers ownership of {a} {doc}, including billing and admin rights, to another user', 'Moves full ownership of {a} {doc} to a new owner'],
    terse: 'Transfer {doc} ownership',
    casual: ['{person} takes over {obj} {ref} completely, admin rights and all', 'hand the keys of {obj} {ref} to {person} for good'],
    lexical: ['transfer ownership of {kw} {ref} to {person}', 'transfer the {kw} {ref} ownership'],
    examples: ['Transfer ownership of {doc} {ref}'],
  },
  {
    key: 'comment', name: (k) => `add_${k}_comment`, scope: 'write', http: ['POST', '/{plural}/{id}/comments'], tier: 2, params: 'comment',
    doc: ['Adds a comment to {a} {doc}', 'Posts a note on {a} {doc}, visible to collaborators'],
    terse: 'Comment on {a} {doc}',
    casual: ['leave a note on {obj} {ref} saying "{text}"', 'reply on {obj} {ref}: {text}', 'jot "{text}" under {obj} {ref}'],
    lexical: ['add a comment to {kw} {ref}: {text}', 'add comment "{text}" on the {kw} {ref}'],
    examples: ['Add a comment to {doc} {ref}'],
  },
  {
    key: 'listComments', name: (k) => `list_${k}_comments`, scope: 'read', http: ['GET', '/{plural}/{id}/comments'], tier: 3, params: 'timeline',
    doc: ['Lists comments on {a} {doc}', 'Returns the discussion thread attached to {a} {doc}'],
    terse: 'List {doc} comments',
    casual: ['what notes has everyone left on {obj} {ref}', 'show the discussion under {obj} {ref}', 'read me the replies on {obj} {ref}'],
    lexical: ['list comments on {kw} {ref}', 'list the {kw} {ref} comments'],
    examples: ['List the comments on {doc} {ref}'],
  },
  {
    key: 'tag', name: (k) => `add_${k}_tags`, scope: 'write', http: ['POST', '/{plural}/{id}/tags'], tier: 3, params: 'tags',
    doc: ['Adds one or more tags to {a} {doc}', 'Labels {a} {doc} with tags'],
    terse: 'Tag {a} {doc}',
    casual: ['label {obj} {ref} as {label}', 'mark {obj} {ref} with {label}', 'stick a {label} label on {obj} {ref}'],
    lexical: ['add tags {label} to {kw} {ref}', 'add the {label} tag to {kw} {ref}'],
    examples: ['Tag {doc} {ref} as {label}'],
  },
  {
    key: 'untag', name: (k) => `remove_${k}_tags`, scope: 'write', http: ['DELETE', '/{plural}/{id}/tags'], tier: 3, params: 'tags',
    doc: ['Removes tags from {a} {doc}', 'Detaches the given tags from {a} {doc}'],
    terse: 'Untag {a} {doc}',
    casual: ['take the {label} label off {obj} {ref}', 'strip {label} from {obj} {ref}', 'unmark {obj} {ref} as {label}'],
    lexical: ['remove tags {label} from {kw} {ref}', 'remove the {label} tag on {kw} {ref}'],
    examples: ['Remove the {label} tag from {doc} {ref}'],
  },
  {
    key: 'move', name: (k) => `move_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/move'], tier: 3, params: 'move',
    doc: ['Moves {a} {doc} to another parent container', 'Relocates {a} {doc} to a different folder, project or space'],
    terse: 'Move {a} {doc}',
    casual: ['shift {obj} {ref} over to {place}', 'relocate {obj} {ref} into {place}', 'put {obj} {ref} under {place} instead'],
    lexical: ['move {kw} {ref} to {place}', 'move the {kw} {ref}'],
    examples: ['Move {doc} {ref} to {place}'],
  },
  {
    key: 'share', name: (k) => `share_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/shares'], tier: 2, params: 'share',
    doc: ['Shares {a} {doc} with a user or group', 'Grants a collaborator viewer, commenter or editor access to {a} {doc}'],
    terse: 'Share {a} {doc}',
    casual: ['give {person} access to {obj} {ref}', 'let {person} see {obj} {ref}', 'invite {person} to collaborate on {obj} {ref}'],
    lexical: ['share {kw} {ref} with {person}', 'share the {kw} {ref}'],
    examples: ['Share {doc} {ref} with {person}'],
  },
  {
    key: 'setPermissions', name: (k) => `set_${k}_permissions`, scope: 'admin', http: ['PUT', '/admin/{plural}/{id}/acl'], tier: 3, params: 'permissions', alternative: 'share',
    need: ['{person} needs to get into {obj} {ref}; change the permissions or just share it with them', 'let {person} work on {obj} {ref}, by fixing its access rules or sharing it'],
    doc: ['Replaces the access-control policy of {a} {doc}', 'Sets role-based permissions on {a} {doc}; requires admin rights'],
    terse: 'Set {doc} permissions',
    casual: ['change who is allowed into {obj} {ref} so {person} can edit', 'lock down access on {obj} {ref}, only {person} gets in', 'rewrite the access rules on {obj} {ref} to include {person}'],
    lexical: ['set permissions on {kw} {ref}', 'set the {kw} {ref} permissions for {person}'],
    examples: ['Set the permissions of {doc} {ref}'],
  },
  {
    key: 'getPermissions', name: (k) => `get_${k}_permissions`, scope: 'read', http: ['GET', '/{plural}/{id}/acl'], tier: 3, params: 'get',
    doc: ['Returns who can view or edit {a} {doc}', 'Lists the access-control entries of {a} {doc}'],
    terse: 'Get {doc} permissions',
    casual: ['who can see {obj} {ref}', 'check which people have access to {obj} {ref}', 'who is allowed to touch {obj} {ref}'],
    lexical: ['get permissions of {kw} {ref}', 'get the {kw} {ref} permissions'],
    examples: ['Who has access to {doc} {ref}'],
  },
  {
    key: 'subscribe', name: (k) => `subscribe_to_${k}`, scope: 'read', http: ['POST', '/{plural}/{id}/subscriptions'], tier: 3, params: 'subscribe',
    doc: ['Subscribes the caller to change notifications for {a} {doc}', 'Registers a webhook or email notification for updates to {a} {doc}'],
    terse: 'Watch {a} {doc}',
    casual: ['notify me whenever {obj} {ref} changes', 'keep me posted on {obj} {ref}', 'ping me if anything happens with {obj} {ref}'],
    lexical: ['subscribe to {kw} {ref}', 'subscribe me to the {kw} {ref}'],
    examples: ['Subscribe to changes of {doc} {ref}'],
  },
  {
    key: 'link', name: (k) => `link_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/links'], tier: 3, params: 'link',
    doc: ['Links {a} {doc} to another object', 'Creates a relation between {a} {doc} and a related record'],
    terse: 'Link {a} {doc}',
    casual: ['connect {obj} {ref} with {ref2}', 'tie {obj} {ref} to {ref2}', 'associate {obj} {ref} and {ref2}'],
    lexical: ['link {kw} {ref} to {ref2}', 'link the {kw} {ref}'],
    examples: ['Link {doc} {ref} to {ref2}'],
  },
  {
    key: 'lock', name: (k) => `lock_${k}`, scope: 'write', http: ['POST', '/{plural}/{id}/lock'], tier: 3, params: 'byId',
    doc: ['Locks {a} {doc} against further edits', 'Makes {a} {doc} read-only until it is unlocked'],
    terse: 'Lock {a} {doc}',
    casual: ['freeze {obj} {ref} so nobody edits it', 'stop any edits to {obj} {ref} for now', 'make {obj} {ref} read-only'],
    lexical: ['lock {kw} {ref}', 'lock the {kw} {ref}'],
    examples: ['Lock {doc} {ref}'],
  },
  {
    key: 'purge', name: (k) => `purge_${k}`, scope: 'admin', http: ['DELETE', '/admin/{plural}/{id}/purge'], tier: 3, params: 'byId', alternative: null,
    doc: ['Irreversibly purges {a} {doc} and every backup of it, for data-erasure requests', 'Hard-erases {a} {doc} including archived copies (GDPR erasure)'],
    terse: 'Purge {a} {doc}',
    casual: ['erase every trace of {obj} {ref}, backups included', 'GDPR-erase {obj} {ref} completely', 'scrub {obj} {ref} from everywhere, legal asked'],
    lexical: ['purge {kw} {ref}', 'purge the {kw} {ref} and its backups'],
    examples: ['Purge {doc} {ref}'],
  },
  {
    key: 'activity', name: (k) => `list_${k}_activity`, scope: 'read', http: ['GET', '/{plural}/{id}/activity'], tier: 3, params: 'timeline',
    doc: ['Lists recent activity events on {a} {doc}', 'Returns the activity feed of {a} {doc}'],
    terse: 'List {doc} activity',
    casual: ["what's been happening on {obj} {ref}", 'recent events for {obj} {ref}', 'show me the feed of goings-on for {obj} {ref}'],
    lexical: ['list activity on {kw} {ref}', 'list the {kw} {ref} activity'],
    examples: ['List recent activity on {doc} {ref}'],
  },
  {
    key: 'validate', name: (k) => `validate_${k}`, scope: 'read', http: ['POST', '/{plural}/{id}/validate'], tier: 3, params: 'byId',
    doc: ['Validates the configuration of {a} {doc} and reports problems', 'Checks {a} {doc} for errors without changing it'],
    terse: 'Validate {a} {doc}',
    casual: ['sanity check {obj} {ref}', 'is {obj} {ref} set up right?', 'look over {obj} {ref} for mistakes'],
    lexical: ['validate {kw} {ref}', 'validate the {kw} {ref}'],
    examples: ['Validate {doc} {ref}'],
  },
];

/** Operations by key. */
export const OPERATION_BY_KEY: ReadonlyMap<string, OperationSpec> = new Map(OPERATIONS.map((o) => [o.key, o]));

/**
 * The parts the placeholder values of request templates are composed of (`surface.ts` composes
 * them: first names × surnames, codenames × project nouns, ticket prefixes × seeded numbers,
 * dates…), by kind. The realism measurement counts how often each part recurs.
 */
export const FILLERS: Readonly<Record<string, readonly string[]>> = placeholderParts();
