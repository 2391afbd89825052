/**
 * Types shared by the shell and the pages (JSDoc only: this module exports nothing at run time).
 *
 * @typedef {{ username: string, role: string, csrf: string | null, idle: number, enrol: boolean }} Session
 *
 * @typedef {{ code: string, name: string, name_zh: string, other: boolean }} CodeEntry
 *
 * @typedef {{
 *   statuses: string[],
 *   moves: Record<string, { action: string, to: string, reason_required: boolean, codes_required: boolean, fields_required: boolean, details_required: string[], details_optional: string[] }[]>,
 *   acting_role: string,
 *   roles: string[],
 *   revealable_fields: string[],
 *   reveal_purposes: string[],
 *   sla_seconds: Record<string, number>,
 *   amendable_fields: string[],
 *   supplement_days: number,
 *   risk_flags: string[],
 *   codes: Record<string, CodeEntry[]>,
 * }} Meta
 *
 * @typedef {{
 *   session: Session,
 *   meta: Meta,
 *   can: (role: string) => boolean,
 *   navigate: (url: string, options?: { replace?: boolean }) => void,
 *   toast: (message: string, kind?: 'success' | 'error' | 'info') => void,
 *   setTitle: (title: string) => void,
 *   signedIn: (session: Session, target: string) => void,
 *   enrolled: () => void,
 *   languageSwitch: () => HTMLElement,
 * }} PageContext
 *
 * A page: draws itself into `main`, and returns what to undo when the console leaves it.
 * @typedef {(main: HTMLElement, ctx: PageContext, params: string[]) => (void | (() => void))} Page
 */
export {};
