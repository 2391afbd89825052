import type { Command } from 'commander';
import type { ReplayResult } from '../risk/replay.ts';
import { dayOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

/**
 * `cardapply risk`: the risk policy (check a file before it goes live, show the one in force) and
 * an auditor's `explain` of a stored assessment, and a `replay` of the stored assessments under
 * another policy before it goes live (docs/RISK.md).
 */
export function riskCommands(program: Command): void {
  const risk = program.command('risk').description('the risk policy and the assessments made under it');
  const policy = risk.command('policy').description('check or show a risk policy');

  policy
    .command('validate')
    .description('check a risk policy file against the schema and its rules; print its version')
    .argument('<file>', 'the JSON file')
    .option('--json', 'print JSON')
    .action(async (file: string, options: { json?: boolean }) => {
      const { loadRiskPolicy, RiskPolicyError } = await import('../policies/riskPolicy.ts');
      try {
        const loaded = loadRiskPolicy(file);
        print(
          options.json,
          { valid: true, version: loaded.version, name: loaded.policy.name },
          () => `${file}: valid, version ${loaded.version} (${loaded.policy.name})`,
        );
      } catch (error) {
        if (!(error instanceof RiskPolicyError)) throw error;
        print(options.json, { valid: false, error: error.message }, () => error.message);
        process.exitCode = 1;
      }
    });

  policy
    .command('show')
    .description('show the risk policy in force (RISK_POLICY_FILE, or the default) and its version')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const [{ loadConfig }, { loadRiskPolicy }] = await Promise.all([
        import('../config.ts'),
        import('../policies/riskPolicy.ts'),
      ]);
      const loaded = loadRiskPolicy(loadConfig().riskPolicyFile);
      print(
        options.json,
        { version: loaded.version, source: loaded.source, policy: loaded.policy },
        () => `version ${loaded.version} (${loaded.source})\n${JSON.stringify(loaded.policy, null, 2)}`,
      );
    });

  risk
    .command('explain')
    .description("weigh an application's stored evidence again by the policy it names; exit 1 if it differs")
    .argument('<busi_water_no>', 'serial number')
    .option('--json', 'print JSON')
    .action(async (serial: string, options: { json?: boolean }) => {
      const { explainAssessment } = await import('../risk/explainAssessment.ts');
      const explanation = await withContext((ctx) => explainAssessment(ctx, serial));
      print(options.json, explanation, () =>
        [
          `${serial}: ${explanation.stored.tier}, score ${explanation.stored.score}, ${explanation.stored.routing} ` +
            `(policy ${explanation.stored.policy_version})`,
          ...explanation.stored.factors.map((f) => `  ${f.code} +${f.weight}  ${JSON.stringify(f.evidence)}`),
          explanation.same
            ? 'recomputed: the same'
            : `recomputed: DIFFERS: ${JSON.stringify(explanation.recomputed)}`,
        ].join('\n'),
      );
      if (!explanation.same) process.exitCode = 1;
    });

  risk
    .command('replay')
    .description(
      'weigh the latest assessment of every stored application again under another policy; changes nothing',
    )
    .requiredOption('--policy <file>', 'the risk policy file to try')
    .option(
      '--from <date>',
      'applications submitted on or after this business day (YYYY-MM-DD)',
      dayOption('--from'),
    )
    .option(
      '--to <date>',
      'applications submitted on or before this business day (YYYY-MM-DD)',
      dayOption('--to'),
    )
    .option('--json', 'print JSON')
    .action(async (options: { policy: string; from?: string; to?: string; json?: boolean }) => {
      const [{ loadRiskPolicy, RiskPolicyError }, { replayPolicy }, { dayStart, nextDay }] =
        await Promise.all([
          import('../policies/riskPolicy.ts'),
          import('../risk/replay.ts'),
          import('../record/dates.ts'),
        ]);
      let policy;
      try {
        policy = loadRiskPolicy(options.policy);
      } catch (error) {
        if (!(error instanceof RiskPolicyError)) throw error;
        print(options.json, { valid: false, error: error.message }, () => error.message);
        process.exitCode = 1;
        return;
      }
      const started = performance.now();
      const result = await withContext((ctx) => {
        const zone = ctx.config.businessTimeZone;
        return replayPolicy(ctx.store.db, policy, {
          ...(options.from === undefined ? {} : { from: dayStart(options.from, zone) }),
          ...(options.to === undefined ? {} : { to: dayStart(nextDay(options.to), zone) }),
        });
      });
      const seconds = (performance.now() - started) / 1000;
      print(options.json, { ...result, seconds: Math.round(seconds * 1000) / 1000 }, () =>
        replayLines(result, seconds).join('\n'),
      );
    });
}

/** The replay as a person reads it: the tier table, then the routing table, serials of what moves. */
function replayLines(result: ReplayResult, seconds: number): string[] {
  const cells = (title: string, table: typeof result.tiers | typeof result.routings) => [
    title,
    ...table.map(
      (cell) =>
        `  ${cell.from.padEnd(16)} -> ${cell.to.padEnd(16)} ${String(cell.count).padStart(8)}` +
        (cell.serials === undefined ? '' : `  ${cell.serials.join(' ')}`),
    ),
  ];
  return [
    `policy ${result.policy.version} (${result.policy.name}): ${result.applications} applications in ` +
      `${seconds.toFixed(1)} s; ${result.moved.tier} change tier, ${result.moved.routing} change routing`,
    ...cells('tier', result.tiers),
    ...cells('routing', result.routings),
  ];
}
