import { language } from './i18n.js';

/**
 * The admin API client. The session is the HttpOnly cookie the login sets (scripts never see it);
 * every request that changes something sends the session's CSRF token, which the console keeps
 * only in memory. A 401 means the session ended (the console goes back to sign-in), except one that
 * refuses a typed second-factor code: the session stands and the page says what to type.
 */

export const ADMIN = '/admin/v1';

/** @typedef {{ field: string, code: number, message: string }} FieldError */

/** 401s that refuse a typed code, not the session: a wrong code at sign-in, at enrolment. */
const CODE_REFUSALS = new Set([40171, 40172]);

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{ code: number, msg: string, data: unknown }} envelope
   */
  constructor(status, envelope) {
    super(envelope.msg);
    this.status = status;
    this.code = envelope.code;
    const data = /** @type {{ errors?: FieldError[] } | null} */ (envelope.data);
    /** @type {FieldError[]} */
    this.fieldErrors =
      data !== null && typeof data === 'object' && Array.isArray(data.errors) ? data.errors : [];
  }
}

/** @type {string | null} */
let csrfToken = null;
/** @param {string | null} token */
export const setCsrfToken = (token) => {
  csrfToken = token;
};

/** @type {(message: string) => void} */
let sessionLost = () => {};
/** @param {(message: string) => void} handler */
export const onSessionLost = (handler) => {
  sessionLost = handler;
};

/** Told of every request that counts as use of the session (the idle watch, wired by main.js). */
let used = () => {};
/** @param {() => void} handler */
export const onActivity = (handler) => {
  used = handler;
};

/**
 * @param {'GET' | 'POST' | 'DELETE'} method
 * @param {string} path below /admin/v1
 * @param {unknown} [body] POSTs always send a JSON object
 * @param {{ background?: boolean }} [options] background: a refresh the operator did not ask for; it
 *   does not count as use of the session (PCI DSS 8.2.8: an open page must still go idle)
 * @returns {Promise<any>} the envelope's data
 */
export async function api(method, path, body, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json', 'accept-language': language() === 'zh' ? 'zh-CN' : 'en' };
  /** @type {RequestInit} */
  const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  if (method !== 'GET' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  if (options.background === true) headers['x-cardapply-background'] = '1';
  let response;
  try {
    response = await fetch(`${ADMIN}${path}`, init);
  } catch {
    throw new ApiError(0, {
      code: 0,
      msg: language() === 'zh' ? '无法连接服务' : 'The service cannot be reached',
      data: null,
    });
  }
  /** @type {{ code: number, msg: string, data: unknown }} */
  let envelope;
  try {
    envelope = await response.json();
  } catch {
    envelope = { code: response.status * 100, msg: response.statusText, data: null };
  }
  if (response.status === 401 && path !== '/login' && !CODE_REFUSALS.has(envelope.code))
    sessionLost(envelope.msg);
  if (response.ok && path !== '/session' && options.background !== true) used();
  if (!response.ok || envelope.code !== 0) throw new ApiError(response.status, envelope);
  return envelope.data;
}

/**
 * A query string from the defined values of an object.
 * @param {Record<string, string | number | undefined | null>} params
 */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
