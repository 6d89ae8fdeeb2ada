/**
 * The ~50 built-in harness tools every agent of the monster company has (shell, files, search,
 * web, browser, git, tests, memory, planning, delegation). Two are pinned: `finish` and
 * `escalate_to_human` are always exposed, whatever the retriever picks.
 */
import type { HandToolSpec, ParamSpec } from './types.ts';

type ParamType = ParamSpec['type'];

/** Required parameter. */
function req(name: string, type: ParamType, description: string, values?: string[]): ParamSpec {
  return values ? { name, type, description, required: true, enum: values } : { name, type, description, required: true };
}

/** Optional parameter. */
function opt(name: string, type: ParamType, description: string, values?: string[]): ParamSpec {
  return values ? { name, type, description, enum: values } : { name, type, description };
}

function tool(name: string, summary: string, description: string, params: ParamSpec[], casual: string[], pinned = false): HandToolSpec {
  return pinned ? { name, summary, description, params, casual, pinned } : { name, summary, description, params, casual };
}

const PATH = req('path', 'string', 'Absolute or workspace-relative path.');
const TIMEOUT = opt('timeout_ms', 'integer', 'Abort after this many milliseconds.');
const CWD = opt('cwd', 'string', 'Working directory; defaults to the workspace root.');

export const CORE_TOOLS: readonly HandToolSpec[] = [
  // Shell and files
  tool('bash', 'Execute a shell command.', 'Runs a command in a persistent shell session and returns stdout, stderr and the exit code. Long-running commands are killed after the timeout.', [
    req('command', 'string', 'Command line to execute.'), CWD, TIMEOUT, opt('env', 'object', 'Extra environment variables for this command.'),
  ], ['kick off npm install in the terminal', 'check how much disk space is left on this box', 'what does `ls -la /etc/nginx` show']),
  tool('read_file', 'Return the contents of a file.', 'Reads a text file from the workspace, optionally a line range, and returns it with line numbers.', [
    PATH, opt('offset', 'integer', 'First line to return (1-based).'), opt('limit', 'integer', 'Maximum number of lines to return.'),
  ], ['show me what is in config/settings.yaml', 'open the README and tell me what it says', "what's on lines 40-80 of server.ts"]),
  tool('write_file', 'Create or overwrite a file.', 'Writes the given content to a path, creating parent directories as needed. Existing content is replaced.', [
    PATH, req('content', 'string', 'Full text to store.'), opt('create_dirs', 'boolean', 'Create missing parent directories.'),
  ], ['save this snippet as scripts/cleanup.sh', 'put a new .env.example in the repo root with these keys', 'dump that JSON to disk as fixtures/users.json']),
  tool('edit_file', 'Replace text in a file.', 'Performs an exact string replacement in an existing file. Fails if the old text is missing or ambiguous unless replace_all is set.', [
    PATH, req('old_string', 'string', 'Exact text to replace.'), req('new_string', 'string', 'Replacement text.'), opt('replace_all', 'boolean', 'Replace every occurrence instead of exactly one.'),
  ], ['change the port from 3000 to 8080 in app.config.ts', 'rename the variable userId to accountId in that module', 'fix the typo on line 12 of the handler']),
  tool('apply_patch', 'Apply a unified diff.', 'Applies a unified diff or multi-hunk patch to the workspace, touching several files at once. Rejects hunks that do not apply cleanly.', [
    req('patch', 'string', 'Patch text in unified diff format.'), opt('strip', 'integer', 'Leading path components to strip (like patch -p).'), opt('dry_run', 'boolean', 'Check that it applies without changing anything.'),
  ], ['here is a diff from the code review, land it locally', 'make these hunks happen across the three modules', 'merge the changes from this .diff into our tree']),
  tool('list_directory', 'List entries in a folder.', 'Returns the entries of a folder with their type and size, optionally recursing a few levels.', [
    PATH, opt('depth', 'integer', 'How many levels to recurse (default 1).'), opt('show_hidden', 'boolean', 'Include dotfiles.'),
  ], ['what is inside src/components', "show me what's in the project root", 'ls the migrations folder']),
  tool('glob', 'Match paths by pattern.', 'Returns workspace paths matching a glob pattern such as **/*.test.ts, sorted by modification time.', [
    req('pattern', 'string', 'Glob pattern, e.g. src/**/*.tsx.'), CWD, opt('max_results', 'integer', 'Cap on returned paths.'),
  ], ['which .tsx components do we have under src/ui', 'every Dockerfile in the monorepo', 'locate all the yaml manifests in deploy/']),
  tool('grep', 'Search file contents with a regex.', 'Searches text in workspace files using a regular expression (ripgrep semantics) and returns matching lines with paths.', [
    req('pattern', 'string', 'Regular expression to look for.'), opt('path', 'string', 'Folder or file to restrict to.'), opt('include', 'string', 'Glob of files to include.'), opt('case_insensitive', 'boolean', 'Ignore case.'), opt('context_lines', 'integer', 'Lines of context around each hit.'),
  ], ['where do we use process.env.STRIPE_KEY', 'every place that calls parseInvoice(', 'look for TODO comments in the api folder']),
  tool('codebase_search', 'Semantic search over the code.', 'Finds code by meaning rather than exact text, using an embedding index of the repository. Returns ranked snippets with paths.', [
    req('query', 'string', 'Natural-language description of the code.'), opt('path', 'string', 'Restrict to this folder.'), opt('top_k', 'integer', 'Number of snippets to return.'),
  ], ['where is the retry logic for webhooks implemented', 'which module handles password resets', 'show me the piece that computes proration']),
  tool('find_references', 'List usages of a symbol.', 'Uses the language server to return every usage of the symbol at a position, across the project.', [
    PATH, req('line', 'integer', 'Line of the symbol (1-based).'), req('column', 'integer', 'Column of the symbol (1-based).'), opt('include_declaration', 'boolean', 'Also return the declaration itself.'),
  ], ['who calls chargeCustomer', 'what depends on the UserContext type', 'is this helper used anywhere else']),
  tool('go_to_definition', 'Jump to where a symbol is declared.', 'Uses the language server to resolve the declaration of the symbol at a position, including into dependencies.', [
    PATH, req('line', 'integer', 'Line of the symbol (1-based).'), req('column', 'integer', 'Column of the symbol (1-based).'),
  ], ['where is formatMoney declared', 'show me the source of that imported class', 'which module declares RetryPolicy']),
  tool('delete_file', 'Remove a file or folder.', 'Deletes a path from the workspace. Folders require recursive=true.', [
    PATH, opt('recursive', 'boolean', 'Allow removing a non-empty folder.'),
  ], ['get rid of the old tmp/output.log', 'remove the unused legacy folder', 'trash that generated bundle']),
  tool('move_file', 'Rename or relocate a path.', 'Moves or renames a file or folder inside the workspace.', [
    req('source', 'string', 'Current path.'), req('destination', 'string', 'New path.'), opt('overwrite', 'boolean', 'Replace the destination if it exists.'),
  ], ['rename utils.js to helpers.ts', 'relocate the fixtures into test/data', 'shift that component into the shared folder']),
  tool('create_directory', 'Make a folder.', 'Creates a folder, including missing parents.', [
    PATH, opt('mode', 'string', 'Permission bits, e.g. 0755.'),
  ], ['make a new folder called scripts/migrations', 'set up an empty docs/adr dir', 'mkdir -p for the output path']),

  // Web
  tool('web_search', 'Search the internet.', 'Queries a public search engine and returns titles, URLs and snippets of the top results.', [
    req('query', 'string', 'What to look up.'), opt('num_results', 'integer', 'Number of results (default 10).'), opt('recency', 'string', 'Only results newer than this.', ['day', 'week', 'month', 'year']), opt('site', 'string', 'Restrict to one domain.'),
  ], ['look up the latest Node LTS version', 'google what ECONNRESET after idle usually means', 'what are people saying online about the Postgres 17 release']),
  tool('web_fetch', 'Download a page as text.', 'Fetches a URL and returns its main content converted to markdown, following redirects.', [
    req('url', 'string', 'Address to retrieve.'), opt('max_chars', 'integer', 'Truncate the content to this many characters.'), opt('format', 'string', 'Output format.', ['markdown', 'text', 'html']),
  ], ['pull the changelog from https://github.com/vitejs/vite/releases', 'grab the contents of that docs link I pasted', 'what does this blog post actually say']),
  tool('http_request', 'Call an API endpoint.', 'Sends an arbitrary HTTP call with method, headers and body, and returns status, headers and body. For REST APIs rather than pages.', [
    req('url', 'string', 'Endpoint address.'), req('method', 'string', 'Verb to use.', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']), opt('headers', 'object', 'Header map.'), opt('body', 'string', 'Payload.'), TIMEOUT,
  ], ['POST this JSON to our staging webhook endpoint', 'hit the healthcheck endpoint and tell me the status code', 'curl the internal API with a bearer token']),

  // Browser
  tool('browser_navigate', 'Open a URL in the browser.', 'Navigates the controlled headless browser tab to a URL and waits for the page to load.', [
    req('url', 'string', 'Address to open.'), opt('wait_until', 'string', 'Load event to wait for.', ['load', 'domcontentloaded', 'networkidle']), TIMEOUT,
  ], ['pull up the staging login screen', 'load our pricing site in the headless tab', 'visit localhost:3000/dashboard']),
  tool('browser_click', 'Click an element on the page.', 'Clicks the element matching a selector or accessibility reference in the current tab.', [
    req('selector', 'string', 'CSS selector or element ref from the snapshot.'), opt('button', 'string', 'Mouse button.', ['left', 'right', 'middle']), opt('double', 'boolean', 'Double-click.'),
  ], ['press the Sign in button', 'hit "Add to cart" on that product', 'tap the hamburger menu']),
  tool('browser_type', 'Type text into a field.', 'Focuses an input in the current tab and enters text, optionally submitting with Enter.', [
    req('selector', 'string', 'CSS selector or element ref.'), req('text', 'string', 'Characters to enter.'), opt('submit', 'boolean', 'Press Enter afterwards.'), opt('clear', 'boolean', 'Clear the field first.'),
  ], ['fill the email box with test@example.com', 'enter the coupon SAVE20 at checkout', 'put my password in the login form']),
  tool('browser_screenshot', 'Capture the visible page.', 'Takes a PNG of the current tab, or of one element, and returns it as an image.', [
    opt('selector', 'string', 'Capture only this element.'), opt('full_page', 'boolean', 'Capture the whole scrollable page.'),
  ], ['grab a picture of what the checkout looks like now', 'snap the broken header so I can see it', 'show me how the page renders']),
  tool('browser_snapshot', 'Get the accessibility tree.', 'Returns a structured accessibility snapshot of the current page with element references usable by click and type.', [
    opt('root_selector', 'string', 'Limit to the subtree under this element.'), opt('interesting_only', 'boolean', 'Drop purely decorative nodes.'),
  ], ['what buttons and inputs are on this screen', 'dump the DOM structure of the form', 'list the clickable elements on the current tab']),

  // Git
  tool('git_status', 'Show the working tree state.', 'Lists staged, unstaged and untracked changes and the current branch versus its upstream.', [
    CWD, opt('porcelain', 'boolean', 'Machine-readable output.'),
  ], ['what have I changed that is not committed yet', 'any untracked stuff lying around in the repo', 'am I ahead of origin']),
  tool('git_diff', 'Show line changes.', 'Shows the diff of the working tree, the index, or between two revisions, optionally for one path.', [
    opt('base', 'string', 'Revision to compare from.'), opt('head', 'string', 'Revision to compare to.'), opt('path', 'string', 'Limit to this path.'), opt('staged', 'boolean', 'Compare the index instead of the working tree.'),
  ], ['what exactly did I touch in auth.ts', 'compare main with my feature branch', 'show the changes staged for the next commit']),
  tool('git_log', 'Show commit history.', 'Lists commits with author, date and message, optionally filtered by path, author or date range.', [
    opt('max_count', 'integer', 'Number of commits.'), opt('path', 'string', 'Only commits touching this path.'), opt('author', 'string', 'Filter by author.'), opt('since', 'string', 'Only commits after this date.'),
  ], ['who touched billing.ts recently', 'what landed on main this week', 'last five commits and their messages']),
  tool('git_commit', 'Record staged changes.', 'Creates a commit from the staged changes (or all tracked changes when all=true) with the given message.', [
    req('message', 'string', 'Commit message.'), opt('all', 'boolean', 'Stage modified tracked files first.'), opt('paths', 'array', 'Stage only these paths before committing.'), opt('amend', 'boolean', 'Amend the previous commit.'),
  ], ['save my work with the message "fix null check"', 'check in these changes', 'snapshot what I have so far into history']),
  tool('git_branch', 'Create or switch branches.', 'Lists, creates, switches or deletes local branches.', [
    req('action', 'string', 'What to do.', ['list', 'create', 'switch', 'delete']), opt('name', 'string', 'Branch name.'), opt('start_point', 'string', 'Revision to start a new branch from.'),
  ], ['make me a feature/login-fix off main', 'hop over to the release-2.4 line', 'which local refs do I have']),

  // Build, test, run
  tool('run_tests', 'Execute the test suite.', 'Runs the project tests (auto-detecting vitest, jest, pytest or go test) and returns pass/fail counts and failure output.', [
    opt('pattern', 'string', 'Only tests whose file or name matches.'), opt('watch', 'boolean', 'Keep watching for changes.'), opt('coverage', 'boolean', 'Collect coverage.'), CWD, TIMEOUT,
  ], ['does the suite still pass after my change', 'check the billing specs are green', 'did I break anything in the parser']),
  tool('run_linter', 'Lint the code.', 'Runs the configured linter (eslint, ruff, golangci-lint) on paths and returns diagnostics, optionally auto-fixing.', [
    opt('paths', 'array', 'Files or folders to check.'), opt('fix', 'boolean', 'Apply safe auto-fixes.'), opt('rules', 'array', 'Only report these rule ids.'),
  ], ['any eslint complaints in src/api', 'check style issues before I push', 'ruff the python folder']),
  tool('format_code', 'Reformat source files.', 'Runs the project formatter (prettier, black, gofmt) over paths, or checks formatting without writing.', [
    req('paths', 'array', 'Files or folders.'), opt('check', 'boolean', 'Only report unformatted files.'),
  ], ['prettier the whole src tree', 'fix the indentation mess in that module', 'black the scripts folder']),
  tool('install_package', 'Add a dependency.', 'Installs a package with the project package manager (npm, pnpm, pip, cargo, go) and updates the manifest.', [
    req('name', 'string', 'Package name, optionally with a version.'), opt('manager', 'string', 'Package manager.', ['npm', 'pnpm', 'yarn', 'pip', 'cargo', 'go']), opt('dev', 'boolean', 'Add as a dev dependency.'),
  ], ['add zod to the project', 'pip add requests for the scraper', 'we need lodash as a devDependency']),
  tool('python', 'Execute Python code.', 'Runs a Python snippet in a sandboxed interpreter with pandas and numpy available, returning stdout and the value of the last expression.', [
    req('code', 'string', 'Source to execute.'), TIMEOUT, opt('session_id', 'string', 'Reuse variables from an earlier call.'),
  ], ['crunch this CSV and give me the median order value', 'quickly compute 17% of 48,250', 'plot the latency numbers with pandas']),
  tool('notebook_edit', 'Change a Jupyter cell.', 'Replaces, inserts or deletes a cell in an .ipynb notebook.', [
    PATH, req('cell_index', 'integer', 'Index of the cell (0-based).'), req('mode', 'string', 'Operation.', ['replace', 'insert', 'delete']), opt('source', 'string', 'New cell source.'), opt('cell_type', 'string', 'Cell type.', ['code', 'markdown']),
  ], ['update the third cell of analysis.ipynb to drop nulls first', 'add a markdown heading cell above the charts', 'remove the scratch cell at the bottom of the Jupyter doc']),
  tool('start_background_process', 'Launch a long-running command.', 'Starts a command in the background (dev server, watcher, tail) and returns a handle for later output reads.', [
    req('command', 'string', 'Command line.'), CWD, opt('name', 'string', 'Friendly handle for later.'),
  ], ['spin up the dev server and leave it up', 'kick off a watcher on the tests while I work', 'tail the app output in the back']),
  tool('read_process_output', 'Get output of a background job.', 'Returns new stdout and stderr lines of a background process since the last read, and whether it has exited.', [
    req('handle', 'string', 'Handle returned at launch.'), opt('max_lines', 'integer', 'Cap on lines returned.'), opt('filter', 'string', 'Only lines matching this regex.'),
  ], ['what has the dev server printed since', 'did the watcher log any errors', 'show the latest lines from that job']),
  tool('kill_process', 'Stop a running job.', 'Sends a signal to a background process started by the agent.', [
    req('handle', 'string', 'Handle returned at launch.'), opt('signal', 'string', 'Signal to send.', ['SIGTERM', 'SIGINT', 'SIGKILL']),
  ], ['shut down the dev server', 'stop that watcher, it is eating CPU', 'terminate the hung job']),

  // Planning and interaction
  tool('todo_write', 'Update the plan checklist.', 'Replaces the agent task checklist with items and their states, to track multi-step work.', [
    req('items', 'array', 'Checklist entries with content and state.'), opt('merge', 'boolean', 'Merge with the existing list instead of replacing it.'),
  ], ['jot down the steps you are going to take', 'mark the migration step as done in your plan', 'keep a checklist for this refactor']),
  tool('todo_read', 'Show the plan checklist.', 'Returns the current checklist items with their states.', [
    opt('status', 'string', 'Only items in this state.', ['pending', 'in_progress', 'completed']), opt('include_notes', 'boolean', 'Include per-item notes.'),
  ], ['what is left on your plan', 'where are we on the steps', 'which items are still pending']),
  tool('ask_user', 'Ask a clarifying question.', 'Pauses and asks the person a question, optionally with choices, and returns their answer.', [
    req('question', 'string', 'What to ask.'), opt('options', 'array', 'Suggested answers to pick from.'), opt('allow_free_text', 'boolean', 'Let them answer outside the options.'),
  ], ['check with me before picking a database', 'if unsure which environment, clarify first', 'confirm with me which customer I meant']),
  tool('memory_write', 'Store a long-term note.', 'Saves a fact or preference to persistent agent storage so later sessions can recall it.', [
    req('content', 'string', 'Fact to remember.'), opt('tags', 'array', 'Labels for later lookup.'), opt('scope', 'string', 'Who can see it.', ['user', 'project', 'global']),
  ], ['remember that I prefer pnpm over npm', 'keep in mind our staging DB is read-only', 'note for next time: deploys happen on Tuesdays']),
  tool('memory_search', 'Recall stored notes.', 'Retrieves notes from persistent agent storage relevant to a query.', [
    req('query', 'string', 'What to recall.'), opt('limit', 'integer', 'Maximum notes to return.'), opt('tags', 'array', 'Only notes with these labels.'),
  ], ['what did I tell you last week about the deploy process', 'do you remember my preferred test runner', 'recall anything we noted about the billing edge cases']),
  tool('memory_delete', 'Forget a stored note.', 'Removes a note from persistent agent storage by id.', [
    req('id', 'string', 'Note id.'), opt('reason', 'string', 'Why it is being removed.'),
  ], ['forget what I said about using yarn', 'drop that outdated note on the staging password', 'erase the preference about tabs']),
  tool('image_view', 'Look at an image.', 'Loads a PNG, JPEG or GIF from the workspace or a URL so the model can see it.', [
    req('source', 'string', 'Path or URL of the picture.'), opt('max_dimension', 'integer', 'Downscale so the longest side is at most this many pixels.'),
  ], ['what does this screenshot show', 'check the diagram in docs/arch.png', 'describe the mockup I dropped in the repo']),
  tool('read_pdf', 'Extract text from a document.', 'Returns the text (and optionally page images) of a PDF, for a page range.', [
    PATH, opt('pages', 'string', 'Page range, e.g. 1-5.'), opt('include_images', 'boolean', 'Also return rendered page images.'),
  ], ['what does the signed contract say about termination', 'summarize pages 3 to 6 of the vendor datasheet', 'pull the totals out of that scanned invoice']),
  tool('spawn_subagent', 'Delegate to a helper agent.', 'Starts a child agent with its own context on a self-contained task and returns its report.', [
    req('task', 'string', 'Brief for the helper.'), opt('tools', 'array', 'Tools the helper may use.'), opt('model', 'string', 'Model tier.', ['small', 'standard', 'large']), opt('max_turns', 'integer', 'Turn budget.'),
  ], ['have a helper dig through the logs while you keep coding', 'farm out the dependency audit in parallel', 'delegate researching the API limits']),
  tool('tool_search', 'Discover more tools.', 'Searches the catalog of available but hidden tools and skills by description and returns the best matches so they can be loaded.', [
    req('query', 'string', 'Capability needed.'), opt('limit', 'integer', 'Maximum matches.'), opt('kind', 'string', 'Restrict to one kind.', ['mcp', 'plugin', 'skill']),
  ], ['is there something that can page the on-call', 'do we have any integration for Salesforce', 'what can talk to Jira from here']),
  tool('load_skill', 'Load a skill into context.', 'Reads a named skill (instructions plus resources) into the conversation so its procedure can be followed.', [
    req('name', 'string', 'Skill name.'), opt('version', 'string', 'Pinned version.'),
  ], ['use the release-notes playbook for this', 'pull in the brand style guide instructions', 'follow our incident-comms procedure']),
  tool('sleep', 'Wait for a while.', 'Pauses the agent for a number of seconds, e.g. while a deploy or build progresses.', [
    req('seconds', 'integer', 'How long to wait.'), opt('reason', 'string', 'Why the pause.'),
  ], ['hold on a couple of minutes then check again', 'give the deploy 30 seconds before polling', 'wait until the cache warms up']),

  // Pinned
  tool('finish', 'Report the final answer and end the task.', 'Ends the task and returns the final answer to the person, with an optional status. Call exactly once when the work is done.', [
    req('answer', 'string', 'Final answer or summary of what was done.'), opt('status', 'string', 'Outcome.', ['success', 'partial', 'failed']), opt('artifacts', 'array', 'Paths or links produced.'),
  ], ["that's all, wrap up", 'done, give me the result', 'we are good, close this out'], true),
  tool('escalate_to_human', 'Hand the task to a person.', 'Stops autonomous work and routes the task to a human operator with a reason, for risky, blocked or out-of-policy requests.', [
    req('reason', 'string', 'Why a person is needed.'), opt('urgency', 'string', 'How fast someone should look.', ['low', 'normal', 'high', 'critical']), opt('context', 'string', 'What has been tried so far.'), opt('team', 'string', 'Team to route to.'),
  ], ['get a real person on this', 'I need someone from support to step in', 'this needs sign-off from an actual engineer, loop someone in'], true),
];
