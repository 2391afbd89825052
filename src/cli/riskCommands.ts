import type { Command } from 'commander';
import { withContext } from './context.ts';
import { print } from './output.ts';

/**
 * `cardapply risk`: the risk policy (check a file before it goes live, show the one in force) and
 * an auditor's `explain` of a stored assessment (docs/RISK.md).
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
}
