/** One error of the catalogue; its family's file (beside this one) lists it. */
export interface CatalogueEntry {
  readonly code: number;
  readonly status: number;
  /** Short identifier used in logs, metrics and the OpenAPI document. */
  readonly name: string;
  readonly en: string;
  readonly zh: string;
}

/** An entry whose status is read from its code (`status * 100 + detail`). */
export function entry(code: number, name: string, en: string, zh: string): CatalogueEntry {
  return { code, status: Math.floor(code / 100), name, en, zh };
}
