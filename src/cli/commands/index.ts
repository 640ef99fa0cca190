/** Every command of the CLI, in the order help lists them. */
import type { Command } from '../command.ts';
import { incidentCommands } from './incident.ts';
import { maintenanceCommands } from './maintenance.ts';
import { monitorCommands } from './monitor.ts';
import { pageCommands } from './page.ts';
import { pageAccessCommands } from './page-access.ts';
import { statusCommand } from './status.ts';
import { subscribeCommands } from './subscribe.ts';
import { operatorCommands } from './operator.ts';

export const COMMANDS: readonly Command[] = [statusCommand, ...incidentCommands, ...maintenanceCommands, ...monitorCommands, ...pageCommands, ...pageAccessCommands, ...subscribeCommands, ...operatorCommands];
