/** Configuring agent hosts (Claude Code, Codex, Gemini CLI, Cursor, VS Code, Claude Desktop, Windsurf) to reach Gardener. */
export { listHosts, planInstall, planUninstall, applySteps, renderPlan, shellLine, type HostListing, type HostPlan, type InstallOptions } from './hosts.js';
export { HOSTS, findHost } from './host-table.js';
export { hostContext, mcpUrl } from './host-context.js';
export { TOKEN_ENV, SERVER_NAME, type HostEntry, type HostName, type Scope, type ServerSpec, type Transport } from './types.js';
