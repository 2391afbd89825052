/** What causes an error and what to do about it. */
export interface Guidance {
  readonly cause: string;
  readonly remedy: string;
}
