import type { Command } from 'commander';
import { OPERATOR_ACTIONS, requirementsOf, type Status } from '../record/lifecycle.ts';
import {
  MAX_LIMIT,
  searchApplications,
  type ApplicationSummary,
} from '../applications/views/listApplications.ts';
import type { OperatorApplicationView } from '../applications/views/operatorView.ts';
import type { ServiceContext } from '../context.ts';
import { ACTING_ROLE, type Role } from '../access/roles.ts';
import { checkPurpose, REVEAL_PURPOSES } from '../applications/rules/revealPolicy.ts';
import { cliChange, cliSource, operatorCommand, operatorRequired, wholeNumberOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';
import { refuseIfRestricted } from '../record/restriction.ts';
import type { FactorCode } from '../policies/riskPolicy.ts';
import type { RiskAcknowledgement } from '../risk/approvalDecision.ts';

/**
 * `cardapply applications ...`: the operators' work from the command line, acting as the operator
 * named with `--operator` (who must exist, be enabled and have the role), through the same domain
 * functions as the admin API: the same rules, history, events and audit trail.
 */

const time = (seconds: number) => new Date(seconds * 1000).toISOString();

function summaryLine(a: ApplicationSummary): string {
  return `${a.busi_water_no}  ${a.status.padEnd(11)}  ${a.app_id}  ${a.card_no_masked}  ${time(a.created_at)}`;
}

function showText(view: OperatorApplicationView): string {
  const lines = [
    `busi_water_no  ${view.busi_water_no}`,
    `app_id         ${view.app_id}`,
    `status         ${view.status}${view.status_reason === null ? '' : ` (${view.status_reason})`}`,
    ...(view.reason_codes.length === 0 ? [] : [`reason_codes   ${view.reason_codes.join(', ')}`]),
    ...(view.requested_fields.length === 0 ? [] : [`requested      ${view.requested_fields.join(', ')}`]),
    `version        ${view.version}`,
    `card_no        ${view.card_no_masked}`,
    `created_at     ${time(view.created_at)}`,
    `updated_at     ${time(view.updated_at)}`,
    '',
    'application (identity fields masked):',
    ...Object.entries(view.application).map(
      ([field, value]) =>
        `  ${field.padEnd(20)} ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    ),
    '',
    'history:',
    ...view.history.map(
      (h) =>
        `  ${time(h.at)}  ${(h.from_status ?? '-').padEnd(11)} -> ${h.status.padEnd(11)}  ${h.actor}` +
        `${h.reason_codes.length === 0 ? '' : `  [${h.reason_codes.join(', ')}]`}` +
        `${h.reason === null ? '' : `  "${h.reason}"`}${h.details === null ? '' : `  ${JSON.stringify(h.details)}`}`,
    ),
  ];
  return lines.join('\n');
}

/** The operator an application command acts as. */
type OperatorActor = { kind: 'operator'; id: string; role: Role };
/** What that operator may see: a restricted application only with the compliance duty. */
type OperatorViewer = { role: Role; compliance: boolean };

/**
 * Runs `work` as the operator named for `command`, who needs the command's role, with what they
 * see as the console shows it them: a restricted application only to one with the compliance duty
 * (docs/PRIVACY.md), to anyone else as if it did not exist.
 */
function asOperator<T>(
  command: Command,
  work: (ctx: ServiceContext, actor: OperatorActor, viewer: OperatorViewer) => Promise<T>,
) {
  return withContext(async (ctx) => {
    const { actor } = await cliChange(ctx, command);
    if (actor.kind !== 'operator') throw operatorRequired(command);
    const { hasComplianceDuty } = await import('../operators/operators.ts');
    return work(ctx, actor, { role: actor.role, compliance: await hasComplianceDuty(ctx, actor.id) });
  });
}

/** An application command: the operator's, with the role the admin API's route requires. */
const operatorsCommand = (applications: Command, name: string, role: Role) =>
  operatorCommand(applications.command(name), role);

export function applicationsCommands(program: Command): void {
  const applications = program
    .command('applications')
    .description('search, show and move applications, acting as a named operator');

  listCommand(applications);
  showCommand(applications);
  revealCommand(applications);
  for (const [action, to] of Object.entries(OPERATOR_ACTIONS)) moveCommand(applications, action, to);
}

function listCommand(applications: Command): void {
  operatorsCommand(applications, 'list', 'viewer')
    .description('search applications, oldest first')
    .option('--status <status>', 'only this state')
    .option('--app-id <app_id>', 'only this app')
    .option('--serial <busi_water_no>', 'only this serial number')
    .option(
      '--created-from <unix>',
      'created at or after (Unix seconds)',
      wholeNumberOption('--created-from', 0, 99_999_999_999),
    )
    .option(
      '--created-to <unix>',
      'created at or before (Unix seconds)',
      wholeNumberOption('--created-to', 0, 99_999_999_999),
    )
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .option('--limit <n>', `page size, 1 to ${MAX_LIMIT}`, wholeNumberOption('--limit', 1, MAX_LIMIT))
    .option('--json', 'print {items, next_cursor} as JSON')
    .action(
      async (
        options: {
          status?: string;
          appId?: string;
          serial?: string;
          createdFrom?: number;
          createdTo?: number;
          cursor?: string;
          limit?: number;
          json?: boolean;
        },
        command: Command,
      ) => {
        const page = await asOperator(command, (ctx, _actor, viewer) =>
          searchApplications(
            ctx,
            {
              status: options.status,
              app_id: options.appId,
              busi_water_no: options.serial,
              created_from: options.createdFrom,
              created_to: options.createdTo,
              cursor: options.cursor,
              limit: options.limit,
            },
            viewer,
          ),
        );
        print(options.json, page, () =>
          [
            ...page.items.map(summaryLine),
            page.next_cursor === null ? '(end)' : `next: --cursor ${page.next_cursor}`,
          ].join('\n'),
        );
      },
    );
}

function showCommand(applications: Command): void {
  operatorsCommand(applications, 'show', 'viewer')
    .description('show one application, identity fields masked, with its history')
    .argument('<busi_water_no>', 'serial number')
    .option('--json', 'print JSON')
    .action(async (serial: string, options: { json?: boolean }, command: Command) => {
      const { showApplication } = await import('../applications/views/operatorView.ts');
      const view = await asOperator(command, (ctx, _actor, viewer) => showApplication(ctx, serial, viewer));
      print(options.json, view, () => showText(view));
    });
}

function revealCommand(applications: Command): void {
  operatorsCommand(applications, 'reveal', ACTING_ROLE)
    .description('show one masked field in the clear (reviewer or admin; audited)')
    .argument('<busi_water_no>', 'serial number')
    .requiredOption('--field <field>', 'the field, e.g. cert_id')
    .requiredOption('--purpose <code>', `why: ${REVEAL_PURPOSES.join(', ')} (audited)`)
    .option('--purpose-text <text>', 'more about the purpose; required with other (audited)')
    .option('--json', 'print JSON')
    .action(
      async (
        serial: string,
        options: { field: string; purpose: string; purposeText?: string; json?: boolean },
        command: Command,
      ) => {
        const purpose = checkPurpose(options.purpose, options.purposeText);
        const { revealField } = await import('../applications/views/operatorView.ts');
        const revealed = await asOperator(command, (ctx, actor, viewer) =>
          revealField(ctx, {
            busiWaterNo: serial,
            field: options.field,
            purpose,
            operator: { username: actor.id, ...viewer },
            source: cliSource(),
          }),
        );
        print(options.json, revealed, () => `${revealed.field}: ${String(revealed.value)}`);
      },
    );
}

/** `cardapply applications <action>`: one of the operator's moves, with the details it requires. */
function moveCommand(applications: Command, action: string, to: Status): void {
  const { reasonRequired, detailsRequired, codesRequired, fieldsRequired, detailsOptional } =
    requirementsOf(to);
  const command = operatorsCommand(applications, action, ACTING_ROLE)
    .description(`move an application to ${to}`)
    .argument('<busi_water_no>', 'serial number');
  if (reasonRequired) command.requiredOption('--reason <text>', 'why (shown to the partner)');
  else command.option('--reason <text>', 'why (shown to the partner)');
  const codesHelp =
    'codes of the reason table (`cardapply codes` lists them); repeat or separate with commas';
  if (codesRequired) command.requiredOption('--reason-code <code...>', codesHelp);
  else command.option('--reason-code <code...>', codesHelp);
  if (fieldsRequired) {
    command.requiredOption(
      '--field <name...>',
      'fields of the submit the partner is to send again; repeat or separate with commas',
    );
  }
  if (detailsRequired.includes('carrier'))
    command.requiredOption('--carrier <name>', 'carrier of the shipment');
  if (detailsRequired.includes('tracking_no'))
    command.requiredOption('--tracking-no <number>', 'tracking number');
  if (detailsOptional.includes('tracking_url'))
    command.option('--tracking-url <url>', 'a link to follow the shipment (https)');
  if (to === 'APPROVED') {
    command.option(
      '--acknowledge <code=note...>',
      'an open risk factor acknowledged, `code=why` (the note is required for a high factor; docs/RISK.md); repeat for each',
    );
  }
  command
    .option(
      '--expect-version <n>',
      'refuse if the application changed since this version',
      wholeNumberOption('--expect-version', 1, 2_147_483_647),
    )
    .option('--json', 'print the application as JSON')
    .action(
      async (
        serial: string,
        options: {
          reason?: string;
          reasonCode?: string[];
          field?: string[];
          carrier?: string;
          trackingNo?: string;
          trackingUrl?: string;
          expectVersion?: number;
          acknowledge?: string[];
          json?: boolean;
        },
        invoked: Command,
      ) => {
        const [{ approveApplication, transitionApplication }, { showApplication }] = await Promise.all([
          import('../applications/commands/transitionApplication.ts'),
          import('../applications/views/operatorView.ts'),
        ]);
        let requested = false;
        const view = await asOperator(invoked, async (ctx, actor, viewer) => {
          // Restricted by a deletion request: no operator but a compliance one finds it to move it.
          await refuseIfRestricted(ctx.store.db, serial, viewer);
          const move = {
            busiWaterNo: serial,
            to,
            actor,
            reason: options.reason,
            reasonCodes: options.reasonCode?.flatMap((code) => code.split(',')).filter((c) => c !== ''),
            requestedFields: options.field?.flatMap((name) => name.split(',')).filter((n) => n !== ''),
            details: {
              carrier: options.carrier,
              tracking_no: options.trackingNo,
              tracking_url: options.trackingUrl,
            },
            expectedVersion: options.expectVersion,
            riskAcknowledgements: options.acknowledge?.map(acknowledgementOf),
            source: cliSource(),
          };
          if (to === 'APPROVED')
            requested = (await approveApplication(ctx, move)).kind === 'approval_requested';
          else await transitionApplication(ctx, move);
          return showApplication(ctx, serial, viewer);
        });
        print(
          options.json,
          view,
          () =>
            `${view.busi_water_no}  ${view.status}  (version ${view.version})${requested ? '  approval requested: a second operator must approve (enhanced review)' : ''}`,
        );
      },
    );
}

/** `--acknowledge code=note` (or `code` alone) as the approval gate reads it; it checks the code. */
function acknowledgementOf(value: string): RiskAcknowledgement {
  const at = value.indexOf('=');
  const code = (at === -1 ? value : value.slice(0, at)).trim() as FactorCode;
  return at === -1 ? { code } : { code, note: value.slice(at + 1) };
}
