/** Installing Gardener's owner as a service (systemd user unit, launchd LaunchAgent). */
export { installService, uninstallService, serviceStatus, planService, detectManager, type ManagerName, type ServiceContext, type ServiceReport, type ServicePlan } from './service-manager.js';
export { systemdUnit, launchdPlist, LAUNCHD_LABEL, SERVICE_NAME, type ServiceSpec } from './units.js';
