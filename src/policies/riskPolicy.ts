import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';

/**
 * The risk policy: the issuer's own rules for rating an application and routing it (docs/RISK.md).
 * A JSON file, checked against this schema at start (a bad file stops the start, as a bad code
 * table does); the service ships a documented default (defaultRiskPolicy.json) and
 * `RISK_POLICY_FILE` replaces it. Its version is the hash of its content, so an assessment names
 * exactly the rules it was made under, and the same file on two instances has the same version.
 */

export const TIERS = ['low', 'medium', 'high', 'prohibited'] as const;
export type Tier = (typeof TIERS)[number];

export const ROUTINGS = ['review', 'enhanced_review', 'auto_approve', 'decline'] as const;
export type Routing = (typeof ROUTINGS)[number];

/** The factors the service knows how to find; a policy weighs them (docs/RISK.md, one by one). */
export const FACTOR_CODES = [
  'sanctions_hit',
  'pep_match',
  'required_image_missing',
  'image_refused',
  'image_reused',
  'shared_mobile',
  'shared_email',
  'country_call_for_action',
  'country_increased_monitoring',
  'profession_risk',
  'other_text_missing',
  'document_expiring',
  'partner_risk',
] as const;
export type FactorCode = (typeof FACTOR_CODES)[number];

export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

const TierName = Type.Enum(TIERS);
const RoutingName = Type.Enum(ROUTINGS);
const Weight = Type.Integer({ minimum: 0, maximum: 1000 });
const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

const FACTOR_PROPERTIES = {
  /** Added to the score when the factor fires. */
  weight: Weight,
  /** The lowest tier an application with this factor open can have, whatever its score. */
  tier: Type.Optional(TierName),
  /** While it is open, no operator may approve (409 `riskFactorBlocks`). */
  blocks_approval: Type.Optional(Type.Boolean()),
};
const Factor = Type.Object(FACTOR_PROPERTIES, { additionalProperties: false });

/** A factor whose weight depends on a level (a profession's, a partner's). */
const LeveledFactor = Type.Object(
  {
    weight_by_level: Type.Object(
      { low: Weight, medium: Weight, high: Weight },
      { additionalProperties: false },
    ),
    tier_by_level: Type.Optional(
      Type.Object(
        { low: Type.Optional(TierName), medium: Type.Optional(TierName), high: Type.Optional(TierName) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const RiskPolicySchema = Type.Object(
  {
    /** A name for people; the version is the content's hash. */
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    factors: Type.Object(
      {
        sanctions_hit: Factor,
        pep_match: Factor,
        required_image_missing: Factor,
        image_refused: Factor,
        image_reused: Factor,
        shared_mobile: Factor,
        shared_email: Factor,
        country_call_for_action: Factor,
        country_increased_monitoring: Factor,
        profession_risk: LeveledFactor,
        other_text_missing: Factor,
        /** Fires when the identity document expires within `days`. */
        document_expiring: Type.Object(
          { ...FACTOR_PROPERTIES, days: Type.Integer({ minimum: 1, maximum: 3650 }) },
          { additionalProperties: false },
        ),
        partner_risk: LeveledFactor,
      },
      { additionalProperties: false },
    ),
    /** The score from which each tier begins; `low` is below `medium`. */
    tiers: Type.Object({ medium: Weight, high: Weight, prohibited: Weight }, { additionalProperties: false }),
    /** What happens to an application of each tier once it is assessed. */
    routing: Type.Object(
      { low: RoutingName, medium: RoutingName, high: RoutingName, prohibited: RoutingName },
      { additionalProperties: false },
    ),
    /** High-risk jurisdictions: the FATF's public lists by default, with the date they were read. */
    countries: Type.Object(
      {
        source: Type.String({ minLength: 1, maxLength: 500 }),
        as_of: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }),
        call_for_action: Type.Array(CountryCode, { uniqueItems: true }),
        increased_monitoring: Type.Array(CountryCode, { uniqueItems: true }),
      },
      { additionalProperties: false },
    ),
    /** A risk level per profession code (the `profession` table); a code not named is `low`. */
    professions: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{1,16}$' }), Type.Enum(RISK_LEVELS)),
  },
  { additionalProperties: false },
);
export type RiskPolicy = Static<typeof RiskPolicySchema>;

/** The policy in force: its rules, its version and where it came from. */
export interface LoadedRiskPolicy {
  readonly policy: RiskPolicy;
  /** The first 16 hex digits of the SHA-256 of the file's text. */
  readonly version: string;
  /** `default`, or the file's path. */
  readonly source: string;
  /** The file's text, the version's input: stored with the assessments, so `explain` can rerun them. */
  readonly content: string;
}

/** A policy that cannot be used; the message names the problem (and the path in the file). */
export class RiskPolicyError extends Error {
  override readonly name = 'RiskPolicyError';
}

const validate = new Ajv({ allErrors: true, strict: false }).compile(RiskPolicySchema);

export function riskPolicyVersion(content: string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

/**
 * Checks a parsed policy: its schema, then what a schema cannot say. Straight-through approval is
 * for `low` only and a decline for `prohibited` only (PRODUCT.md), and the tiers' scores rise.
 */
function checkRiskPolicy(value: unknown, source: string, content: string): LoadedRiskPolicy {
  if (!validate(value)) {
    const problems = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (error) =>
          `${error.instancePath === '' ? '(top level)' : error.instancePath}: ${error.message ?? 'invalid'}`,
      );
    throw new RiskPolicyError(`risk policy ${source}: ${problems.join('; ')}`);
  }
  const policy = value as RiskPolicy;
  const problems: string[] = [];
  for (const tier of TIERS) {
    const routing = policy.routing[tier];
    if (routing === 'auto_approve' && tier !== 'low')
      problems.push(`/routing/${tier}: auto_approve is allowed for low only`);
    if (routing === 'decline' && tier !== 'prohibited')
      problems.push(`/routing/${tier}: decline is allowed for prohibited only`);
  }
  const { medium, high, prohibited } = policy.tiers;
  if (!(0 < medium && medium < high && high < prohibited))
    problems.push('/tiers: must rise: 0 < medium < high < prohibited');
  const both = policy.countries.call_for_action.filter((c) =>
    policy.countries.increased_monitoring.includes(c),
  );
  if (both.length > 0) problems.push(`/countries: ${both.join(', ')} on both lists`);
  if (problems.length > 0) throw new RiskPolicyError(`risk policy ${source}: ${problems.join('; ')}`);
  return { policy, version: riskPolicyVersion(content), source, content };
}

export const DEFAULT_RISK_POLICY_URL = new URL('./defaultRiskPolicy.json', import.meta.url);

/** The policy in force: the file's, or the default. */
export function loadRiskPolicy(file?: string): LoadedRiskPolicy {
  const path = file === undefined || file === '' ? DEFAULT_RISK_POLICY_URL : file;
  const source = path === DEFAULT_RISK_POLICY_URL ? 'default' : String(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new RiskPolicyError(`risk policy ${source}: cannot be read (${reason})`);
  }
  return parseRiskPolicy(text, source);
}

export function parseRiskPolicy(text: string, source: string): LoadedRiskPolicy {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RiskPolicyError(
      `risk policy ${source}: is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
    );
  }
  return checkRiskPolicy(parsed, source, text);
}
