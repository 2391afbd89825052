import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Partner } from '../partners/credentials.ts';
import type { Config } from '../config.ts';
import type { ErrorName } from '../errors/catalogue.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { RateLimiter, type WarnLogger } from '../ratelimit/rateLimiter.ts';
import { AppConcurrency } from './appConcurrency.ts';
import type { BucketPolicy, RateDecision } from '../ratelimit/tokenBucket.ts';

/**
 * Rate limits at the HTTP edge. Every authenticated partner request takes a token from its app's
 * bucket (the app's own limit, or the configured default) and its response carries
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; an empty bucket is a 429 with
 * `Retry-After`; so is a request of an app that already has APP_CONCURRENCY_LIMIT requests in
 * progress in this process (appConcurrency.ts). The token exchange counts failed secrets per app_id and per client address.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** The instance's rate limits; installed by `installRateLimits`. */
    limits: RequestLimits;
  }
}

export class RequestLimits {
  readonly limiter: RateLimiter;
  /** Requests of each app in progress in this process, capped (APP_CONCURRENCY_LIMIT). */
  readonly concurrency: AppConcurrency;
  readonly #defaults: BucketPolicy;
  readonly #failures: BucketPolicy;

  constructor(limiter: RateLimiter, config: Config) {
    this.limiter = limiter;
    this.concurrency = new AppConcurrency(config.appConcurrencyLimit);
    this.#defaults = { ratePerSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst };
    this.#failures = {
      ratePerSecond: config.protection.authFailuresPerMinute / 60,
      burst: config.protection.authFailureBurst,
    };
  }

  policyOf(partner: Partner): BucketPolicy {
    return {
      ratePerSecond: partner.rateLimitPerSecond ?? this.#defaults.ratePerSecond,
      burst: partner.rateLimitBurst ?? this.#defaults.burst,
    };
  }

  /**
   * Takes a token of the partner's app; sets the RateLimit headers; throws 429 when there is none.
   * Returns a promise only when the buckets are in Redis: in memory it is all synchronous.
   */
  limitPartner(reply: FastifyReply, partner: Partner): Promise<void> | undefined {
    const key = `app:${partner.appId}`;
    const policy = this.policyOf(partner);
    const local = this.limiter.takeLocally(key, policy);
    if (local !== undefined) return applyDecision(reply, local);
    return this.limiter.take(key, policy).then((decision) => applyDecision(reply, decision));
  }

  /**
   * Runs a secret check unless too many have failed lately for this app_id or from this address;
   * counts it when it fails. A correct secret costs nothing, so a partner is never slowed by its own
   * successful exchanges; a guesser gets a handful of tries a minute.
   */
  limitSecretAttempts<T>(request: FastifyRequest, appId: string, attempt: () => Promise<T>): Promise<T> {
    return this.limitFailedAttempts(
      request,
      `app:${appId}`,
      ['credentialsInvalid'],
      'authAttemptsLimited',
      attempt,
    );
  }

  /** The same for an operator's password at the admin login, by user name and by address. */
  limitLoginAttempts<T>(request: FastifyRequest, username: string, attempt: () => Promise<T>): Promise<T> {
    return this.limitFailedAttempts(
      request,
      `operator:${username}`,
      ['loginFailed', 'mfaCodeInvalid'],
      'loginAttemptsLimited',
      attempt,
    );
  }

  private async limitFailedAttempts<T>(
    request: FastifyRequest,
    subject: string,
    failures: readonly ErrorName[],
    refusedAs: 'authAttemptsLimited' | 'loginAttemptsLimited',
    attempt: () => Promise<T>,
  ): Promise<T> {
    // The address bucket is shared by both kinds of secret: one client guessing either is one guesser.
    const keys = [`auth-fail:${subject}`, `auth-fail:addr:${request.ip}`];
    const looks = await Promise.all(keys.map((key) => this.limiter.peek(key, this.#failures)));
    const refused = looks.find((decision) => !decision.allowed);
    if (refused !== undefined) {
      request.log.warn({ subject: subject.split(':')[0] }, 'failed secret limit reached');
      throw refusal(refusedAs, refused);
    }
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof ServiceError && failures.includes(error.error)) {
        await Promise.all(keys.map((key) => this.limiter.take(key, this.#failures)));
      }
      throw error;
    }
  }
}

function applyDecision(reply: FastifyReply, decision: RateDecision): undefined {
  reply.header('ratelimit-limit', String(decision.limit));
  reply.header('ratelimit-remaining', String(decision.remaining));
  reply.header('ratelimit-reset', String(decision.resetSeconds));
  if (!decision.allowed) throw refusal('rateLimited', decision);
  return undefined;
}

function refusal(
  error: 'rateLimited' | 'authAttemptsLimited' | 'loginAttemptsLimited',
  decision: RateDecision,
): ServiceError {
  const retryAfter = decision.retryAfterSeconds;
  return new ServiceError(error, {
    params: { retry_after: retryAfter },
    data: { retry_after: retryAfter },
    headers: { 'retry-after': String(retryAfter) },
  });
}

/** Creates the instance's limiter (connecting to Redis when configured) and closes it with the app. */
export async function installRateLimits(
  app: FastifyInstance,
  config: Config,
  logger: WarnLogger,
): Promise<void> {
  const limiter = await RateLimiter.open({
    redisUrl: config.redisUrl,
    keyPrefix: config.protection.redisKeyPrefix,
    timeoutMs: config.protection.redisTimeoutMs,
    logger,
  });
  app.decorate('limits', new RequestLimits(limiter, config));
  app.addHook('onClose', () => limiter.close());
  await limiter.ready();
}
