import { api } from '../../api.js';

/** The operators page's requests: the operators, a new one, and a change to one. */

/** @returns {Promise<import('./state.js').Operator[]>} */
export const fetchOperators = () => api('GET', '/operators');

/** @param {import('./state.js').NewOperator} operator */
export const createOperator = (operator) => api('POST', '/operators', operator);

/**
 * @param {string} username
 * @param {string} change what changes: `role`, `password`, `mfa/reset`, `enable`, `disable`
 * @param {unknown} payload
 */
export const changeOperator = (username, change, payload) =>
  api('POST', `/operators/${encodeURIComponent(username)}/${change}`, payload);
