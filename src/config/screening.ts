import { text, type Env } from './variables.ts';

export interface ScreeningConfig {
  /**
   * The score (0 to 1) at which a listed name is a hit: lower finds more variants and more
   * namesakes. The default was chosen on the labelled set (docs/SCREENING.md).
   */
  threshold: number;
}

export function screeningConfig(env: Env): ScreeningConfig {
  return { threshold: Number(text(env, 'SCREENING_THRESHOLD')) };
}
