/**
 * `gardener service install|uninstall|status|print [--systemd|--launchd] [--json]`: the owner
 * (`gardener serve`) as a systemd user service or a launchd LaunchAgent. `print` changes
 * nothing: it writes the unit or plist to stdout.
 */
import { InvalidArgumentError } from '../../errors.js';
import { resolveHome } from '../../brain/index.js';
import { installService, planService, serviceStatus, uninstallService, type ManagerName, type ServiceReport } from '../../service/index.js';
import { printJson, printLine } from '../output.js';

export type ServiceAction = 'install' | 'uninstall' | 'status' | 'print';

export async function service(action: ServiceAction, opts: { systemd?: boolean; launchd?: boolean; json?: boolean }): Promise<void> {
  if (opts.systemd && opts.launchd) throw new InvalidArgumentError('--systemd and --launchd cannot be used together: choose one manager');
  const manager: ManagerName | undefined = opts.systemd ? 'systemd' : opts.launchd ? 'launchd' : undefined;
  const ctx = { manager, home: resolveHome() };
  if (action === 'print') {
    const plan = planService(ctx);
    if (opts.json) return printJson(plan);
    return void process.stdout.write(plan.content);
  }
  const report: ServiceReport =
    action === 'install' ? installService(ctx) : action === 'uninstall' ? uninstallService(ctx) : serviceStatus(ctx);
  if (opts.json) return printJson(report);
  const verb = action === 'install' ? 'installed' : action === 'uninstall' ? (report.state === 'removed' ? 'removed' : 'was not installed') : report.installed ? 'installed' : 'not installed';
  printLine(`gardener service (${report.manager}): ${verb}, ${report.state}`);
  printLine(`  ${report.file}`);
  if (report.hint) printLine(`  ${report.hint}`);
}
