import { COMPONENTS, hasComponent, type ComponentName } from '../test/helpers/components.ts';

/**
 * The last words of `npm test`: which real components were missing, so which tests were skipped,
 * and the one command that installs each. Under CI=true those tests failed instead (see
 * test/helpers/components.ts); this script only reports.
 */
const missing = (Object.keys(COMPONENTS) as ComponentName[]).filter((name) => !hasComponent(name));
if (missing.length === 0) {
  const names = Object.values(COMPONENTS).map((component) => component.name);
  console.log(`test environment: ${names.join(', ')} were all here; nothing skipped`);
} else {
  console.log('\ntest environment: skipped for want of a component:');
  for (const name of missing) {
    const component = COMPONENTS[name];
    console.log(
      `- ${component.name}: ${component.needs} were skipped. Install with:\n    ${component.install}`,
    );
  }
  if (process.env['CI'] === 'true' && missing.some((name) => !('skippedUnderCi' in COMPONENTS[name])))
    console.log(
      '(CI=true: those tests failed instead of being skipped, except those that need the git history)',
    );
}
